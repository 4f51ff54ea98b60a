import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, type Page } from '@playwright/test';
import { ADMIN, apiContext, CURATOR, PUBLIC_KB, RATER, signIn, waitForHydration, test } from './fixtures';

/**
 * Importing through the browser: upload files, start the import, follow the job page, open the result.
 * The first test imports the real PrimeKG IBD subgraph (text-graph format); the others write small
 * native-format files with bad rows.
 */

// The shared data folder sits beside the checkout.
const IBD_DIR = process.env.SKB_PRIMEKG_IBD_DIR ?? path.resolve('..', 'shared', 'data', 'primekg-ibd');
// The server's data folder (playwright.config.ts), where uploads are saved.
const UPLOADS = path.resolve('.data/e2e/uploads');

const ENTITIES = [
  '{"id": "d1", "type": "drug", "name": "Budesonide", "document": {"description": "A glucocorticoid."}}',
  '{"id": "c1", "type": "disease", "name": "Crohn disease"}',
  '{"id": "broken", "type": ',
  '{"id": "g1", "type": "gene", "name": "NOD2"}',
].join('\n');
const EDGES = ['source\trelation\ttarget', 'd1\tindication\tc1', 'g1\tassociated with\tc1', 'd1\ttargets\tghost'].join('\n');

/** A native-format pair with two bad rows: invalid JSON on entities.jsonl line 3, an unknown target on edges.tsv line 4. */
function writeNativeFiles(): string[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skb-e2e-import-'));
  fs.writeFileSync(path.join(dir, 'entities.jsonl'), ENTITIES);
  fs.writeFileSync(path.join(dir, 'edges.tsv'), EDGES);
  return [path.join(dir, 'entities.jsonl'), path.join(dir, 'edges.tsv')];
}

const uniqueSlug = (prefix: string) => `${prefix}-${Date.now().toString(36)}`;

async function openImportForm(page: Page): Promise<void> {
  await page.goto('/admin/import');
  await waitForHydration(page.getByRole('button', { name: 'Start import' }));
}

/** Fills the form, submits it and waits for the job page. */
async function startImport(page: Page, form: { slug: string; name?: string; format: string; files: string[]; onError: 'stop' | 'skip' }): Promise<number> {
  await page.getByLabel('Slug', { exact: true }).fill(form.slug);
  if (form.name) await page.getByLabel('Display name', { exact: true }).fill(form.name);
  await page.getByLabel('Format', { exact: true }).selectOption(form.format);
  await page.getByLabel('Files', { exact: true }).setInputFiles(form.files);
  await page.getByLabel('On bad rows', { exact: true }).selectOption(form.onError);
  await page.getByRole('button', { name: 'Start import' }).click();
  await expect(page).toHaveURL(/\/imports\/\d+$/, { timeout: 30_000 });
  return Number(new URL(page.url()).pathname.split('/').pop());
}

/** The rows of the error table as [file, line, reason]. */
async function errorRows(page: Page): Promise<string[][]> {
  const rows = page.getByTestId('import-error-table').locator('tbody tr');
  return rows.evaluateAll((trs) => trs.map((tr) => Array.from(tr.querySelectorAll('td'), (td) => td.textContent ?? '')));
}

test('a curator imports the PrimeKG IBD subgraph, follows the job and opens the knowledge base', async ({ page }) => {
  test.setTimeout(150_000);
  const files = ['nodes.jsonl', 'edges.csv'].map((f) => path.join(IBD_DIR, f));
  const missing = files.filter((f) => !fs.existsSync(f));
  expect(missing, `The PrimeKG IBD files are missing (${missing.join(', ')}): put nodes.jsonl and edges.csv in ${IBD_DIR} or set SKB_PRIMEKG_IBD_DIR`).toEqual([]);
  const slug = uniqueSlug('primekg-ibd');

  await signIn(page, CURATOR);
  await page.getByRole('link', { name: 'Import', exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/import$/);
  await waitForHydration(page.getByRole('button', { name: 'Start import' }));
  await page.getByLabel('Format', { exact: true }).selectOption('text-graph');
  await expect(page.locator('#import-format-help')).toContainText('nodes (.jsonl) and edges (.csv)');
  await startImport(page, { slug, name: 'PrimeKG IBD subgraph', format: 'text-graph', files, onError: 'stop' });

  await expect(page.getByRole('heading', { name: new RegExp(slug) })).toBeVisible();
  await expect(page.getByTestId('import-status')).toHaveText('SUCCEEDED', { timeout: 90_000 });
  const expectFinishedState = async () => {
    await expect(page.getByTestId('import-status')).toHaveText('SUCCEEDED');
    await expect(page.getByTestId('import-phase')).toHaveText('Done');
    await expect(page.getByTestId('import-progress')).toHaveAttribute('aria-valuenow', '100');
    await expect(page.getByTestId('import-rows')).toHaveText('16,178'); // 3,426 nodes + 12,752 edge rows
    await expect(page.getByTestId('import-errors')).toHaveText('0');
    await expect(page.getByTestId('summary-entities')).toHaveText('3,426 entities');
    await expect(page.getByTestId('summary-edges')).toHaveText('12,752 edges');
    await expect(page.getByTestId('import-summary')).toContainText('gene/protein');
    await expect(page.getByRole('button', { name: 'Cancel import' })).toHaveCount(0);
  };
  await expectFinishedState();

  // Everything shown comes from the job's row: a reload shows the same.
  await page.reload();
  await expectFinishedState();

  await page.getByRole('link', { name: 'Open knowledge base' }).click();
  await expect(page).toHaveURL(new RegExp(`/kb/${slug}$`));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('PrimeKG IBD subgraph');
  const hub = page.getByTestId('entity-list').getByRole('link').first();
  const hubName = (await hub.textContent())!;
  await hub.click();
  await expect(page.getByTestId('entity-name')).toHaveText(hubName);
  // text-graph documents carry node_attr as the description, e.g. "IL10 belongs to gene/protein category. ...".
  await expect(page.getByTestId('entity-document')).toContainText(`${hubName} belongs to`);
});

test('skipping bad rows: the import succeeds, lists the two bad rows and offers the error report', async ({ page }) => {
  const slug = uniqueSlug('native-skip');
  await signIn(page, CURATOR);
  await openImportForm(page);

  // Checked in the browser before anything is uploaded.
  await page.getByRole('button', { name: 'Start import' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'The slug must be 2 to 64 lowercase letters' })).toBeVisible();
  await expect(page.getByRole('alert').filter({ hasText: 'Pick the files to import.' })).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/import$/);

  const jobId = await startImport(page, { slug, format: 'native', files: writeNativeFiles(), onError: 'skip' });
  await expect(page.getByTestId('import-status')).toHaveText('SUCCEEDED', { timeout: 30_000 });
  await expect(page.getByTestId('summary-entities')).toHaveText('3 entities');
  await expect(page.getByTestId('summary-edges')).toHaveText('2 edges');
  await expect(page.getByTestId('import-errors')).toHaveText('2');
  const rows = await errorRows(page);
  expect(rows).toHaveLength(2);
  expect(rows[0]!.slice(0, 2)).toEqual(['entities.jsonl', '3']);
  expect(rows[0]![2]).toMatch(/^invalid JSON: /);
  expect(rows[1]).toEqual(['edges.tsv', '4', 'edge points to unknown entity: target "ghost"']);

  const downloading = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Download error report' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`import-${jobId}-errors.tsv`);
  const report = fs.readFileSync((await download.path())!, 'utf8').split('\n');
  expect(report[0]).toBe('file\tline\treason');
  expect(report[1]).toMatch(/^entities\.jsonl\t3\tinvalid JSON: /);
  expect(report[2]).toBe('edges.tsv\t4\tedge points to unknown entity: target "ghost"');
  expect(report.slice(3)).toEqual(['']);

  // The job is listed under the form, with its status.
  await openImportForm(page);
  const listed = page.getByTestId('import-job-list').getByRole('row').filter({ has: page.getByRole('link', { name: `#${jobId}`, exact: true }) });
  await expect(listed).toContainText(slug);
  await expect(listed).toContainText('SUCCEEDED');
});

test('stopping at the first bad row: the import fails, shows the error, creates nothing and removes its uploads', async ({ page }) => {
  const slug = uniqueSlug('native-stop');
  await signIn(page, CURATOR);
  await openImportForm(page);
  await startImport(page, { slug, format: 'native', files: writeNativeFiles(), onError: 'stop' });

  await expect(page.getByTestId('import-status')).toHaveText('FAILED', { timeout: 30_000 });
  await expect(page.getByTestId('import-message')).toContainText('entities.jsonl:3: invalid JSON');
  await expect(page.getByText('Nothing was imported.')).toBeVisible();
  // The phase it stopped in, and no progress bar counting bytes it never measured.
  await expect(page.getByTestId('import-phase')).toHaveText(/^Failed while (reading the files|loading entities)$/);
  await expect(page.getByText(/% of 0 bytes read/)).toHaveCount(0);
  const rows = await errorRows(page);
  expect(rows).toHaveLength(1);
  expect(rows[0]!.slice(0, 2)).toEqual(['entities.jsonl', '3']);
  await expect(page.getByRole('link', { name: 'Download error report' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Open knowledge base' })).toHaveCount(0);

  const kb = await page.request.get(`/api/kbs/${slug}`);
  expect(kb.status()).toBe(404);
  await expect.poll(() => (fs.existsSync(UPLOADS) ? fs.readdirSync(UPLOADS) : []), { message: 'uploads removed after the import' }).toEqual([]);
});

test("an upload id works only for the user who uploaded it: to anyone else it does not exist", async ({ page, playwright }) => {
  const admin = await apiContext(playwright, ADMIN);
  try {
    const res = await admin.put('/api/uploads?name=entities.jsonl', { data: ENTITIES, headers: { 'content-type': 'application/octet-stream' } });
    expect(res.status()).toBe(201);
    const { uploadId } = (await res.json()) as { uploadId: string };

    await signIn(page, CURATOR);
    const unknown = await page.request.post('/api/imports', { data: { format: 'native', slug: uniqueSlug('unknown'), uploads: ['0'.repeat(32)] } });
    const theirs = await page.request.post('/api/imports', { data: { format: 'native', slug: uniqueSlug('theirs'), uploads: [uploadId] } });
    expect(theirs.status()).toBe(404);
    const error = ((await theirs.json()) as { error: string }).error;
    expect(error).toBe(((await unknown.json()) as { error: string }).error.replace('0'.repeat(32), uploadId));
    const asQueries = await page.request.post(`/api/kbs/${PUBLIC_KB.slug}/query-sets`, { data: { name: uniqueSlug('theirs'), format: 'stark', files: [{ uploadId, kind: 'queries' }] } });
    expect(asQueries.status()).toBe(404);

    // The refused requests neither used nor removed it: its owner imports it.
    const own = await admin.post('/api/imports', { data: { format: 'native', slug: uniqueSlug('own'), onError: 'skip', uploads: [uploadId] } });
    expect(own.status()).toBe(202);
    const { jobId } = (await own.json()) as { jobId: number };
    await expect.poll(async () => ((await (await admin.get(`/api/imports/${jobId}`)).json()) as { status: string }).status, { timeout: 30_000 }).toBe('SUCCEEDED');
  } finally {
    await admin.dispose();
  }
});

test('an import whose process was killed shows as failed, with why, as soon as its page is opened', async ({ page }) => {
  test.setTimeout(120_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skb-e2e-killed-'));
  // The command runs on the server's embedded database (the data folder's), as an operator's would.
  const env = { ...process.env, SKB_DATA_DIR: path.resolve('.data/e2e'), DATABASE_URL: '' };
  const skb = (args: string[]) => spawn(process.execPath, [path.resolve('bin', 'skb.mjs'), ...args], { env, stdio: 'ignore' });
  const generated = skb(['generate', '--entities', '60000', '--edges', '120000', '--out', dir]);
  expect(await new Promise((resolve) => generated.on('exit', resolve))).toBe(0);
  const slug = uniqueSlug('killed');
  const importer = skb(['import', '--kb', slug, '--format', 'native', path.join(dir, 'entities.jsonl'), path.join(dir, 'edges.tsv')]);
  try {
    await signIn(page, ADMIN);
    const running = async () => {
      const { jobs } = (await (await page.request.get('/api/imports')).json()) as { jobs: { id: number; slug: string; status: string; rowsRead: number }[] };
      return jobs.find((j) => j.slug === slug && j.status === 'RUNNING' && j.rowsRead > 0)?.id ?? null;
    };
    await expect.poll(running, { timeout: 60_000, intervals: [100] }).not.toBeNull();
    const jobId = (await running())!;
    importer.kill('SIGKILL');
    await new Promise((resolve) => importer.on('exit', resolve));

    await page.goto(`/imports/${jobId}`);
    await expect(page.getByTestId('import-status')).toHaveText('FAILED');
    await expect(page.getByTestId('import-message')).toHaveText(/^The import was interrupted: its process \(pid \d+ on .+\) stopped\.$/);
    // Its knowledge base is gone, so the slug is free.
    expect((await page.request.get(`/api/kbs/${slug}`)).status()).toBe(404);
  } finally {
    importer.kill('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('the import API refuses what it cannot import', async ({ page }) => {
  await signIn(page, CURATOR);
  const api = page.request;
  const upload = async (name: string, body: string) => {
    const res = await api.put(`/api/uploads?name=${encodeURIComponent(name)}`, { data: body, headers: { 'content-type': 'application/octet-stream' } });
    expect(res.status(), `upload of ${name}`).toBe(201);
    return ((await res.json()) as { uploadId: string }).uploadId;
  };
  const start = (body: Record<string, unknown>) => api.post('/api/imports', { data: { format: 'native', ...body } });

  expect((await api.put('/api/uploads?name=.env', { data: 'x' })).status()).toBe(400);
  expect((await api.put('/api/uploads?name=edges.csv', { data: '' })).status()).toBe(400);
  expect((await start({ slug: 'Bad Slug', uploads: ['0'.repeat(32)] })).status()).toBe(400);
  const unknown = await start({ slug: uniqueSlug('api'), uploads: ['0'.repeat(32)] });
  expect(unknown.status()).toBe(404);
  expect(((await unknown.json()) as { error: string }).error).toContain('No upload');

  // A file set the format does not take: the reader's message, before any job exists.
  const wrongSet = await start({ slug: uniqueSlug('api'), format: 'text-graph', uploads: [await upload('nodes.txt', 'x')] });
  expect(wrongSet.status()).toBe(400);
  expect(((await wrongSet.json()) as { error: string }).error).toContain('Text-graph format');

  // An existing knowledge base: 409 without replace, 403 with it for a curator who does not manage it.
  const existing = await start({ slug: PUBLIC_KB.slug, uploads: [await upload('entities.jsonl', ENTITIES)] });
  expect(existing.status()).toBe(409);
  const notMine = await start({ slug: PUBLIC_KB.slug, replace: true, uploads: [await upload('entities.jsonl', ENTITIES)] });
  expect(notMine.status()).toBe(403);

  // A good request answers 202 with the job at once; the job reads as JSON with numbers.
  const slug = uniqueSlug('api');
  const good = await start({ slug, onError: 'skip', uploads: [await upload('entities.jsonl', ENTITIES), await upload('edges.tsv', EDGES)] });
  expect(good.status()).toBe(202);
  const { jobId } = (await good.json()) as { jobId: number };
  const job = async () => (await api.get(`/api/imports/${jobId}`)).json() as Promise<Record<string, unknown>>;
  await expect.poll(async () => (await job()).status, { timeout: 30_000 }).toBe('SUCCEEDED');
  expect(await job()).toMatchObject({
    id: jobId, slug, kbSlug: slug, format: 'native', files: ['entities.jsonl', 'edges.tsv'], phase: 'done', rowsRead: 7, entities: 3, edges: 2,
    errorCount: 2, createdBy: CURATOR, message: null, summary: { entities: 3, edges: 2, relations: { indication: 1, 'associated with': 1 } },
  });
  expect((await api.post(`/api/imports/${jobId}/cancel`)).status()).toBe(409);
  expect((await api.get('/api/imports/999999')).status()).toBe(404);
});

test('a rater may neither open the import page nor import', async ({ page }) => {
  await signIn(page, RATER);
  await expect(page.getByRole('link', { name: 'Import', exact: true })).toHaveCount(0);
  const response = await page.goto('/admin/import');
  expect(response?.status()).toBe(403);
  await expect(page.getByRole('heading', { name: '403 · Not allowed' })).toBeVisible();

  const start = await page.request.post('/api/imports', { data: { slug: 'rater-kb', format: 'native', uploads: ['0'.repeat(32)] } });
  expect(start.status()).toBe(403);
  expect((await page.request.put('/api/uploads?name=entities.jsonl', { data: ENTITIES })).status()).toBe(403);
  expect((await page.request.get('/api/imports')).status()).toBe(403);
});
