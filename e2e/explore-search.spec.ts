import { expect, type Page } from '@playwright/test';
import { buildDemoCatalogue } from '../lib/demo/catalogue';
import { flattenDocument } from '../lib/kb/document-text';
import { ANNOTATOR, PUBLIC_KB, signIn, waitForHydration, test } from './fixtures';

const catalogue = buildDemoCatalogue();
const api = `/api/kbs/${PUBLIC_KB.slug}`;

async function searchTotal(page: Page, q: string, type?: string): Promise<number> {
  const params = new URLSearchParams({ q, limit: '1' });
  if (type) params.set('type', type);
  const res = await page.request.get(`${api}/search?${params}`);
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { total: number }).total;
}

test('search: highlighted hits, type filter, paging kept in the URL across a reload', async ({ page }) => {
  await signIn(page, ANNOTATOR);
  await page.goto(`/kb/${PUBLIC_KB.slug}/search`);
  await expect(page.getByText('"quoted phrases"')).toBeVisible();
  const box = page.getByLabel('Search query');
  await waitForHydration(box);
  await box.fill('light');
  await box.press('Enter');
  await expect(page).toHaveURL(/\?q=light$/);

  const total = await searchTotal(page, 'light');
  await expect(page.getByTestId('search-total')).toContainText(`${total} results`);
  const hits = page.getByTestId('search-hit');
  await expect(hits).toHaveCount(Math.min(20, total));
  // Matches are <mark> elements, never raw markers.
  await expect(hits.first().locator('mark').first()).toBeVisible();
  expect((await hits.first().locator('mark').first().textContent())?.toLowerCase()).toContain('light');
  expect(await page.getByTestId('search-results').textContent()).not.toMatch(/[\u0002\u0003]/);

  // Only products.
  const productBox = page.getByTestId('type-filter').getByLabel('product');
  await productBox.click();
  await expect(productBox).toBeChecked();
  await expect(page).toHaveURL(/type=product/);
  const products = await searchTotal(page, 'light', 'product');
  expect(products).toBeGreaterThan(20);
  expect(products).toBeLessThan(total);
  await expect(page.getByTestId('search-total')).toContainText(`${products} results · page 1 of ${Math.ceil(products / 20)}`);
  await expect(page.getByTestId('hit-type').first()).toHaveText('product');
  expect(new Set(await page.getByTestId('hit-type').allTextContents())).toEqual(new Set(['product']));

  // Page 2, then a reload restores query, filter and page.
  const firstOnPage1 = await hits.first().getByRole('link').textContent();
  await page.getByRole('navigation', { name: 'Result pages' }).getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/page=2/);
  await expect(page.getByTestId('search-total')).toContainText('page 2 of');
  await expect(hits.first().getByRole('link')).not.toHaveText(firstOnPage1!);
  const firstOnPage2 = await hits.first().getByRole('link').textContent();
  await page.reload();
  await expect(page.getByTestId('search-total')).toContainText(`${products} results · page 2 of`);
  await expect(hits.first().getByRole('link')).toHaveText(firstOnPage2!);
  await expect(page.getByLabel('Search query')).toHaveValue('light');
  await expect(page.getByTestId('type-filter').getByLabel('product')).toBeChecked();
});

interface ApiHit { name: string; score: number; covered: number | null; snippet: string }

/** The ranked hits the API gives for `q`, once the ranking index is ready (it is built in the background if missing). */
async function rankedHits(page: Page, q: string): Promise<{ total: number; totalIsLowerBound: boolean; words: string[]; hits: ApiHit[] }> {
  let body: { ranking: string; total: number; totalIsLowerBound: boolean; words: string[]; hits: ApiHit[] } | undefined;
  await expect.poll(async () => {
    body = await (await page.request.get(`${api}/search?${new URLSearchParams({ q, limit: '20' })}`)).json();
    return body!.ranking;
  }, { timeout: 60_000 }).toBe('bm25');
  return body!;
}

/** The page shows the API's ranking: rank numbers, names in order, "covers N of M words", marked snippets. */
async function expectRankedHits(page: Page, q: string, words: number) {
  const box = page.getByLabel('Search query');
  await box.fill(q);
  await box.press('Enter');
  const expected = await rankedHits(page, q);
  expect(expected.words).toHaveLength(words);
  expect(expected.total).toBeGreaterThan(0);
  const hits = page.getByTestId('search-hit');
  await expect(page.getByTestId('search-total')).toContainText(`${expected.total}${expected.totalIsLowerBound ? '+' : ''} result`, { timeout: 15_000 });
  await expect(hits).toHaveCount(Math.min(20, expected.total));
  await expect(hits.getByRole('link')).toHaveText(expected.hits.map((h) => h.name));
  await expect(page.getByTestId('hit-rank')).toHaveText(expected.hits.map((_, i) => `${i + 1}.`));
  await expect(page.getByTestId('hit-coverage')).toHaveText(expected.hits.map((h) => `covers ${h.covered} of ${words} words`));
  expect(expected.hits.every((h) => h.covered! >= 1)).toBe(true);
  await expect(hits.first().locator('mark').first()).toBeVisible();
  const marked = (await hits.first().locator('mark').allTextContents()).map((m) => m.toLowerCase());
  expect(marked.length).toBeGreaterThan(0);
  for (const m of marked) expect(expected.words).toContain(m);
  return expected;
}

test('search answers questions: any word, ranked by BM25, with word coverage and snippets, at phone width', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, ANNOTATOR);
  await page.goto(`/kb/${PUBLIC_KB.slug}/search`);
  await waitForHydration(page.getByLabel('Search query'));

  // No entity mentions both words; every one mentioning either is found.
  const pair = await expectRankedHits(page, 'waterproof hiking', 2);
  const mentions = catalogue.entities.filter((e) => /\b(waterproof|hiking)\b/i.test(flattenDocument(e.name, e.type, e.document))).length;
  expect(pair.total).toBe(mentions);

  // A pasted question of 20 distinct words.
  const question = 'Which tent stays waterproof and dry in heavy rain on a long hiking trip, for two people with their dog?';
  const ranked = await expectRankedHits(page, question, 20);
  // Ranked by score; the best hit shares several of the question's words.
  expect(ranked.hits.every((h, i) => i === 0 || h.score <= ranked.hits[i - 1]!.score)).toBe(true);
  expect(ranked.hits[0]!.covered).toBeGreaterThan(3);
  await expect(page).toHaveURL(/\?q=Which\+tent/);
  // The box and the hits fit the phone's screen: nothing in them is cut off or scrolls sideways.
  for (const part of [page.getByRole('search'), page.getByTestId('search-results')]) {
    const box = (await part.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    expect(await part.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  }

  // Strict syntax still works for those who type it: a phrase no document has finds nothing.
  await page.getByLabel('Search query').fill('"waterproof hiking"');
  await page.getByLabel('Search query').press('Enter');
  await expect(page.getByTestId('search-total')).toHaveText('0 results');
});

test('entity picker: a misspelt name finds the entity and opens its page', async ({ page }) => {
  const brand = catalogue.entities.find((e) => e.type === 'brand' && e.name.length > 10)!;
  // Drop one letter from the middle of the name.
  const typo = brand.name.slice(0, 6) + brand.name.slice(7);
  await signIn(page, ANNOTATOR);
  await page.goto(`/kb/${PUBLIC_KB.slug}/search`);
  const picker = page.getByTestId('goto-entity').getByRole('combobox');
  await waitForHydration(picker);
  await picker.fill(typo);
  const option = page.getByRole('option').filter({ hasText: brand.name }).first();
  await expect(option).toBeVisible();
  await option.click();
  await expect(page).toHaveURL(new RegExp(`/kb/${PUBLIC_KB.slug}/entities/\\d+$`));
  await expect(page.getByTestId('entity-name')).toHaveText(brand.name);
});

test('entity page: neighbour list paging and sorting, long fields, reviews and the retriever view', async ({ page }) => {
  const hasBrand = new Map<string, number>();
  for (const e of catalogue.edges) if (e.relation === 'has_brand') hasBrand.set(e.target, (hasBrand.get(e.target) ?? 0) + 1);
  const [brandId, products] = [...hasBrand].sort((a, b) => b[1] - a[1])[0]!;
  expect(products).toBeGreaterThan(20);

  await signIn(page, ANNOTATOR);
  const lookup = await page.request.get(`${api}/lookup?id=${encodeURIComponent(brandId)}`);
  expect(lookup.ok()).toBe(true);
  const { id } = (await lookup.json()) as { id: number };
  await page.goto(`/kb/${PUBLIC_KB.slug}/entities/${id}`);
  await expect(page.getByRole('link', { name: 'Open in graph', exact: true })).toHaveAttribute('href', `/kb/${PUBLIC_KB.slug}/graph?entity=${id}`);
  await expect(page.getByRole('link', { name: 'Metapaths from here', exact: true })).toHaveAttribute('href', `/kb/${PUBLIC_KB.slug}/metapaths?start=${id}`);
  await expect(page.getByRole('link', { name: 'Paths from here', exact: true })).toHaveAttribute('href', `/kb/${PUBLIC_KB.slug}/paths?from=${id}`);

  // The brand's largest group is its products (has_brand, incoming), listed 20 at a time.
  const list = page.getByTestId('neighbour-list');
  await expect(list.getByLabel('Relation').locator('option:checked')).toHaveText(`← has_brand (${products})`);
  const range = list.getByTestId('neighbour-range');
  await expect(range).toHaveText(`1–20 of ${products}`);
  const rows = list.getByTestId('neighbour-rows').locator('tr');
  await expect(rows).toHaveCount(20);
  const names = await rows.locator('td:first-child').allTextContents();
  expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
  const next = list.getByRole('button', { name: 'Next' });
  await waitForHydration(next);
  await next.click();
  await expect(range).toHaveText(`21–${Math.min(40, products)} of ${products}`);
  await expect(rows.first()).not.toHaveText(names[0]!);

  // Most connected first: back to the first page, degrees non-increasing.
  await list.getByLabel('Sort').selectOption({ label: 'Most connected first' });
  await expect(range).toHaveText(`1–20 of ${products}`);
  await expect.poll(async () => {
    const degrees = (await list.getByTestId('neighbour-degree').allTextContents()).map((d) => Number(d.replace(/,/g, '')));
    return degrees.length === 20 && degrees.every((d, i) => i === 0 || d <= degrees[i - 1]!);
  }).toBe(true);

  // A product with a long description and more reviews than one screen shows.
  const product = catalogue.entities.find(
    (e) => e.type === 'product' && String(e.document.description).length > 300 && (e.document.reviews as unknown[]).length > 5,
  )!;
  const productId = ((await (await page.request.get(`${api}/lookup?id=${encodeURIComponent(product.externalId)}`)).json()) as { id: number }).id;
  await page.goto(`/kb/${PUBLIC_KB.slug}/entities/${productId}`);
  const documentView = page.getByTestId('entity-document');
  const description = String(product.document.description);
  await expect(documentView).not.toContainText(description);
  const more = documentView.getByTestId('long-text').first().getByRole('button', { name: 'Show more' });
  await waitForHydration(more);
  await more.click();
  await expect(documentView).toContainText(description);
  await expect(documentView.getByRole('button', { name: 'Show less' }).first()).toHaveAttribute('aria-expanded', 'true');

  const reviews = (product.document.reviews as unknown[]).length;
  const reviewList = documentView.getByTestId('paged-list').first();
  await expect(reviewList.locator(':scope > ol > li')).toHaveCount(5);
  await reviewList.getByRole('button', { name: /^Show \d+ more$/ }).click();
  await expect(reviewList.locator(':scope > ol > li')).toHaveCount(Math.min(10, reviews));

  // The retriever view: the flattened document, then the neighbours per relation.
  await page.getByText('Retriever view', { exact: true }).click();
  const text = page.getByTestId('retriever-text');
  await expect(text).toContainText(`- name: ${product.name}`);
  await expect(text).toContainText('- relation: has_brand (out, 1): ');
  await expect(text).toContainText('- relation: has_category (out, 1): ');
});
