import { expect, type Locator, type Page } from '@playwright/test';
import { buildDemoCatalogue } from '../lib/demo/catalogue';
import { ADMIN, ANNOTATOR, apiContext, CURATOR, PRIVATE_KB, PUBLIC_KB, signIn, test, waitForHydration } from './fixtures';

const catalogue = buildDemoCatalogue();
const brand = catalogue.entities.find((e) => e.name === 'Trailmark')!;

interface Point { x: number; y: number }
type CyNode = { nonempty(): boolean; position(): Point; renderedPosition(): Point };
type WithCy = HTMLElement & { _cyreg: { cy: { getElementById(id: string): CyNode } } };

const param = (page: Page, name: string) => new URL(page.url()).searchParams.getAll(name);

/** Where Cytoscape has a node now, in model coordinates (null while it is not drawn). */
function nodePosition(canvas: Locator, id: string): Promise<Point | null> {
  return canvas.evaluate((el, nodeId) => {
    const node = (el as WithCy)._cyreg.cy.getElementById(nodeId);
    return node.nonempty() ? { ...node.position() } : null;
  }, id);
}

async function rendered(canvas: Locator): Promise<void> {
  await expect(canvas).toHaveAttribute('aria-busy', 'false');
  await expect(canvas).toHaveAttribute('data-render-ms', /^\d+$/);
}

/** Waits until the canvas has drawn and the layout has stopped moving the node. */
async function settled(canvas: Locator, id: string): Promise<void> {
  await rendered(canvas);
  let last = await nodePosition(canvas, id);
  await expect.poll(async () => {
    const now = await nodePosition(canvas, id);
    const still = now !== null && last !== null && now.x === last.x && now.y === last.y;
    last = now;
    return still;
  }, { intervals: [300] }).toBe(true);
}

/** Drags a node with the mouse, as a person would, by (dx, dy) screen pixels towards the canvas's middle. */
async function drag(page: Page, canvas: Locator, id: string, distance: Point): Promise<void> {
  // The whole canvas in the window, so the node is where the mouse can reach it.
  await canvas.evaluate((el) => el.scrollIntoView({ block: 'center' }));
  const box = (await canvas.boundingBox())!;
  const at = await canvas.evaluate((el, nodeId) => (el as WithCy)._cyreg.cy.getElementById(nodeId).renderedPosition(), id);
  const [x, y] = [box.x + at.x, box.y + at.y];
  const dx = at.x < box.width / 2 ? distance.x : -distance.x;
  const dy = at.y < box.height / 2 ? distance.y : -distance.y;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + dx / 2, y + dy / 2, { steps: 5 });
  await page.mouse.move(x + dx, y + dy, { steps: 5 });
  await page.mouse.up();
}

const near = (a: Point | null, b: Point) => a !== null && Math.abs(a.x - b.x) <= 0.1 && Math.abs(a.y - b.y) <= 0.1;

test('a curator saves a graph view with a dragged node, reopens it as saved, renames it, shares its link and deletes it', async ({ page, browser }) => {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await signIn(page, CURATOR);
  await page.goto(`/kb/${PUBLIC_KB.slug}/graph`);
  const box = page.getByTestId('graph-entity-picker').getByRole('combobox');
  await waitForHydration(box);
  await box.fill(brand.name);
  await page.getByRole('option').filter({ hasText: new RegExp(`^${brand.name} brand ·`) }).click();
  await expect.poll(() => param(page, 'entity')).toHaveLength(1);
  const centre = param(page, 'entity')[0]!;

  // Two hops, one relation left out, the force-directed layout.
  await page.getByTestId('graph-hops').selectOption('2');
  await expect.poll(() => param(page, 'hops')).toEqual(['2']);
  await page.getByTestId('graph-relations').getByRole('checkbox', { name: 'also_viewed' }).click();
  await expect.poll(() => param(page, 'rel')).toContain('has_brand');
  await page.getByTestId('graph-layout').selectOption('cose');
  await expect.poll(() => param(page, 'layout')).toEqual(['cose']);
  const canvas = page.getByTestId('graph-canvas');
  await settled(canvas, centre);
  const caption = (await page.getByTestId('graph-counts').textContent())!;
  const graphUrl = page.url();

  // Drag the centre away from where the layout put it.
  const laidOut = (await nodePosition(canvas, centre))!;
  await drag(page, canvas, centre, { x: 120, y: 80 });
  await expect.poll(async () => {
    const p = await nodePosition(canvas, centre);
    return p !== null && Math.hypot(p.x - laidOut.x, p.y - laidOut.y) > 20;
  }).toBe(true);
  const dragged = (await nodePosition(canvas, centre))!;

  // Save it under a name.
  const name = `Trailmark, two hops ${Date.now().toString(36)}`;
  const views = page.getByTestId('saved-views');
  await views.getByLabel('Name of this view').fill(name);
  await views.getByRole('button', { name: 'Save view' }).click();
  await expect(page.getByTestId('saved-views-status')).toContainText(`Saved “${name}”`);
  const item = page.getByTestId('saved-view').filter({ hasText: name });
  await expect(item).toContainText('Trailmark · 2 hops · only you');

  // Reloaded, the layout places the centre anew; opening the saved view from another view puts everything back.
  await page.reload();
  await rendered(canvas);
  expect(page.url()).toBe(graphUrl);
  await page.getByTestId('graph-hops').selectOption('1');
  await page.getByTestId('graph-layout').selectOption('concentric');
  await expect.poll(() => param(page, 'layout')).toEqual(['concentric']);
  await item.getByRole('button', { name, exact: true }).click();
  await expect.poll(() => param(page, 'view')).toHaveLength(1);
  const viewId = param(page, 'view')[0]!;
  await expect(page.getByTestId('graph-hops')).toHaveValue('2');
  await expect(page.getByTestId('graph-layout')).toHaveValue('cose');
  await expect(page.getByTestId('graph-relations').getByRole('checkbox', { name: 'also_viewed' })).not.toBeChecked();
  await expect(page.getByTestId('graph-relations').getByRole('checkbox', { name: 'has_brand' })).toBeChecked();
  await expect(page.getByTestId('graph-centre')).toContainText(brand.name);
  await expect(page.getByTestId('graph-counts')).toHaveText(caption);
  await expect.poll(async () => near(await nodePosition(canvas, centre), dragged), { message: `centre at ${JSON.stringify(dragged)}` }).toBe(true);

  // Rename it.
  await item.getByRole('button', { name: `Rename ${name}` }).click();
  const renamed = `${name} (renamed)`;
  const newName = page.getByLabel(`New name for ${name}`);
  await newName.fill(renamed);
  await newName.press('Enter');
  const renamedItem = page.getByTestId('saved-view').filter({ hasText: renamed });
  await expect(renamedItem.getByRole('button', { name: renamed, exact: true })).toBeVisible();

  // Copy its link: the view becomes shared, the link is on the clipboard and on the page.
  await renamedItem.getByRole('button', { name: `Copy link to ${renamed}` }).click();
  await expect(page.getByTestId('saved-views-status')).toContainText('Link copied; the view is now shared');
  const link = await page.getByTestId('saved-view-link').inputValue();
  expect(link).toMatch(new RegExp(`/kb/${PUBLIC_KB.slug}/graph\\?view=${viewId}$`));
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
  await expect(renamedItem).toContainText('· shared');

  // Another reader opens the link: the same view, the centre where the curator left it; they cannot change it.
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await signIn(otherPage, ANNOTATOR);
  await otherPage.goto(link);
  await expect.poll(() => param(otherPage, 'hops')).toEqual(['2']);
  const otherCanvas = otherPage.getByTestId('graph-canvas');
  await expect(otherPage.getByTestId('graph-layout')).toHaveValue('cose');
  await expect(otherPage.getByTestId('graph-counts')).toHaveText(caption);
  await expect.poll(async () => near(await nodePosition(otherCanvas, centre), dragged)).toBe(true);
  const shared = otherPage.getByTestId('saved-view').filter({ hasText: renamed });
  await expect(shared).toContainText('shared by Demo Curator');
  await expect(shared.getByRole('button', { name: `Delete ${renamed}` })).toHaveCount(0);
  await other.close();

  // Delete it: it leaves the list, and its link no longer opens.
  await renamedItem.getByRole('button', { name: `Delete ${renamed}` }).click();
  await renamedItem.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(page.getByTestId('saved-view').filter({ hasText: renamed })).toHaveCount(0);
  await expect.poll(() => param(page, 'view')).toEqual([]);
  await expect(page.getByTestId('graph-hops')).toHaveValue('2');
  const gone = await page.request.get(`/api/kbs/${PUBLIC_KB.slug}/views/${viewId}`);
  expect(gone.status()).toBe(404);
});

test("a shared view of the private knowledge base opens for its readers and is a 404 for everyone else", async ({ page, browser, playwright }) => {
  // The curator, a member of the private knowledge base, saves and shares a view of it.
  const curator = await apiContext(playwright, CURATOR);
  const { hubs } = (await (await curator.get(`/api/kbs/${PRIVATE_KB.slug}/stats`)).json()) as { hubs: { id: number }[] };
  const entity = hubs[0]!.id;
  const created = await curator.post(`/api/kbs/${PRIVATE_KB.slug}/views`, {
    data: { name: `Category tree ${Date.now().toString(36)}`, shared: true, state: { entity, hops: 2, dir: 'in', layout: 'breadthfirst', positions: { [entity]: { x: 321.5, y: -45 } } } },
  });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: number };
  const link = `/kb/${PRIVATE_KB.slug}/graph?view=${id}`;

  // The admin reads every knowledge base: the view opens as saved.
  await signIn(page, ADMIN);
  await page.goto(link);
  await expect.poll(() => param(page, 'dir')).toEqual(['in']);
  await expect(page.getByTestId('graph-direction')).toHaveValue('in');
  await expect(page.getByTestId('graph-hops')).toHaveValue('2');
  await expect(page.getByTestId('graph-layout')).toHaveValue('breadthfirst');
  await expect.poll(async () => near(await nodePosition(page.getByTestId('graph-canvas'), String(entity)), { x: 321.5, y: -45 })).toBe(true);

  // The annotator is no member: the page and the API answer 404, as for a knowledge base that does not exist.
  const outsider = await browser.newContext();
  const outsiderPage = await outsider.newPage();
  await signIn(outsiderPage, ANNOTATOR);
  const answer = await outsiderPage.goto(link);
  expect(answer?.status()).toBe(404);
  await expect(outsiderPage.getByTestId('graph-canvas')).toHaveCount(0);
  await expect(outsiderPage.getByTestId('saved-views')).toHaveCount(0);
  expect((await outsiderPage.request.get(`/api/kbs/${PRIVATE_KB.slug}/views/${id}`)).status()).toBe(404);
  await outsider.close();

  expect((await curator.delete(`/api/kbs/${PRIVATE_KB.slug}/views/${id}`)).status()).toBe(200);
  await curator.dispose();
});
