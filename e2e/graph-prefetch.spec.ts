import { expect } from '@playwright/test';
import { NODE_LIST_FIRST } from '../lib/kb/graph-view';
import { ANNOTATOR, PUBLIC_KB, signIn, test } from './fixtures';

// The graph page arrives with its view (read on the server), so opening a link to a view asks the graph API
// nothing; another view is still drawn when the controls change.

const graphRequest = (url: string) => new RegExp(`/api/kbs/${PUBLIC_KB.slug}/graph\\?`).test(url);

test('a link to a graph view draws it from the page itself, and changing the hops still draws the new view', async ({ page }) => {
  await signIn(page, ANNOTATOR);
  await page.goto(`/kb/${PUBLIC_KB.slug}/graph`);
  const suggestion = page.getByTestId('graph-suggestions').getByRole('link').first();
  const href = (await suggestion.getAttribute('href'))!;
  const centre = (await suggestion.textContent())!.replace(/\s+\S+ · [\d,]+$/, '').trim();
  expect(href).toContain('entity=');

  // The server's HTML already lists the view's nodes.
  const html = await (await page.request.get(href)).text();
  expect(html).toContain('data-testid="graph-node-list"');
  expect(html).toContain(centre);
  // ...the first of them: the rest follow the canvas's first frame (the 2-hop view has more, below).
  expect(href).toContain('hops=1');
  const twoHops = await (await page.request.get(href.replace('hops=1', 'hops=2'))).text();
  const listedByServer = (twoHops.match(/aria-pressed=/g) ?? []).length;
  expect(listedByServer).toBeGreaterThan(0);
  expect(listedByServer).toBeLessThanOrEqual(NODE_LIST_FIRST);

  const requests: string[] = [];
  page.on('request', (r) => { if (graphRequest(r.url())) requests.push(r.url()); });
  await page.goto(href);
  const canvas = page.getByTestId('graph-canvas');
  await expect(canvas).toHaveAttribute('aria-busy', 'false');
  await expect(canvas).not.toHaveAttribute('data-elements', '0');
  await expect(page.getByTestId('graph-centre')).toContainText(centre);
  await expect(page.getByTestId('graph-counts')).toHaveText(/^\d+ nodes, \d+ edges$/);
  expect(requests).toEqual([]);

  // Another view still comes: two hops, through the address as every control goes.
  const oneHop = await page.getByTestId('graph-counts').textContent();
  await page.getByTestId('graph-hops').selectOption('2');
  await expect.poll(() => new URL(page.url()).searchParams.get('hops')).toBe('2');
  await expect(page.getByTestId('graph-counts')).not.toHaveText(oneHop!);
  await expect(canvas).toHaveAttribute('aria-busy', 'false');
  await expect(page.getByTestId('graph-centre')).toContainText(centre);
  // Once drawn, the node list holds every node of the view, more than the server listed.
  const nodes = Number(/^(\d+) nodes/.exec((await page.getByTestId('graph-counts').textContent())!)![1]);
  expect(nodes).toBeGreaterThan(NODE_LIST_FIRST);
  await expect(page.getByTestId('graph-node-list').getByRole('button')).toHaveCount(nodes);
  await expect(page.getByTestId('graph-node-list')).toHaveAttribute('aria-busy', 'false');
});
