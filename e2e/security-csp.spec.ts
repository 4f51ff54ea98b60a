import { expect, type Page } from '@playwright/test';
import { PUBLIC_KB, submitLogin, test, waitForHydration, ADMIN, TEST_PASSWORD } from './fixtures';
import { disposeSecurityFixtures, setUpSecurityFixtures, type SecurityFixtures } from './security-setup';

/**
 * Every kind of page under the Content-Security-Policy, used the way people use it (the graph and the charts
 * included): the `test` of fixtures.ts fails on any violation. Also the policy and the other headers themselves.
 */

let f: SecurityFixtures;
const kb = `/kb/${PUBLIC_KB.slug}`;

test.beforeAll(async ({ playwright }) => {
  test.setTimeout(120_000);
  f = await setUpSecurityFixtures(playwright);
});
test.afterAll(async () => disposeSecurityFixtures(f));

/** Opens a page and waits until React has hydrated it, which needs the scripts the policy let run. */
async function visit(page: Page, path: string): Promise<void> {
  const res = await page.goto(path);
  expect(res?.status(), path).toBeLessThan(400);
  await waitForHydration(page.locator('header button, main button, main a, main input').first());
}

async function signInAs(page: Page, who: 'admin' | 'owner'): Promise<void> {
  const request = who === 'admin' ? f.callers.admin.request : f.owner;
  await page.context().clearCookies();
  await page.context().addCookies((await request.storageState()).cookies);
}

test('pages carry a nonce-based policy, API answers a closed one, and the other headers', async ({ request }) => {
  const page = await request.get('/login');
  const policy = page.headers()['content-security-policy'] ?? '';
  expect(policy).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]{16,}' 'strict-dynamic'/);
  for (const directive of ["object-src 'none'", "base-uri 'self'", "form-action 'self'", "frame-ancestors 'none'", "default-src 'self'"]) {
    expect(policy).toContain(directive);
  }
  expect(policy).not.toContain('unsafe-eval');
  expect(policy).not.toMatch(/script-src[^;]*'unsafe-inline'/);
  const again = (await request.get('/login')).headers()['content-security-policy'];
  expect(again, 'a fresh nonce per request').not.toBe(policy);
  expect(page.headers()['strict-transport-security'], 'no HSTS over plain HTTP').toBeUndefined();
  const html = await page.text();
  const nonce = /'nonce-([^']+)'/.exec(policy)![1]!;
  expect(html).toContain(`nonce="${nonce}"`);

  const api = await request.get('/api/kbs');
  expect(api.headers()['content-security-policy']).toContain("default-src 'none'");
  for (const res of [page, api]) {
    expect(res.headers()['x-content-type-options']).toBe('nosniff');
    expect(res.headers()['referrer-policy']).toBe('same-origin');
    expect(res.headers()['permissions-policy']).toContain('camera=()');
    expect(res.headers()['x-powered-by']).toBeUndefined();
  }
});

test('signed out: sign-in, a study link and the rating screen', async ({ page }) => {
  await visit(page, '/login');
  await visit(page, `/rate/${f.participantToken}`);
  await visit(page, '/login');
  await submitLogin(page, ADMIN, TEST_PASSWORD);
  await expect(page.getByTestId('kb-list')).toBeVisible();
});

test('zod, set not to probe for eval, is loaded only by pages that validate in the browser', async ({ page }) => {
  const scripts: Promise<string>[] = [];
  page.on('response', (r) => { if (r.request().resourceType() === 'script') scripts.push(r.text().catch(() => '')); });
  const loadsZod = async (path: string) => {
    scripts.length = 0;
    await visit(page, path);
    return (await Promise.all(scripts)).some((js) => js.includes('ZodError'));
  };
  expect(await loadsZod('/login')).toBe(false);
  // The rating screen validates its answers with zod, under the same policy (a violation fails the test).
  expect(await loadsZod(`/rate/${f.participantToken}`)).toBe(true);
});

test('the explorer: knowledge bases, overview and schema, search, entity, graph, metapaths, paths', async ({ page }) => {
  const { entityId, otherEntityId } = f.perKb.public;
  await signInAs(page, 'admin');
  await visit(page, '/');
  await visit(page, kb);
  // The schema map (Cytoscape) and the degree chart (SVG with inline styles); hovering shows the tooltip.
  await expect(page.getByTestId('schema-map')).toBeVisible();
  const bar = page.getByTestId('degree-chart').locator('.recharts-bar-rectangle').first();
  await bar.hover();
  await visit(page, `${kb}/search?q=tent`);
  await visit(page, `${kb}/entities/${entityId}`);
  await visit(page, `${kb}/graph?entity=${entityId}`);
  await expect(page.getByTestId('graph-caption')).toBeVisible();
  await page.getByTestId('graph-node-list').getByRole('button').nth(1).click();
  await page.getByTestId('graph-side-panel').getByRole('button', { name: 'Expand' }).click();
  await page.getByTestId('graph-layout').selectOption('cose');
  await page.getByTestId('graph-hops').selectOption('2');
  await expect(page.getByTestId('graph-caption')).toBeVisible();
  await visit(page, `${kb}/metapaths`);
  await visit(page, `${kb}/paths?from=${entityId}&to=${otherEntityId}`);
});

test('query sets, runs, releases, campaigns, review, studies and results, import and users', async ({ page }) => {
  const { querySet, qid, runId } = f.perKb.public;
  await signInAs(page, 'admin');
  await visit(page, `${kb}/queries`);
  await visit(page, `${kb}/queries/${querySet}?tab=stats`);
  await page.locator('.recharts-surface').first().hover();
  await visit(page, `${kb}/queries/${querySet}/q/${encodeURIComponent(qid)}`);
  await visit(page, `${kb}/queries/${querySet}?tab=runs`);
  await visit(page, `${kb}/queries/${querySet}/runs/${runId}`);
  await visit(page, `${kb}/queries/${querySet}?tab=releases`);
  await visit(page, `${kb}/queries/import`);
  await visit(page, `${kb}/campaigns`);
  await visit(page, `${kb}/campaigns/${f.campaignId}`);
  await visit(page, `${kb}/campaigns/${f.campaignId}/review`);
  await visit(page, `${kb}/campaigns/new`);
  await visit(page, `${kb}/studies`);
  await visit(page, `${kb}/studies/${f.studyId}`);
  await visit(page, `${kb}/studies/${f.studyId}/results`);
  await visit(page, `${kb}/studies/${f.studyId}/rate`);
  await visit(page, `${kb}/studies/new`);
  await visit(page, '/admin/import');
  await visit(page, '/admin/users');
});

test("the annotator's workspace", async ({ page }) => {
  await signInAs(page, 'owner');
  await visit(page, `${kb}/campaigns/${f.campaignId}/work/${f.assignmentId}`);
  await page.getByRole('textbox').first().fill('Which product of this brand is the lightest?');
});
