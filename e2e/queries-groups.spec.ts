import { expect } from '@playwright/test';
import { CURATOR, signIn, waitForHydration, test } from './fixtures';
import { importGearKb } from './gear-kb';

const uniqueName = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;

/**
 * A run's metrics by query group: a set whose queries say where they came from, a run scored on it through
 * the API, the run's page grouped by origin as a user picks it, and two runs compared by template.
 */
test('a run page groups its metrics by origin, one row per origin with its query count', async ({ page }) => {
  test.setTimeout(90_000);
  const slug = uniqueName('gear-groups');
  const setName = uniqueName('gear-origins');
  await signIn(page, CURATOR);
  await importGearKb(page.request, slug);
  const rows = [
    { id: 'q1', query: 'A tent for alpine camps', answer_ids: ['301'], metadata: { origin: 'human', template: 'product' } },
    { id: 'q2', query: 'A one-person bivy sack', answer_ids: ['304'], metadata: { origin: 'human', template: 'product' } },
    { id: 'q3', query: 'Products of Northpeak', answer_ids: ['301', '304'], metadata: { template: 'brand' } },
  ];
  const upload = await page.request.put('/api/uploads?name=queries.jsonl', { data: rows.map((r) => JSON.stringify(r)).join('\n'), headers: { 'content-type': 'application/octet-stream' } });
  expect(upload.status()).toBe(201);
  const { uploadId } = (await upload.json()) as { uploadId: string };
  const imported = await page.request.post(`/api/kbs/${slug}/query-sets`, { data: { name: setName, format: 'jsonl', origin: 'synthesized', files: [{ uploadId, kind: 'queries' }] } });
  expect(imported.status(), await imported.text()).toBe(201);
  // q1 and q3 find an answer first; q2 ranks a wrong entity only.
  const scored = await page.request.post(`/api/kbs/${slug}/query-sets/${setName}/runs?file=gear.run`, {
    data: ['q1 Q0 301 1 2.0 gear', 'q2 Q0 302 1 2.0 gear', 'q3 Q0 304 1 2.0 gear', ''].join('\n'), headers: { 'content-type': 'text/plain' },
  });
  expect(scored.status(), await scored.text()).toBe(201);
  const { id } = (await scored.json()) as { id: number };

  await page.goto(`/kb/${slug}/queries/${setName}/runs/${id}`);
  const groupBy = page.getByLabel('Group by');
  await waitForHydration(groupBy);
  await expect(groupBy.locator('option', { hasText: 'metadata: template' })).toHaveCount(1);
  await groupBy.selectOption({ label: 'origin' });
  await expect(page).toHaveURL(/[?&]groupBy=origin\b/);
  const summary = page.getByTestId('run-summary');
  await expect(summary.getByRole('columnheader').first()).toHaveText('origin');
  const row = (label: string) => summary.getByRole('row').filter({ has: page.getByRole('rowheader', { name: label, exact: true }) });
  await expect(summary.locator('tbody tr')).toHaveCount(3);
  await expect(row('human').locator('td').first()).toHaveText('2');
  await expect(row('human').locator('[data-metric="hit1"]')).toHaveText('0.500');
  await expect(row('synthesized').locator('td').first()).toHaveText('1');
  await expect(row('synthesized').locator('[data-metric="hit1"]')).toHaveText('1.000');
  await expect(row('All').locator('td').first()).toHaveText('3');

  // An unknown grouping or metadata key is refused, naming the parameter (and the keys there are).
  const malformed = await page.request.get(`/api/kbs/${slug}/query-sets/${setName}/compare?a=${id}&b=${id}&groupBy=template`);
  expect(malformed.status()).toBe(400);
  expect(((await malformed.json()) as { error: string }).error).toMatch(/groupBy: unknown grouping/);
  const unknown = await page.request.get(`/api/kbs/${slug}/query-sets/${setName}/runs/${id}?groupBy=metadata.author`);
  expect(unknown.status()).toBe(400);
  expect(((await unknown.json()) as { error: string }).error).toMatch(/groupBy: .*"author".*metadata\.origin, metadata\.template/);

  // A second run finds q2 too and misses q3: compared by template, B wins on "product" and loses on "brand".
  const second = await page.request.post(`/api/kbs/${slug}/query-sets/${setName}/runs?file=gear2.run`, {
    data: ['q1 Q0 301 1 2.0 gear2', 'q2 Q0 304 1 2.0 gear2', 'q3 Q0 302 1 2.0 gear2', ''].join('\n'), headers: { 'content-type': 'text/plain' },
  });
  expect(second.status(), await second.text()).toBe(201);
  const { id: idB } = (await second.json()) as { id: number };
  await page.goto(`/kb/${slug}/queries/${setName}?tab=runs&a=${id}&b=${idB}`);
  const compareGroupBy = page.getByTestId('run-compare').getByLabel('Group by');
  await waitForHydration(compareGroupBy);
  await compareGroupBy.selectOption({ label: 'metadata: template' });
  const groups = page.getByTestId('compare-groups');
  await expect(groups.getByRole('columnheader').first()).toHaveText('template');
  const product = groups.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'product', exact: true }) });
  // Queries, A, B, B − A, B better, B worse, ties (MRR).
  await expect(product.locator('td')).toHaveText(['2', '0.500', '1.000', '+0.500', '1', '0', '1']);
  const brand = groups.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'brand', exact: true }) });
  await expect(brand.locator('td')).toHaveText(['1', '1.000', '0.000', '−1.000', '0', '1', '0']);
});
