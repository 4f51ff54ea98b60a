import { expect, type Page } from '@playwright/test';
import { buildDemoCatalogue } from '../lib/demo/catalogue';
import { ANNOTATOR, PUBLIC_KB, signIn, waitForHydration, test } from './fixtures';

const catalogue = buildDemoCatalogue();
const byExternal = new Map(catalogue.entities.map((e) => [e.externalId, e]));
const byName = (name: string) => catalogue.entities.find((e) => e.name === name)!;

/** Picks an entity with the combobox as a person would: type part of the name, click the option. */
async function pick(page: Page, testId: string, entity: { name: string; type: string }): Promise<void> {
  const box = page.getByTestId(testId).getByRole('combobox');
  await waitForHydration(box);
  await box.fill(entity.name);
  const escaped = `${entity.name} ${entity.type} ·`.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  await page.getByRole('option').filter({ hasText: new RegExp(`^${escaped}`) }).click();
}

test('builds a two-step metapath by clicking, pages the reachable set, searches within it and reloads it', async ({ page }) => {
  const brand = byName('Trailmark');
  // Expected from the catalogue itself: the brand's products, then what those were viewed with.
  const products = new Set(catalogue.edges.filter((e) => e.relation === 'has_brand' && e.target === brand.externalId).map((e) => e.source));
  const viewed = new Set(catalogue.edges.filter((e) => e.relation === 'also_viewed' && products.has(e.source)).map((e) => e.target));
  expect(viewed.size).toBeGreaterThan(25);
  const pages = Math.ceil(viewed.size / 25);

  await signIn(page, ANNOTATOR);
  await page.goto(`/kb/${PUBLIC_KB.slug}/metapaths`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Metapaths');
  await pick(page, 'branch-1-picker', brand);
  await expect(page.getByTestId('branch-1-start')).toContainText(brand.name);

  const addStep = page.getByRole('combobox', { name: 'Path: add a step' });
  await addStep.selectOption({ label: `← has_brand · product (${catalogue.edges.filter((e) => e.relation === 'has_brand').length} edges)` });
  await expect(page.getByTestId('branch-1-reached')).toHaveText([`${products.size} reached`]);
  await addStep.selectOption({ label: `also_viewed → product (${catalogue.edges.filter((e) => e.relation === 'also_viewed').length} edges)` });
  await expect(page.getByTestId('branch-1-reached')).toHaveText([`${products.size} reached`, `${viewed.size} reached`]);
  await expect(page.getByTestId('metapath-total')).toHaveText(String(viewed.size));

  // The reachable list: real entities of the set, linked to their pages, 25 at a time.
  const items = page.getByTestId('metapath-items').getByRole('link');
  await expect(items).toHaveCount(25);
  const firstPage = await items.allTextContents();
  for (const name of firstPage) expect(viewed.has(byName(name).externalId)).toBe(true);
  await expect(page.getByTestId('metapath-page')).toHaveText(`Page 1 of ${pages}`);
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByTestId('metapath-page')).toHaveText(`Page 2 of ${pages}`);
  await expect(items.first()).not.toHaveText(firstPage[0]!);
  const secondPage = await items.allTextContents();
  expect(secondPage.filter((n) => firstPage.includes(n))).toEqual([]);

  // The URL holds the whole path: reloading it rebuilds the same one.
  await expect.poll(() => decodeURIComponent(page.url())).toMatch(/start=\d+&step=in~has_brand~product&step=out~also_viewed~product&page=2$/);
  await page.reload();
  await expect(page.getByTestId('branch-1-start')).toContainText(brand.name);
  await expect(page.getByTestId('branch-1-reached')).toHaveText([`${products.size} reached`, `${viewed.size} reached`]);
  await expect(page.getByTestId('metapath-page')).toHaveText(`Page 2 of ${pages}`);
  await expect(items).toHaveText(secondPage);

  // Search within these: a narrower set, every hit one of the reachable products.
  const tents = [...viewed].filter((id) => /tent/i.test(byExternal.get(id)!.name));
  expect(tents.length).toBeGreaterThan(0);
  const search = page.getByRole('textbox', { name: 'Search within these' });
  await waitForHydration(search);
  await search.fill('tent');
  await page.getByRole('button', { name: 'Search within these' }).click();
  await expect(page).toHaveURL(/q=tent/);
  const total = Number(await page.getByTestId('metapath-total').textContent());
  await expect.poll(async () => Number(await page.getByTestId('metapath-total').textContent())).toBeLessThan(viewed.size);
  expect(total).toBeGreaterThan(0);
  for (const name of await items.allTextContents()) expect(viewed.has(byName(name).externalId)).toBe(true);
  await expect(page.getByTestId('metapath-items').locator('mark').first()).toBeVisible();

  // Removing the last step goes back to the brand's products.
  await page.getByRole('button', { name: 'Remove last step' }).click();
  await expect(page.getByTestId('branch-1-reached')).toHaveText([`${products.size} reached`]);
});

/** Brute-force path counts per length over the catalogue's edges, edges walked either way. */
function pathCounts(from: string, to: string, relations?: string[]): number[] {
  const adjacent = new Map<string, string[]>();
  for (const e of catalogue.edges) {
    if (relations && !relations.includes(e.relation)) continue;
    adjacent.set(e.source, [...(adjacent.get(e.source) ?? []), e.target]);
    adjacent.set(e.target, [...(adjacent.get(e.target) ?? []), e.source]);
  }
  const counts = [0, 0, 0];
  const walk = (node: string, seen: string[]) => {
    if (node === to) { counts[seen.length - 2]!++; return; }
    if (seen.length === 4) return;
    for (const next of adjacent.get(node) ?? []) if (!seen.includes(next)) walk(next, [...seen, next]);
  };
  walk(from, [from]);
  return counts;
}

test('lists and draws the paths between two entities, and filters them by relation', async ({ page }) => {
  const product = byName('Trailmark Summit 4-Person Tunnel Tent');
  const brand = byName('Trailmark');
  const all = pathCounts(product.externalId, brand.externalId);
  const onlyBrand = pathCounts(product.externalId, brand.externalId, ['has_brand']);
  const label = (c: number[]) => c.map((n, i) => `${i + 1} ${i === 0 ? 'hop' : 'hops'}: ${n.toLocaleString('en')}`).join(' · ');

  await signIn(page, ANNOTATOR);
  await page.goto(`/kb/${PUBLIC_KB.slug}/paths`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Paths');
  await pick(page, 'path-from', product);
  await expect(page.getByTestId('path-from-chosen')).toContainText(product.name);
  await pick(page, 'path-to', brand);
  await expect(page.getByTestId('path-to-chosen')).toContainText(brand.name);

  await expect(page.getByTestId('path-counts')).toHaveText(label(all));
  const listed = page.getByTestId('path-item');
  await expect(listed.first()).toBeVisible();
  expect(await listed.count()).toBe(Math.min(500, all.reduce((a, b) => a + b, 0)));
  await expect(listed.first()).toContainText(`${product.name}—has_brand→${brand.name}`);

  // Drawn: the canvas holds the paths' entities and edges; a clicked path is marked.
  const graph = page.getByTestId('path-graph');
  await expect(graph).toHaveAttribute('aria-busy', 'false');
  expect(Number(await graph.getAttribute('data-elements'))).toBeGreaterThan(2);
  await expect(graph.locator('canvas').first()).toBeVisible();
  await listed.nth(1).click();
  await expect(listed.nth(1)).toHaveAttribute('aria-pressed', 'true');

  // Only has_brand edges: the direct edge is all that is left, and the URL says so.
  const hasBrand = page.getByRole('checkbox', { name: 'has_brand' });
  await hasBrand.click();
  await expect(hasBrand).toBeChecked();
  await expect(page).toHaveURL(/rel=has_brand/);
  await expect(page.getByTestId('path-counts')).toHaveText(label(onlyBrand));
  await expect(listed).toHaveCount(onlyBrand.reduce((a, b) => a + b, 0));
  for (const text of await listed.allTextContents()) expect(text).not.toMatch(/also_|has_color|made_of|has_category/);

  // One hop only, kept on reload.
  await page.getByRole('combobox', { name: 'Hops' }).selectOption('1');
  await expect(page).toHaveURL(/hops=1/);
  await page.reload();
  await expect(page.getByTestId('path-counts')).toHaveText(label(onlyBrand.slice(0, 1)));
});
