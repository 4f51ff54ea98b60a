import { expect } from '@playwright/test';
import { ADMIN, ANNOTATOR, CURATOR, PRIVATE_KB, PUBLIC_KB, signIn, waitForHydration, test } from './fixtures';

test('an anonymous visitor is sent to the sign-in page', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/login\?callbackUrl=%2F$/);
  await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
  await expect(page.getByTestId('kb-list')).toHaveCount(0);
});

test('an annotator browses the public catalogue down to an entity, then signs out', async ({ page }) => {
  await signIn(page, ANNOTATOR);
  await expect(page.getByTestId('current-user')).toHaveText(`${ANNOTATOR} · annotator`, { useInnerText: true });

  const kbList = page.getByTestId('kb-list');
  await expect(kbList.getByRole('link', { name: PUBLIC_KB.name })).toBeVisible();
  await expect(kbList.getByRole('link', { name: PRIVATE_KB.name })).toHaveCount(0);
  await expect(kbList).not.toContainText('brand registry');

  // The knowledge base page.
  await kbList.getByRole('link', { name: PUBLIC_KB.name }).click();
  await expect(page).toHaveURL(new RegExp(`/kb/${PUBLIC_KB.slug}$`));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(PUBLIC_KB.name);
  await expect(page.getByRole('heading', { name: 'Entity types' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Relation types' })).toBeVisible();

  // The first of the most connected entities.
  const first = page.getByTestId('entity-list').getByRole('link').first();
  await expect(first).toBeVisible();
  const entityName = (await first.textContent())?.trim() ?? '';
  expect(entityName).not.toBe('');
  await first.click();
  await expect(page).toHaveURL(new RegExp(`/kb/${PUBLIC_KB.slug}/entities/\\d+$`));
  await expect(page.getByTestId('entity-name')).toHaveText(entityName);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(entityName);

  // The document: field labels (dt) with non-empty values (dd).
  const documentView = page.getByTestId('entity-document');
  await expect(documentView).toBeVisible();
  const labels = (await documentView.locator('dt').allTextContents()).map((t) => t.trim().toLowerCase());
  expect(labels.some((l) => l === 'title' || l === 'description'), `document fields: ${labels.join(', ')}`).toBe(true);
  const values = (await documentView.locator('dd').allTextContents()).map((t) => t.trim());
  expect(values.length).toBeGreaterThan(0);
  expect(values.every((v) => v.length > 0)).toBe(true);
  await expect(documentView).not.toContainText('This entity has no document');

  // The neighbour graph: cytoscape draws on canvases inside the container.
  const graph = page.getByTestId('entity-graph');
  await expect(graph).toBeVisible();
  await expect(graph).toHaveAttribute('aria-busy', 'false');
  const caption = page.getByTestId('graph-caption');
  await expect(caption).toContainText('neighbours shown');
  await expect(caption).toContainText('Click a neighbour to open it.');
  const shown = Number(/^(\d+) neighbours shown/.exec((await caption.textContent()) ?? '')?.[1]);
  expect(shown).toBeGreaterThan(0);
  const canvas = graph.locator('canvas').first();
  await expect(canvas).toBeVisible();
  const box = await canvas.boundingBox();
  expect(box?.width ?? 0).toBeGreaterThan(0);
  expect(box?.height ?? 0).toBeGreaterThan(0);
  // Something was actually drawn: at least one canvas has a non-transparent pixel.
  await expect
    .poll(() =>
      graph.locator('canvas').evaluateAll((canvases) =>
        canvases.some((c) => {
          const el = c as HTMLCanvasElement;
          const ctx = el.getContext('2d');
          if (!ctx || el.width === 0 || el.height === 0) return false;
          const pixels = ctx.getImageData(0, 0, el.width, el.height).data;
          for (let i = 3; i < pixels.length; i += 4) if (pixels[i] !== 0) return true;
          return false;
        }),
      ),
    )
    .toBe(true);

  // The relation summary.
  const relationRows = page.getByTestId('relation-summary').locator('tr');
  expect(await relationRows.count()).toBeGreaterThan(0);
  await expect(relationRows.first()).toContainText(/\d/);

  // Sign out.
  const signOut = page.getByRole('button', { name: 'Sign out' });
  await waitForHydration(signOut);
  await signOut.click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByTestId('current-user')).toHaveCount(0);
  await page.goto('/');
  await expect(page).toHaveURL(/\/login\?callbackUrl=%2F$/);
});

test('an annotator gets the 404 page for the private knowledge base', async ({ page }) => {
  await signIn(page, ANNOTATOR);
  const response = await page.goto(`/kb/${PRIVATE_KB.slug}`);
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: '404 · Not found' })).toBeVisible();
  await expect(page.getByText(PRIVATE_KB.name)).toHaveCount(0);
});

for (const email of [CURATOR, ADMIN]) {
  test(`${email} sees and opens the private knowledge base`, async ({ page }) => {
    await signIn(page, email);
    const kbList = page.getByTestId('kb-list');
    await expect(kbList.getByRole('link', { name: PUBLIC_KB.name })).toBeVisible();
    const privateLink = kbList.getByRole('link', { name: PRIVATE_KB.name });
    await expect(privateLink).toBeVisible();
    await privateLink.click();
    await expect(page).toHaveURL(new RegExp(`/kb/${PRIVATE_KB.slug}$`));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(PRIVATE_KB.name);
    await expect(page.getByTestId('entity-list').getByRole('link').first()).toBeVisible();
  });
}

test('the knowledge base page shows its schema statistics: a degree chart and the typed triples', async ({ page, request }) => {
  await signIn(page, ANNOTATOR);
  await page.goto(`/kb/${PUBLIC_KB.slug}`);
  const stats = (await (await page.request.get(`/api/kbs/${PUBLIC_KB.slug}/stats`)).json()) as {
    edges: number;
    triples: { source: string; relation: string; target: string; count: number }[];
    degreeHistogram: { count: number }[];
  };
  expect(stats.triples.reduce((s, t) => s + t.count, 0)).toBe(stats.edges);

  // One bar per degree range, drawn as SVG by the chart.
  const chart = page.getByTestId('degree-chart');
  await expect(chart.locator('.recharts-bar-rectangle')).toHaveCount(stats.degreeHistogram.length);
  await expect(chart.getByText('edges per entity')).toBeVisible();

  const triples = page.getByTestId('triple-table').locator('tr');
  await expect(triples).toHaveCount(stats.triples.length);
  const top = stats.triples[0]!;
  await expect(triples.first()).toContainText(`${top.source} –${top.relation}→ ${top.target}`);
  await expect(triples.first()).toContainText(top.count.toLocaleString('en'));
  expect((await request.get(`/api/kbs/${PUBLIC_KB.slug}/stats`)).status()).toBe(401);
});
