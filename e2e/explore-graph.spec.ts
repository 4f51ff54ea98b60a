import fs from 'node:fs';
import { expect, type Page } from '@playwright/test';
import { buildDemoCatalogue } from '../lib/demo/catalogue';
import { ANNOTATOR, PUBLIC_KB, signIn, waitForHydration, test } from './fixtures';

const catalogue = buildDemoCatalogue();
const brand = catalogue.entities.find((e) => e.name === 'Trailmark')!;
const brandProducts = catalogue.edges.filter((e) => e.relation === 'has_brand' && e.target === brand.externalId).map((e) => e.source);
const productNames = new Set(catalogue.entities.filter((e) => brandProducts.includes(e.externalId)).map((e) => e.name));

/** "N nodes, M edges" from the caption. */
async function counts(page: Page): Promise<{ nodes: number; edges: number }> {
  const text = (await page.getByTestId('graph-counts').textContent()) ?? '';
  const m = /^(\d+) nodes, (\d+) edges$/.exec(text.trim());
  expect(m, `caption counts: ${text}`).not.toBeNull();
  return { nodes: Number(m![1]), edges: Number(m![2]) };
}

/** Waits until the canvas has drawn the current elements; returns how long that took and how many there were. */
async function rendered(page: Page): Promise<{ ms: number; elements: number }> {
  const canvas = page.getByTestId('graph-canvas');
  await expect(canvas).toHaveAttribute('aria-busy', 'false');
  await expect(canvas).toHaveAttribute('data-render-ms', /^\d+$/);
  return { ms: Number(await canvas.getAttribute('data-render-ms')), elements: Number(await canvas.getAttribute('data-elements')) };
}

const param = (page: Page, name: string) => new URL(page.url()).searchParams.getAll(name);

test('explores a brand\'s neighbourhood: hops, relation filter, layout, selection, expansion, reload and PNG export', async ({ page }) => {
  await signIn(page, ANNOTATOR);
  await page.goto(`/kb/${PUBLIC_KB.slug}/graph`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Graph of ${PUBLIC_KB.name}`);
  await expect(page.getByTestId('graph-hint')).toBeVisible();
  await expect(page.getByTestId('graph-suggestions').getByRole('link').first()).toBeVisible();

  // Choose the centre with the combobox.
  const box = page.getByTestId('graph-entity-picker').getByRole('combobox');
  await waitForHydration(box);
  await box.fill(brand.name);
  await page.getByRole('option').filter({ hasText: new RegExp(`^${brand.name} brand ·`) }).click();
  await expect.poll(() => param(page, 'entity')).toHaveLength(1);
  const brandId = param(page, 'entity')[0]!;

  // 1 hop: exactly the brand and its products, as the catalogue says.
  await expect(page.getByTestId('graph-caption')).toBeVisible();
  await expect(page.getByTestId('graph-counts')).toHaveText(`${brandProducts.length + 1} nodes, ${brandProducts.length} edges`);
  await rendered(page);
  const list = page.getByTestId('graph-node-list').getByRole('button');
  await expect(list).toHaveCount(brandProducts.length + 1);
  await expect(list.first()).toContainText(brand.name);
  await expect(page.getByTestId('graph-legend')).toContainText('product');

  // 2 hops: more, within the element budget.
  await page.getByTestId('graph-hops').selectOption('2');
  await expect.poll(() => param(page, 'hops')).toEqual(['2']);
  await expect.poll(async () => (await counts(page)).nodes).toBeGreaterThan(brandProducts.length + 1);
  const twoHops = await counts(page);
  const big = await rendered(page);
  expect(big.elements).toBeLessThanOrEqual(500);
  expect(big.elements).toBeGreaterThan(300);
  console.log(`graph view: ${big.elements} elements rendered (concentric) in ${big.ms} ms`);
  expect(big.ms).toBeLessThan(5000);

  // Leave out a relation: the URL lists the others and the view shrinks.
  // The box follows the URL, which changes a moment after the click.
  await page.getByTestId('graph-relations').getByRole('checkbox', { name: 'also_viewed' }).click();
  await expect.poll(() => param(page, 'rel')).toContain('has_brand');
  expect(param(page, 'rel')).not.toContain('also_viewed');
  await expect.poll(async () => (await counts(page)).edges).not.toBe(twoHops.edges);
  await expect(page.getByTestId('graph-relations').getByRole('checkbox', { name: 'also_viewed' })).not.toBeChecked();

  // Another layout.
  await page.getByTestId('graph-layout').selectOption('cose');
  await expect.poll(() => param(page, 'layout')).toEqual(['cose']);
  const cose = await rendered(page);
  console.log(`graph view: ${cose.elements} elements rendered (cose) in ${cose.ms} ms`);

  // Select a product from the node list: the side panel shows its document.
  const product = list.filter({ hasText: /product · 1$/ }).first();
  const productName = (await product.locator('span.truncate').textContent())!;
  expect(productNames.has(productName)).toBe(true);
  await product.click();
  await expect(product).toHaveAttribute('aria-pressed', 'true');
  const panel = page.getByTestId('graph-side-panel');
  await expect(panel.getByTestId('graph-selected-name')).toHaveText(productName);
  await expect(panel.getByTestId('graph-document').locator('dt').first()).toBeVisible();
  await expect(panel.getByRole('link', { name: 'Open entity page' })).toHaveAttribute('href', new RegExp(`/kb/${PUBLIC_KB.slug}/entities/\\d+$`));
  expect(param(page, 'selected')).toHaveLength(1);

  // Expand a colour two hops out: its other products join the view.
  const before = await counts(page);
  const colour = list.filter({ hasText: /color · 2$/ }).first();
  const colourName = (await colour.locator('span.truncate').textContent())!;
  await colour.click();
  // The panel must show the colour before Expand is pressed, or it would expand the product still shown there.
  await expect(colour).toHaveAttribute('aria-pressed', 'true');
  await expect(panel.getByTestId('graph-selected-name')).toHaveText(colourName);
  await panel.getByRole('button', { name: 'Expand' }).click();
  await expect.poll(() => param(page, 'expand')).toHaveLength(1);
  await expect.poll(async () => (await counts(page)).nodes).toBeGreaterThan(before.nodes);
  await rendered(page);
  const expanded = await page.getByTestId('graph-caption').textContent();
  const selectedName = await panel.getByTestId('graph-selected-name').textContent();
  const url = page.url();

  // Reloading the URL restores the same view.
  await page.reload();
  await expect(page.getByTestId('graph-caption')).toHaveText(expanded!);
  await expect(panel.getByTestId('graph-selected-name')).toHaveText(selectedName!);
  await expect(page.getByTestId('graph-layout')).toHaveValue('cose');
  await expect(page.getByTestId('graph-hops')).toHaveValue('2');
  await expect(page.getByTestId('graph-relations').getByRole('checkbox', { name: 'also_viewed' })).not.toBeChecked();
  await rendered(page);
  expect(page.url()).toBe(url);

  // Export PNG: a real PNG named after the view.
  const exportButton = page.getByRole('button', { name: 'Export PNG' });
  await waitForHydration(exportButton);
  const [download] = await Promise.all([page.waitForEvent('download'), exportButton.click()]);
  expect(download.suggestedFilename()).toBe(`graph-${PUBLIC_KB.slug}-${brandId}.png`);
  const bytes = fs.readFileSync((await download.path())!);
  expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  expect(bytes.length).toBeGreaterThan(1000);
});

test('the graph API refuses bad parameters and names them', async ({ page }) => {
  await signIn(page, ANNOTATOR);
  const api = `/api/kbs/${PUBLIC_KB.slug}/graph`;
  const hops = await page.request.get(`${api}?entity=1&hops=4`);
  expect(hops.status()).toBe(400);
  expect((await hops.json()).error).toContain('hops');
  const rel = await page.request.get(`${api}?entity=1&rel=no_such_relation`);
  expect(rel.status()).toBe(400);
  expect((await rel.json()).error).toMatch(/rel: unknown relation "no_such_relation"/);
  const missing = await page.request.get(api);
  expect(missing.status()).toBe(400);
  expect((await missing.json()).error).toContain('entity');
  const budget = await page.request.get(`${api}?entity=1&budget=501`);
  expect(budget.status()).toBe(400);
  expect((await budget.json()).error).toContain('budget');
});
