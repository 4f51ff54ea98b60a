import { expect, type APIRequestContext } from '@playwright/test';
import { CURATOR, signIn, waitForHydration, test } from './fixtures';

/**
 * The vector baseline in the browser: a curator imports a small knowledge base, a query set, and entity and
 * query embeddings through the API; the query set's run panel then names the embeddings and offers the
 * vector and hybrid baselines, and the vector run's scores are those the vectors were built to give.
 */

const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;

// Entities 'x', 'y', 'z' lie on the axes; query q1 leans to y (its answer: first), q2 to x (answer z: second).
const ENTITY_VECTORS = { x: [1, 0, 0], y: [0, 1, 0], z: [0, 0, 1] };
const QUERY_VECTORS = { q1: [0.2, 1, 0], q2: [1, 0, 0.5] };

async function upload(api: APIRequestContext, name: string, body: string): Promise<string> {
  const res = await api.put(`/api/uploads?name=${encodeURIComponent(name)}`, { data: body, headers: { 'content-type': 'application/octet-stream' } });
  expect(res.status(), `upload of ${name}`).toBe(201);
  return ((await res.json()) as { uploadId: string }).uploadId;
}

const jsonl = (rows: object[]) => rows.map((r) => JSON.stringify(r)).join('\n');

test('a curator sees the vector baseline offered once embeddings are imported, and computes it', async ({ page }) => {
  test.setTimeout(120_000);
  const slug = unique('vectors');
  const setName = unique('vq');
  await signIn(page, CURATOR);
  const api = page.request;

  const entities = jsonl(Object.keys(ENTITY_VECTORS).map((id) => ({ id, type: 'thing', name: `Thing ${id}`, document: {} })));
  const start = await api.post('/api/imports', { data: { slug, name: 'Vectors', format: 'native', uploads: [await upload(api, 'entities.jsonl', entities), await upload(api, 'edges.tsv', 'source\trelation\ttarget\nx\tnear\ty')] } });
  expect(start.status()).toBe(202);
  const { jobId } = (await start.json()) as { jobId: number };
  await expect.poll(async () => ((await (await api.get(`/api/imports/${jobId}`)).json()) as { status: string }).status, { timeout: 30_000 }).toBe('SUCCEEDED');
  const queries = jsonl([{ id: 'q1', query: 'the thing called y', answer_ids: ['y'] }, { id: 'q2', query: 'the thing called z', answer_ids: ['z'] }]);
  const set = await api.post(`/api/kbs/${slug}/query-sets`, { data: { name: setName, format: 'jsonl', files: [{ uploadId: await upload(api, 'queries.jsonl', queries), kind: 'queries' }] } });
  expect(set.status()).toBe(201);

  // Before any embeddings: the page says so, and offers no vector baseline.
  await page.goto(`/kb/${slug}/queries/${setName}?tab=runs`);
  await waitForHydration(page.getByRole('button', { name: 'Compute baseline' }));
  await expect(page.getByTestId('embeddings-summary')).toContainText('No embeddings imported');
  await expect(page.getByLabel('Baseline').locator('option')).toHaveText(['BM25', 'BM25 with relation lines', 'Full-text (ts_rank)']);

  // A bad file is refused with its line and field.
  const bad = await api.post(`/api/kbs/${slug}/embeddings`, { data: { name: 'toy', uploadId: await upload(api, 'bad.jsonl', jsonl([{ id: 'x', vector: [1, 0, 0] }, { id: 'w', vector: [0, 1, 0] }])) } });
  expect(bad.status()).toBe(400);
  expect(((await bad.json()) as { details: unknown }).details).toEqual([{ file: 'bad.jsonl', line: 2, field: 'id', reason: 'w is not an entity of the knowledge base' }]);

  const entityFile = jsonl(Object.entries(ENTITY_VECTORS).map(([id, vector]) => ({ id, vector })));
  const imported = await api.post(`/api/kbs/${slug}/embeddings`, { data: { name: 'toy', uploadId: await upload(api, 'entities.jsonl', entityFile) } });
  expect(imported.status()).toBe(201);
  expect(await imported.json()).toMatchObject({ name: 'toy', kind: 'entity', count: 3, dimension: 3 });
  const queryFile = jsonl(Object.entries(QUERY_VECTORS).map(([id, vector]) => ({ id, vector })));
  const importedQueries = await api.post(`/api/kbs/${slug}/embeddings`, { data: { name: 'toy', querySet: setName, uploadId: await upload(api, 'queries.jsonl', queryFile) } });
  expect(importedQueries.status()).toBe(201);

  await page.reload();
  await waitForHydration(page.getByRole('button', { name: 'Compute baseline' }));
  await expect(page.getByTestId('embeddings-summary')).toHaveText('Embeddings: toy (3 entities × 3, 2 queries × 3)');
  await page.getByLabel('Baseline').selectOption('Vector (exact cosine)');
  await expect(page.getByLabel('Embeddings')).toHaveValue('toy');
  await page.getByRole('button', { name: 'Compute baseline' }).click();
  const row = page.getByTestId('run-table').getByRole('row').filter({ hasText: 'Vector (toy, exact cosine)' });
  await expect(row).toContainText('done', { timeout: 30_000 });
  // q1 finds y first (1), q2 finds x then z (1/2).
  await expect(row.locator('[data-metric="mrr"]')).toHaveText('0.750');
  await expect(row.locator('[data-metric="hit1"]')).toHaveText('0.500');

  // The hybrid is offered beside it and runs too.
  await page.getByLabel('Baseline').selectOption('Hybrid (BM25 + vector, RRF)');
  await page.getByRole('button', { name: 'Compute baseline' }).click();
  await expect(page.getByTestId('run-table').getByRole('row').filter({ hasText: 'Hybrid: BM25 (k1 1.2, b 0.75) + vector (toy)' })).toContainText('done', { timeout: 30_000 });
});
