import { expect, type Locator, type Page } from '@playwright/test';
import { buildDemoCatalogue } from '../lib/demo/catalogue';
import { ANNOTATOR, PUBLIC_KB, signIn, test } from './fixtures';

const catalogue = buildDemoCatalogue();
const brand = catalogue.entities.find((e) => e.name === 'Trailmark')!;
const product = catalogue.entities.find((e) => catalogue.edges.some((x) => x.relation === 'has_brand' && x.source === e.externalId && x.target === brand.externalId))!;
const kbTypes = [...new Set(catalogue.entities.map((e) => e.type))];

type Colours = Record<string, string>;

/** The colour each entity type got on a Cytoscape canvas, as the canvas reports it once drawn. */
async function drawnColours(canvas: Locator): Promise<Colours> {
  await expect(canvas).toHaveAttribute('aria-busy', 'false');
  await expect(canvas).toHaveAttribute('data-type-colours', /\{".+\}/);
  return JSON.parse((await canvas.getAttribute('data-type-colours'))!) as Colours;
}

/** The legend's type colours, checked against the colour its swatches are actually painted in. */
async function legendColours(legend: Locator): Promise<Colours> {
  await expect(legend.locator('li').first()).toBeVisible();
  const rows = await legend.locator('li').evaluateAll((items) => items.map((li) => ({
    type: li.getAttribute('data-type')!,
    colour: li.getAttribute('data-colour')!,
    painted: getComputedStyle(li.querySelector('span')!).backgroundColor,
  })));
  for (const r of rows) expect(r.painted, `legend swatch of ${r.type}`).toBe(rgb(r.colour));
  return Object.fromEntries(rows.map((r) => [r.type, r.colour]));
}

const rgb = (hex: string) => {
  const n = Number.parseInt(hex.slice(1), 16);
  return `rgb(${n >> 16}, ${(n >> 8) & 255}, ${n & 255})`;
};

async function entityId(page: Page, externalId: string): Promise<number> {
  const res = await page.request.get(`/api/kbs/${PUBLIC_KB.slug}/lookup?id=${encodeURIComponent(externalId)}`);
  expect(res.status()).toBe(200);
  return ((await res.json()) as { id: number }).id;
}

test('an entity type has one colour in every graph view, legend and badge of a knowledge base', async ({ page }) => {
  await signIn(page, ANNOTATOR);
  const brandId = await entityId(page, brand.externalId);
  const productId = await entityId(page, product.externalId);
  const views: Record<string, Colours> = {};

  // The type map draws every type: the reference.
  await page.goto(`/kb/${PUBLIC_KB.slug}`);
  views['type map'] = await drawnColours(page.getByTestId('schema-map'));
  expect(Object.keys(views['type map']!).sort()).toEqual([...kbTypes].sort());
  // Up to ten types, each its own colour.
  expect(new Set(Object.values(views['type map']!)).size).toBe(kbTypes.length);
  views['type map legend'] = await legendColours(page.getByTestId('graph-legend'));

  await page.goto(`/kb/${PUBLIC_KB.slug}/graph?entity=${brandId}&hops=2`);
  views['graph page'] = await drawnColours(page.getByTestId('graph-canvas'));
  views['graph page legend'] = await legendColours(page.getByTestId('graph-legend'));

  // A brand's own page draws only brands and products; they keep the knowledge base's colours.
  await page.goto(`/kb/${PUBLIC_KB.slug}/entities/${brandId}`);
  views['entity page'] = await drawnColours(page.getByTestId('entity-graph').locator('[data-type-colours]'));
  expect(Object.keys(views['entity page']!).sort()).toEqual(['brand', 'product']);
  views['entity page legend'] = await legendColours(page.getByTestId('graph-legend'));
  await expect(page.getByTestId('type-badge').first()).toHaveAttribute('data-type', 'brand');
  views['entity badge'] = { brand: (await page.getByTestId('type-badge').first().getAttribute('data-colour'))! };

  await page.goto(`/kb/${PUBLIC_KB.slug}/paths?from=${productId}&to=${brandId}&hops=2`);
  views['paths'] = await drawnColours(page.getByTestId('path-graph'));
  views['paths legend'] = await legendColours(page.getByTestId('graph-legend'));

  const reference = views['type map']!;
  for (const [view, colours] of Object.entries(views)) {
    expect(Object.keys(colours).length, `${view} shows some types`).toBeGreaterThan(0);
    for (const [type, colour] of Object.entries(colours)) expect(colour, `${type} in the ${view}`).toBe(reference[type]);
  }
  // Each view showed at least the two types the bug report was about.
  for (const view of ['graph page', 'entity page', 'paths']) expect(Object.keys(views[view]!)).toEqual(expect.arrayContaining(['brand', 'product']));
});

test.describe('with the system in dark mode', () => {
  test.use({ colorScheme: 'dark' });

  test('pages turn dark with light, readable text', async ({ page }) => {
    await signIn(page, ANNOTATOR);
    await page.goto(`/kb/${PUBLIC_KB.slug}`);
    await expect(page.getByTestId('schema-map')).toHaveAttribute('aria-busy', 'false');
    const luminance = (selector: string, property: 'backgroundColor' | 'color') => page.locator(selector).first().evaluate((el, prop) => {
      // Relative luminance (WCAG) of a computed colour; the browser may report rgb() or oklch().
      const probe = document.createElement('canvas').getContext('2d')!;
      probe.fillStyle = getComputedStyle(el)[prop];
      probe.fillRect(0, 0, 1, 1);
      const [r, g, b] = [...probe.getImageData(0, 0, 1, 1).data].slice(0, 3).map((v) => {
        const c = v / 255;
        return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
    }, property);
    const page_ = await luminance('body', 'backgroundColor');
    const text = await luminance('body', 'color');
    // A panel: the white box of the "Entity types" table.
    const panel = await luminance('section .bg-white', 'backgroundColor');
    expect(page_).toBeLessThan(0.05);
    expect(panel).toBeLessThan(0.05);
    // Body text against the page and a panel: at least the 4.5:1 WCAG asks of small text.
    const contrast = (a: number, b: number) => (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    expect(contrast(text, page_)).toBeGreaterThan(4.5);
    expect(contrast(text, panel)).toBeGreaterThan(4.5);
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).colorScheme)).toBe('dark');
    await page.screenshot({ path: test.info().outputPath('dark-overview.png'), fullPage: true });

    // The graph page too, for a look at the canvas labels (Cytoscape does not read CSS).
    const brandId = await entityId(page, brand.externalId);
    await page.goto(`/kb/${PUBLIC_KB.slug}/graph?entity=${brandId}`);
    await drawnColours(page.getByTestId('graph-canvas'));
    expect(await luminance('[data-testid="graph-canvas"]', 'backgroundColor')).toBeLessThan(0.05);
    await page.screenshot({ path: test.info().outputPath('dark-graph.png'), fullPage: true });
    await page.goto(`/kb/${PUBLIC_KB.slug}/entities/${brandId}`);
    await drawnColours(page.getByTestId('entity-graph').locator('[data-type-colours]'));
    await page.screenshot({ path: test.info().outputPath('dark-entity.png'), fullPage: true });
  });
});
