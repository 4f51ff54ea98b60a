import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { CURATOR, PUBLIC_KB, RATER, signIn, waitForHydration, test, expectConsole } from './fixtures';
import { unzip } from './gear-kb';

/**
 * Query sets through the browser: import a STaRK query set, read its statistics, release and download it,
 * score a run, edit a query. STaRK ids are integers and the demo catalogue's are not (P0001, B01, ...), so
 * the test first imports a small knowledge base of outdoor products with integer ids, then reads their
 * external ids back through the API to write the query files.
 */

const uniqueName = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;

const ENTITIES = [
  { id: 101, type: 'product', name: 'Trail running shoe', document: { description: 'A light shoe for running on mountain trails.' } },
  { id: 102, type: 'product', name: 'Waterproof hiking boot', document: { description: 'Keeps feet dry on wet hikes.' } },
  { id: 103, type: 'product', name: 'Merino hiking sock', document: { description: 'A warm sock made of merino wool.' } },
  { id: 104, type: 'brand', name: 'Northpeak', document: { description: 'An outdoor brand.' } },
  { id: 105, type: 'material', name: 'Merino wool', document: { description: 'Fine wool from merino sheep.' } },
  { id: 106, type: 'product', name: 'Rain jacket', document: { description: 'A jacket for the rain.' } },
];
const EDGES = ['source\trelation\ttarget', '101\thas_brand\t104', '102\thas_brand\t104', '103\tmade_of\t105', '106\thas_brand\t104'].join('\n');

/** Imports the outdoor knowledge base through the import API and waits for it to be published. */
async function importOutdoorKb(api: APIRequestContext, slug: string): Promise<void> {
  const upload = async (name: string, body: string) => {
    const res = await api.put(`/api/uploads?name=${encodeURIComponent(name)}`, { data: body, headers: { 'content-type': 'application/octet-stream' } });
    expect(res.status(), `upload of ${name}`).toBe(201);
    return ((await res.json()) as { uploadId: string }).uploadId;
  };
  const uploads = [await upload('entities.jsonl', ENTITIES.map((e) => JSON.stringify(e)).join('\n')), await upload('edges.tsv', EDGES)];
  const start = await api.post('/api/imports', { data: { slug, name: 'Outdoor shop', format: 'native', uploads } });
  expect(start.status()).toBe(202);
  const { jobId } = (await start.json()) as { jobId: number };
  await expect.poll(async () => ((await (await api.get(`/api/imports/${jobId}`)).json()) as { status: string }).status, { timeout: 30_000 }).toBe('SUCCEEDED');
}

/** The external id of the entity with this exact name, as the knowledge base's autocomplete reports it. */
async function externalId(api: APIRequestContext, slug: string, name: string): Promise<string> {
  const res = await api.get(`/api/kbs/${slug}/autocomplete?q=${encodeURIComponent(name)}`);
  expect(res.status()).toBe(200);
  const hit = ((await res.json()) as { items: { name: string; externalId: string }[] }).items.find((e) => e.name === name);
  expect(hit, `entity "${name}" in ${slug}`).toBeDefined();
  return hit!.externalId;
}

interface QueryFiles {
  csv: string;
  splits: string[];
  ids: Record<'shoe' | 'boot' | 'sock' | 'brand' | 'wool' | 'jacket', string>;
}

/**
 * A STaRK QA CSV of four queries (as pandas writes it: the lists holding ", " are quoted) and two split files
 * without a trailing newline. By hand: 4 queries, 2 with several answers, (1 + 2 + 3 + 1) / 4 = 1.75 answers
 * per query; train 2 (50%, average 1.5), test 2 (50%, average 2.0); 24 words, 22 distinct ("for" and "on"
 * twice): entropy 20/24·log2(24) + 2·2/24·log2(12) = 4.42 bits, type-token ratio 22/24 = 0.9167.
 */
async function writeQueryFiles(api: APIRequestContext, slug: string): Promise<QueryFiles> {
  const ids = {
    shoe: await externalId(api, slug, 'Trail running shoe'),
    boot: await externalId(api, slug, 'Waterproof hiking boot'),
    sock: await externalId(api, slug, 'Merino hiking sock'),
    brand: await externalId(api, slug, 'Northpeak'),
    wool: await externalId(api, slug, 'Merino wool'),
    jacket: await externalId(api, slug, 'Rain jacket'),
  };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skb-e2e-queries-'));
  const csv = path.join(dir, 'stark_qa.csv');
  fs.writeFileSync(csv, [
    'id,query,answer_ids',
    `0,Shoes for running on mountain trails,[${ids.shoe}]`,
    `1,"Warm socks, made of merino wool","[${ids.sock}, ${ids.wool}]"`,
    `2,Boots that keep feet dry on hikes,"[${ids.boot}, ${ids.shoe}, ${ids.jacket}]"`,
    `3,A jacket for the rain,[${ids.jacket}]`,
    '',
  ].join('\n'));
  fs.mkdirSync(path.join(dir, 'split'));
  const train = path.join(dir, 'split', 'train.index');
  const testSplit = path.join(dir, 'split', 'test.index');
  fs.writeFileSync(train, '0\n1');
  fs.writeFileSync(testSplit, '2\n3');
  return { csv, splits: [train, testSplit], ids };
}

async function openImportForm(page: Page, slug: string): Promise<void> {
  await page.goto(`/kb/${slug}/queries`);
  await page.getByRole('link', { name: 'Import a query set' }).click();
  await expect(page).toHaveURL(new RegExp(`/kb/${slug}/queries/import$`));
  await waitForHydration(page.getByRole('button', { name: 'Import query set' }));
}

/** The cells of a table's rows, header cells included. */
function tableRows(page: Page, testId: string): Promise<string[][]> {
  return page.getByTestId(testId).locator('tbody tr').evaluateAll((trs) => trs.map((tr) => Array.from(tr.querySelectorAll('th, td'), (c) => (c.textContent ?? '').trim())));
}

test('a curator imports a STaRK query set, reads its statistics, releases it, scores a run and edits a query', async ({ page }) => {
  // Refusals the test provokes (a bad file, a release with nothing new, an edit of an outdated version): the browser
  // logs each; the page's messages are what the test checks.
  expectConsole(/Failed to load resource: the server responded with a status of (400|409)/);
  test.setTimeout(120_000);
  const slug = uniqueName('outdoor');
  const setName = uniqueName('outdoor-qa');
  await signIn(page, CURATOR);
  await importOutdoorKb(page.request, slug);
  const files = await writeQueryFiles(page.request, slug);

  // The nav leads to the knowledge base's query sets.
  await page.goto(`/kb/${slug}`);
  await page.getByRole('navigation', { name: 'Explorer' }).getByRole('link', { name: 'Queries' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Query sets' })).toBeVisible();
  await expect(page.getByText('No query set yet.')).toBeVisible();

  // A file with a bad row: nothing is imported, the problem is listed with its file and line.
  const bad = path.join(path.dirname(files.csv), 'bad_qa.csv');
  fs.writeFileSync(bad, ['id,query,answer_ids', `0,Shoes for trails,[${files.ids.shoe}]`, `x1,A bad id,[${files.ids.shoe}]`, ''].join('\n'));
  await openImportForm(page, slug);
  await page.getByRole('button', { name: 'Import query set' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'The name must be 1 to 80' })).toBeVisible();
  await expect(page.getByRole('alert').filter({ hasText: 'Pick the query file (CSV).' })).toBeVisible();
  await page.getByLabel('Name', { exact: true }).fill(setName);
  await page.getByLabel('Query file (CSV)', { exact: true }).setInputFiles(bad);
  await page.getByRole('button', { name: 'Import query set' }).click();
  await expect(page.getByTestId('problem-table')).toBeVisible();
  const problems = await tableRows(page, 'problem-table');
  expect(problems).toHaveLength(1);
  expect(problems[0]!.slice(0, 2)).toEqual(['bad_qa.csv', '3']);
  expect(problems[0]![2]).toContain('id: expected a non-negative integer');
  expect((await page.request.get(`/api/kbs/${slug}/query-sets/${setName}`)).status()).toBe(404);

  // The good files: CSV and split files; the set page follows.
  await page.getByLabel('Query file (CSV)', { exact: true }).setInputFiles(files.csv);
  await page.getByLabel('Split files (optional)', { exact: true }).setInputFiles(files.splits);
  await page.getByLabel('Origin', { exact: true }).selectOption('human');
  await page.getByLabel('Licence', { exact: true }).fill('CC BY 4.0');
  await page.getByRole('button', { name: 'Import query set' }).click();
  await expect(page).toHaveURL(new RegExp(`/kb/${slug}/queries/${setName}$`), { timeout: 30_000 });
  await expect(page.getByRole('heading', { level: 1, name: setName })).toBeVisible();
  await expect(page.getByTestId('set-summary')).toContainText('4 queries · origin human · licence CC BY 4.0');
  await expect(page.getByTestId('query-total')).toHaveText('4 queries');
  expect(await tableRows(page, 'query-table')).toEqual([
    ['0', 'Shoes for running on mountain trails', 'train', '1'],
    ['1', 'Warm socks, made of merino wool', 'train', '2'],
    ['2', 'Boots that keep feet dry on hikes', 'test', '3'],
    ['3', 'A jacket for the rain', 'test', '1'],
  ]);
  await page.getByLabel('Split', { exact: true }).selectOption('test');
  await expect(page.getByTestId('query-total')).toHaveText('2 queries');
  await expect(page).toHaveURL(/split=test/);

  // Statistics: the numbers computed by hand above, and both charts.
  await page.getByRole('tab', { name: 'Statistics' }).click();
  await expect(page).toHaveURL(/\?tab=stats$/);
  await expect(page.getByTestId('stats-table')).toBeVisible();
  expect(await tableRows(page, 'stats-table')).toEqual([
    ['train', '2', '50.0%', '1', '1.50', '6.0'],
    ['test', '2', '50.0%', '1', '2.00', '6.0'],
    ['All', '4', '100.0%', '2', '1.75', '6.0'],
  ]);
  expect((await tableRows(page, 'lexical-table')).at(-1)).toEqual(['All', '24', '22', '4.42', '0.9167']);
  for (const chart of ['Query length in words', 'Answers per query']) {
    const image = page.getByRole('img', { name: chart });
    await expect(image).toBeVisible();
    await expect(image.locator('.recharts-bar-rectangle').first()).toBeVisible();
  }
  // Tabs answer the arrow keys.
  await page.getByRole('tab', { name: 'Statistics' }).press('ArrowRight');
  await expect(page.getByRole('tab', { name: 'Releases' })).toBeFocused();
  await expect(page.getByRole('tab', { name: 'Releases' })).toHaveAttribute('aria-selected', 'true');

  // A release, then its page and download: a zip with the dataset card, without the format left out.
  await page.getByLabel('Release name').fill('First release');
  await page.getByRole('button', { name: 'Make release' }).click();
  await expect(page.getByRole('status')).toContainText('Release 1 made.');
  await expect(page.getByTestId('release-table')).toContainText('First release');
  await page.getByLabel('Release name').fill('Same again');
  await page.getByRole('button', { name: 'Make release' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Nothing changed since release 1' })).toBeVisible();
  await page.getByRole('link', { name: 'Release 1', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Release 1: First release');
  await expect(page.getByTestId('release-hash')).toHaveText(/^sha256:[0-9a-f]{64}$/);
  await expect(page.getByTestId('dataset-card')).toContainText(`${setName} — release 1: First release`);
  await page.getByLabel(/^TREC/).uncheck();
  const downloading = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Download release 1' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`${setName}-v1.zip`);
  const zip = fs.readFileSync((await download.path())!);
  expect(zip.subarray(0, 2).toString('latin1')).toBe('PK');
  // Zip entry names are stored uncompressed.
  expect(zip.includes(`${setName}-v1/README.md`)).toBe(true);
  expect(zip.includes(`${setName}-v1/stark/`)).toBe(true);
  expect(zip.includes(`${setName}-v1/trec/`)).toBe(false);

  // A TREC run. By hand: reciprocal ranks 1, 1/2 (the sock at rank 2), 1, and 0 for query 3, absent from the
  // run: MRR = 2.5 / 4 = 0.625; Hit@1 = 2 / 4 = 0.5.
  const { ids } = files;
  const run = path.join(path.dirname(files.csv), 'e2e.run');
  fs.writeFileSync(run, [
    `0 Q0 ${ids.shoe} 1 3.0 e2e`, `0 Q0 ${ids.boot} 2 2.0 e2e`,
    `1 Q0 ${ids.brand} 1 5.0 e2e`, `1 Q0 ${ids.sock} 2 4.0 e2e`,
    `2 Q0 ${ids.boot} 1 1.0 e2e`, '',
  ].join('\n'));
  await page.goto(`/kb/${slug}/queries/${setName}?tab=runs`);
  await waitForHydration(page.getByRole('button', { name: 'Evaluate run' }));
  await page.getByLabel('Run file').setInputFiles(run);
  await page.getByLabel('Run name (optional)').fill('bm25-e2e');
  await page.getByRole('button', { name: 'Evaluate run' }).click();
  await expect(page.getByRole('status')).toContainText('Scored bm25-e2e: MRR 0.625');
  const runRow = page.getByTestId('run-table').getByRole('row').filter({ hasText: 'bm25-e2e' });
  await expect(runRow.locator('[data-metric="mrr"]')).toHaveText('0.625');
  await expect(runRow.locator('[data-metric="hit1"]')).toHaveText('0.500');

  // The baseline runs in the background; the list follows its progress until it is done. Then compare.
  await page.getByRole('button', { name: 'Compute baseline' }).click();
  const baselineRow = page.getByTestId('run-table').getByRole('row').filter({ hasText: 'BM25 (k1 1.2, b 0.75)' });
  await expect(baselineRow).toContainText('done', { timeout: 30_000 });
  const optionValue = (select: string, run: string) => page.getByLabel(select).locator('option', { hasText: run }).getAttribute('value') as Promise<string>;
  await page.getByLabel('Run A').selectOption(await optionValue('Run A', 'BM25 (k1 1.2, b 0.75)'));
  await page.getByLabel('Run B').selectOption(await optionValue('Run B', 'bm25-e2e'));
  await page.getByRole('button', { name: 'Compare', exact: true }).click();
  const mrrRow = page.getByTestId('compare-table').getByRole('row').filter({ hasText: 'MRR' });
  await expect(mrrRow.locator('td').nth(1)).toHaveText('0.625');

  // BM25 again with stop words removed and stemming: a run of its own on an index of its own, named so.
  await page.getByLabel('Stop words removed').check();
  await page.getByLabel('Stemming').check();
  await page.getByRole('button', { name: 'Compute baseline' }).click();
  await expect(page.getByTestId('run-table').getByRole('row').filter({ hasText: 'BM25 (k1 1.2, b 0.75; stop words removed, Porter stemming)' }))
    .toContainText('done', { timeout: 30_000 });

  // The run's page: query 3 (not retrieved) comes first when sorted by MRR, worst first.
  await runRow.getByRole('link', { name: 'bm25-e2e' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Run: bm25-e2e');
  await expect(page.getByTestId('run-summary').getByRole('row').filter({ hasText: 'All' }).locator('[data-metric="mrr"]')).toHaveText('0.625');
  await page.getByLabel('Sort').selectOption('mrr');
  await expect(page.getByTestId('run-queries').locator('tbody tr').first()).toContainText('A jacket for the rain');

  // A query: its answers link to their entities; an edit makes version 2; a stale save is refused.
  await page.goto(`/kb/${slug}/queries/${setName}`);
  await page.getByTestId('query-table').getByRole('link', { name: '1', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Query 1');
  const sock = page.getByTestId('query-answers').getByRole('link', { name: 'Merino hiking sock' });
  await expect(sock).toHaveAttribute('href', new RegExp(`^/kb/${slug}/entities/\\d+$`));
  await waitForHydration(page.getByRole('button', { name: 'Edit query' }));
  await page.getByRole('button', { name: 'Edit query' }).click();
  await page.getByLabel('Text', { exact: true }).fill('Warm merino wool socks');
  await page.getByLabel('Reason for the change').fill('shorter wording');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('query-text')).toHaveText('Warm merino wool socks');
  await expect(page.getByTestId('query-revisions').locator('tbody tr')).toHaveCount(2);
  // Someone else saves version 3 while the editor is open on version 2: the save is refused and says why.
  await page.getByRole('button', { name: 'Edit query' }).click();
  const other = await page.request.patch(`/api/kbs/${slug}/query-sets/${setName}/queries/1`, { data: { text: 'Socks of merino wool', version: 2, reason: 'their edit' } });
  expect(other.status()).toBe(200);
  await page.getByLabel('Text', { exact: true }).fill('My later edit');
  await page.getByLabel('Reason for the change').fill('my edit');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'someone else changed this query' })).toContainText('now version 3');
  await page.getByRole('button', { name: 'Reload the query' }).click();
  await expect(page.getByTestId('query-text')).toHaveText('Socks of merino wool');
  await expect(page.getByTestId('query-revisions').locator('tbody tr')).toHaveCount(3);
});

test('the STaRK export is the exact file; its spreadsheet variant neutralises a query text that is a formula', async ({ page }) => {
  test.setTimeout(90_000);
  const slug = uniqueName('outdoor');
  const setName = uniqueName('formula-qa');
  await signIn(page, CURATOR);
  await importOutdoorKb(page.request, slug);
  const shoe = await externalId(page.request, slug, 'Trail running shoe');
  const csv = ['id,query,answer_ids', `0,"=HYPERLINK(""http://evil.example/"",""click"")",[${shoe}]`, `1,Shoes for trails,[${shoe}]`, ''].join('\n');
  const upload = await page.request.put('/api/uploads?name=stark_qa.csv', { data: csv, headers: { 'content-type': 'application/octet-stream' } });
  expect(upload.status()).toBe(201);
  const { uploadId } = (await upload.json()) as { uploadId: string };
  const imported = await page.request.post(`/api/kbs/${slug}/query-sets`, { data: { name: setName, format: 'stark', files: [{ uploadId, kind: 'queries' }] } });
  expect(imported.status(), await imported.text()).toBe(201);

  await page.goto(`/kb/${slug}/queries/${setName}`);
  const exportNav = page.getByRole('navigation', { name: 'Export' });
  const download = async (label: string) => {
    const downloading = page.waitForEvent('download');
    await exportNav.getByRole('link', { name: label, exact: true }).click();
    const file = await downloading;
    return { name: file.suggestedFilename(), zip: fs.readFileSync((await file.path())!) };
  };
  const exact = await download('STaRK');
  expect(exact.name).toBe(`${setName}-stark.zip`);
  expect(unzip(exact.zip).get(`${setName}-stark/stark/stark_qa.csv`)).toBe(csv);
  const forSheets = await download('STaRK CSV for spreadsheets');
  expect(forSheets.name).toBe(`${setName}-stark-spreadsheet.zip`);
  expect(unzip(forSheets.zip).get(`${setName}-stark-spreadsheet/stark/stark_qa.csv`))
    .toBe(csv.replace('0,"=HYPERLINK', `0,"'=HYPERLINK`));
});

test('a rater sees query sets but may not import them', async ({ page }) => {
  await signIn(page, RATER);
  await page.goto(`/kb/${PUBLIC_KB.slug}/queries`);
  await expect(page.getByRole('heading', { level: 1, name: 'Query sets' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Import a query set' })).toHaveCount(0);
  const response = await page.goto(`/kb/${PUBLIC_KB.slug}/queries/import`);
  expect(response?.status()).toBe(403);
  const post = await page.request.post(`/api/kbs/${PUBLIC_KB.slug}/query-sets`, {
    data: { name: uniqueName('rater'), format: 'stark', files: [{ uploadId: '0'.repeat(32), kind: 'queries' }] },
  });
  expect(post.status()).toBe(403);
});
