import { expect, type Locator, type Page } from '@playwright/test';
import { buildDemoCatalogue } from '../lib/demo/catalogue';
import { ANNOTATOR, PUBLIC_KB, signIn, test } from './fixtures';

const catalogue = buildDemoCatalogue();
const byName = (name: string) => catalogue.entities.find((e) => e.name === name)!;

async function entityId(page: Page, externalId: string): Promise<number> {
  const res = await page.request.get(`/api/kbs/${PUBLIC_KB.slug}/lookup?id=${encodeURIComponent(externalId)}`);
  expect(res.status()).toBe(200);
  return ((await res.json()) as { id: number }).id;
}

/** How Cytoscape's renderer draws the canvas while it moves, and at what pixel ratio (null: the screen's). */
function movingSettings(canvas: Locator) {
  return canvas.evaluate((el) => {
    const cy = (el as unknown as { _cyreg: { cy: import('cytoscape').Core } })._cyreg.cy;
    const r = (cy as unknown as { renderer(): { textureOnViewport: boolean; hideEdgesOnViewport: boolean; forcedPixelRatio: number | null } }).renderer();
    return { texture: r.textureOnViewport, hideEdges: r.hideEdgesOnViewport, pixelRatio: r.forcedPixelRatio };
  });
}

/** Waits until the canvas has drawn its current elements. */
async function drawn(canvas: Locator): Promise<void> {
  await expect(canvas).toHaveAttribute('aria-busy', 'false');
  await expect(canvas).toHaveAttribute('data-render-ms', /^\d+$/);
}

interface DrawnNode { id: string; label: string; group: boolean; parent: string | null; x: number; y: number; labelShown: boolean; renderedX: number; renderedY: number }

/**
 * The nodes as the Cytoscape instance holds them (Cytoscape keeps it on its container), with whether each
 * label is drawn: Cytoscape skips a label whose font size times the zoom is below `min-zoomed-font-size`.
 */
function drawnNodes(canvas: Locator): Promise<DrawnNode[]> {
  return canvas.evaluate((el) => {
    const cy = (el as unknown as { _cyreg: { cy: import('cytoscape').Core } })._cyreg.cy;
    return cy.nodes().map((n) => ({
      ...{ renderedX: n.renderedPosition().x, renderedY: n.renderedPosition().y },
      id: n.id(), label: String(n.data('label')), group: n.hasClass('group'), parent: (n.data('group') as string | undefined) ?? null,
      x: n.position('x'), y: n.position('y'),
      labelShown: n.style('label') !== '' && n.numericStyle('font-size') * cy.zoom() >= n.numericStyle('min-zoomed-font-size'),
    }));
  });
}

test('a hub\'s entity page groups its neighbours by relation and type, with their names', async ({ page }) => {
  const hub = byName('Aluminium');
  const madeOf = catalogue.edges.filter((e) => e.relation === 'made_of' && e.target === hub.externalId);
  expect(madeOf.length).toBeGreaterThan(30);
  await signIn(page, ANNOTATOR);
  await page.goto(`/kb/${PUBLIC_KB.slug}/entities/${await entityId(page, hub.externalId)}`);
  const canvas = page.getByTestId('entity-graph-canvas');
  await drawn(canvas);
  await expect(page.getByTestId('graph-caption')).toContainText('Grouped by relation and type');

  const nodes = await drawnNodes(canvas);
  const groups = nodes.filter((n) => n.group);
  // Every product is made of it: one box, captioned with the relation, its direction, the type and the count.
  expect(groups.map((g) => g.label)).toEqual([`← made_of product (${madeOf.length})`]);
  const members = nodes.filter((n) => n.parent === groups[0]!.id);
  expect(members).toHaveLength(madeOf.length);
  const names = new Set(catalogue.entities.filter((e) => madeOf.some((m) => m.source === e.externalId)).map((e) => e.name));
  expect(new Set(members.map((m) => m.label))).toEqual(names);
  // The centre and every neighbour show their names at the fitted zoom, and no two members share a place.
  for (const n of nodes.filter((x) => !x.group)) expect(n.labelShown, `label of ${n.label}`).toBe(true);
  expect(new Set(members.map((m) => `${Math.round(m.x)},${Math.round(m.y)}`)).size).toBe(members.length);
  // The box sits clear of the centre.
  const centre = nodes.find((n) => n.label === hub.name)!;
  expect(Math.min(...members.map((m) => Math.hypot(m.x - centre.x, m.y - centre.y)))).toBeGreaterThan(40);
});

test('the paths view runs from the source on the left to the target on the right', async ({ page }) => {
  const product = byName('Trailmark Summit 4-Person Tunnel Tent');
  const brand = byName('Trailmark');
  await signIn(page, ANNOTATOR);
  const [from, to] = [await entityId(page, product.externalId), await entityId(page, brand.externalId)];
  await page.goto(`/kb/${PUBLIC_KB.slug}/paths?from=${from}&to=${to}&hops=3`);
  const canvas = page.getByTestId('path-graph');
  await drawn(canvas);
  const items = page.getByTestId('path-item');
  expect(await items.count()).toBeGreaterThan(10);

  const nodes = await drawnNodes(canvas);
  expect(nodes.length).toBeGreaterThan(10);
  const source = nodes.find((n) => n.id === String(from))!;
  const target = nodes.find((n) => n.id === String(to))!;
  for (const n of nodes) {
    if (n === source || n === target) continue;
    expect(n.x, `${n.label} right of the source`).toBeGreaterThan(source.x);
    expect(n.x, `${n.label} left of the target`).toBeLessThan(target.x);
  }
  expect(source.labelShown && target.labelShown).toBe(true);

  // A clicked path's entities all show their names.
  const longest = items.filter({ hasText: /—.*—.*—/ }).first();
  await longest.click();
  await expect(longest).toHaveAttribute('aria-pressed', 'true');
  await expect.poll(async () => {
    const lit = await canvas.evaluate((el) => (el as unknown as { _cyreg: { cy: import('cytoscape').Core } })._cyreg.cy.nodes('.highlight').length);
    return lit;
  }).toBe(4);
  const litShown = await canvas.evaluate((el) => {
    const cy = (el as unknown as { _cyreg: { cy: import('cytoscape').Core } })._cyreg.cy;
    return cy.nodes('.highlight').map((n) => n.numericStyle('font-size') * cy.zoom() >= n.numericStyle('min-zoomed-font-size'));
  });
  expect(litShown).toEqual([true, true, true, true]);
});

test('on a large view, hovering a node whose name is hidden shows it', async ({ page }) => {
  const brand = byName('Trailmark');
  await signIn(page, ANNOTATOR);
  await page.goto(`/kb/${PUBLIC_KB.slug}/graph?entity=${await entityId(page, brand.externalId)}&hops=2`);
  const canvas = page.getByTestId('graph-canvas');
  await drawn(canvas);
  await expect(canvas).toHaveAttribute('data-renderer', 'canvas');
  const nodes = await drawnNodes(canvas);
  // Grouped: the brand's products in one box, the next hop in boxes by relation and type.
  expect(nodes.filter((n) => n.group).map((n) => n.label)).toContain(`← has_brand product (${catalogue.edges.filter((e) => e.relation === 'has_brand' && e.target === brand.externalId).length})`);
  expect(nodes.filter((n) => n.group).length).toBeGreaterThan(2);

  const box = (await canvas.boundingBox())!;
  const hidden = nodes.filter((n) => !n.group && !n.labelShown
    && n.renderedX > 20 && n.renderedX < box.width - 20 && n.renderedY > 20 && n.renderedY < box.height - 20);
  expect(hidden.length, 'nodes without a drawn name').toBeGreaterThan(20);
  const target = hidden[Math.floor(hidden.length / 2)]!;
  await page.mouse.move(box.x + target.renderedX, box.y + target.renderedY);
  await expect.poll(async () => (await drawnNodes(canvas)).find((n) => n.id === target.id)!.labelShown).toBe(true);
  await page.mouse.move(box.x + 2, box.y + 2);
  await expect.poll(async () => (await drawnNodes(canvas)).find((n) => n.id === target.id)!.labelShown).toBe(false);
});

test('a view of 1,000 elements or more is large (WebGL on a GPU, software GL keeps the 2D canvas), and a node is picked by clicking it', async ({ page }) => {
  const brand = byName('Trailmark');
  const degree = new Map<string, number>();
  for (const e of catalogue.edges) for (const end of [e.source, e.target]) degree.set(end, (degree.get(end) ?? 0) + 1);
  const degreeOf = new Map(catalogue.entities.map((e) => [e.name, degree.get(e.externalId) ?? 0]));
  await signIn(page, ANNOTATOR);
  const view = `/kb/${PUBLIC_KB.slug}/graph?entity=${await entityId(page, brand.externalId)}&hops=2`;
  await page.goto(view);
  const canvas = page.getByTestId('graph-canvas');
  await drawn(canvas);
  expect(Number(await canvas.getAttribute('data-elements'))).toBeLessThan(1000);
  await expect(canvas).toHaveAttribute('data-large', 'false');
  await expect(canvas).toHaveAttribute('data-renderer', 'canvas');
  // A smaller view is drawn in full while it moves, at the screen's pixel ratio.
  await expect(canvas).toHaveAttribute('data-moving', 'full');
  expect(await movingSettings(canvas)).toEqual({ texture: false, hideEdges: false, pixelRatio: null });

  // Expanding the view's best-connected entities (colours, materials) takes it past 1,000 elements.
  const hubs = (await drawnNodes(canvas)).filter((n) => /^\d+$/.test(n.id))
    .sort((a, b) => (degreeOf.get(b.label) ?? 0) - (degreeOf.get(a.label) ?? 0)).slice(0, 10);
  await page.goto(`${view}&${hubs.map((h) => `expand=${h.id}`).join('&')}`);
  await expect(canvas).toHaveAttribute('data-large', 'true');
  await drawn(canvas);
  expect(Number(await canvas.getAttribute('data-elements'))).toBeGreaterThanOrEqual(1000);
  // The test browser's WebGL is SwiftShader, software: the 2D canvas stays (see docs/benchmarks.md).
  const gl = await page.evaluate(() => {
    const c = document.createElement('canvas').getContext('webgl2');
    const info = c?.getExtension('WEBGL_debug_renderer_info');
    return c && info ? String(c.getParameter(info.UNMASKED_RENDERER_WEBGL)) : '';
  });
  const software = /swiftshader|llvmpipe|software/i.test(gl) || gl === '';
  await expect(canvas).toHaveAttribute('data-renderer', software ? 'canvas' : 'webgl');
  // In the 2D canvas a large view leaves its edges out while it moves; every large view is drawn at one canvas
  // pixel per CSS pixel. WebGL draws each frame in full.
  await expect(canvas).toHaveAttribute('data-moving', software ? 'no-edges' : 'full');
  expect(await movingSettings(canvas)).toEqual({ texture: false, hideEdges: software, pixelRatio: 1 });

  // Clicking a drawn entity selects it in the side panel.
  const box = (await canvas.boundingBox())!;
  const nodes = (await drawnNodes(canvas)).filter((n) => /^\d+$/.test(n.id)
    && n.renderedX > 20 && n.renderedX < box.width - 20 && n.renderedY > 20 && n.renderedY < box.height - 20);
  const target = nodes[Math.floor(nodes.length / 2)]!;
  await page.mouse.click(box.x + target.renderedX, box.y + target.renderedY);
  await expect.poll(() => new URL(page.url()).searchParams.get('selected')).toBe(target.id);
  await expect(page.getByTestId('graph-selected-name')).toHaveText(target.label);
});
