import { expect, type APIRequestContext, type Page, type PlaywrightWorkerArgs } from '@playwright/test';
import { buildDemoCatalogue } from '../lib/demo/catalogue';
import { ANNOTATOR, apiSignIn, CURATOR, PUBLIC_KB, RATER, signIn, test, waitForHydration } from './fixtures';
import { importGearKb } from './gear-kb';

/**
 * Addresses a page cannot show say so at once, in the API's words, with the way back; the workspace asks
 * before submitting with candidates unjudged and keeps the seed apart from them; the run table fits a laptop.
 */

const uniqueName = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
const kb = `/kb/${PUBLIC_KB.slug}`;

async function signedIn(playwright: PlaywrightWorkerArgs['playwright'], baseURL: string | undefined, email: string): Promise<APIRequestContext> {
  const request = await playwright.request.newContext({ baseURL });
  await apiSignIn(request, email);
  return request;
}

/**
 * The problem is in the server's HTML (no request of the browser's needed to show it), then on the page;
 * following the way back leads to `back.to`, which shows no problem (unless `clean` is false: another bad value is left).
 */
async function refusedAtOnce(page: Page, url: string, message: string, back: { label: string | RegExp; to: string; clean?: false }): Promise<void> {
  const html = await (await page.request.get(url)).text();
  expect(html, `${url} renders its problem on the server`).toContain(message.replaceAll('"', '&quot;'));
  await page.goto(url);
  const problem = page.getByTestId('page-problem');
  await expect(problem).toContainText(message);
  const link = problem.getByRole('link', { name: back.label });
  await expect(link).toHaveAttribute('href', back.to);
  await link.click();
  // The page may add its own defaults to the address once open.
  await expect(page).toHaveURL((u) => `${u.pathname}${u.search}`.startsWith(back.to));
  if (back.clean !== false) await expect(page.getByTestId('page-problem')).toHaveCount(0);
}

test('bad addresses of the explorer pages say what is wrong at once and lead back', async ({ page }) => {
  await signIn(page, CURATOR);
  const entity = (await (await page.request.get(`/api/kbs/${PUBLIC_KB.slug}/search?q=tent&limit=1`)).json()) as { hits: { id: number }[] };
  const id = entity.hits[0]!.id;

  await refusedAtOnce(page, `${kb}/graph?entity=999999`, 'No entity 999999 in this knowledge base',
    { label: 'Open the graph without “entity”', to: `${kb}/graph` });
  // The same values the API refuses, in its words; the unknown relation once the number is right.
  const api = await page.request.get(`/api/kbs/${PUBLIC_KB.slug}/graph?entity=${id}&hops=9`);
  expect(api.status()).toBe(400);
  expect(((await api.json()) as { error: string }).error).toBe('Invalid query: hops: must be at most 3');
  await refusedAtOnce(page, `${kb}/graph?entity=${id}&hops=9&rel=nope`, 'Invalid query: hops: must be at most 3',
    { label: 'Open the graph without “hops”', to: `${kb}/graph?entity=${id}&rel=nope`, clean: false });
  await expect(page.getByTestId('page-problem')).toContainText('Invalid query: rel: unknown relation "nope"');
  await page.getByTestId('page-problem').getByRole('link', { name: 'Open the graph without “rel”' }).click();
  await expect(page).toHaveURL((u) => u.searchParams.get('entity') === String(id) && !u.searchParams.has('rel'));
  await expect(page.getByTestId('graph-counts')).toBeVisible();
  await expect(page.getByTestId('page-problem')).toHaveCount(0);

  await refusedAtOnce(page, `${kb}/metapaths?start=999999`, 'No entity 999999 in this knowledge base',
    { label: 'Open metapaths without “start”', to: `${kb}/metapaths` });
  await refusedAtOnce(page, `${kb}/metapaths?start=${id}&step=sideways`, 'Invalid query: step.0: must read out~RELATION~TYPE or in~RELATION~TYPE',
    { label: 'Open metapaths without “step”', to: `${kb}/metapaths?start=${id}` });
  await refusedAtOnce(page, `${kb}/paths?from=${id}&to=abc`, 'Invalid query: to: must be a positive integer',
    { label: 'Open paths without “to”', to: `${kb}/paths?from=${id}` });
  await refusedAtOnce(page, `${kb}/search?q=tent&page=0`, 'Invalid query: page: must be at least 1',
    { label: 'Open search without “page”', to: `${kb}/search?q=tent` });
  await refusedAtOnce(page, `${kb}/search?q=tent&type=spaceship`, 'Invalid query: type: unknown entity type "spaceship"',
    { label: 'Open search without “type”', to: `${kb}/search?q=tent` });

  await refusedAtOnce(page, `${kb}/entities/999999`, 'No entity 999999 in this knowledge base', { label: `Search ${PUBLIC_KB.name}`, to: `${kb}/search` });
  await refusedAtOnce(page, `${kb}/entities/abc`, 'Invalid entity id: must be a positive integer', { label: `Search ${PUBLIC_KB.name}`, to: `${kb}/search` });
});

test('bad run, release and query addresses say what is wrong and lead back to the set; the run table fits 1,366 px', async ({ page }) => {
  test.setTimeout(90_000);
  const slug = uniqueName('gear-words');
  const setName = uniqueName('gear-set');
  await signIn(page, CURATOR);
  await importGearKb(page.request, slug);
  const rows = [{ id: 'q1', query: 'A tent for alpine camps', answer_ids: ['301'] }, { id: 'q2', query: 'A one-person bivy sack', answer_ids: ['304'] }];
  const upload = await page.request.put('/api/uploads?name=queries.jsonl', { data: rows.map((r) => JSON.stringify(r)).join('\n'), headers: { 'content-type': 'application/octet-stream' } });
  expect(upload.status()).toBe(201);
  const { uploadId } = (await upload.json()) as { uploadId: string };
  const imported = await page.request.post(`/api/kbs/${slug}/query-sets`, { data: { name: setName, format: 'jsonl', files: [{ uploadId, kind: 'queries' }] } });
  expect(imported.status(), await imported.text()).toBe(201);
  const runName = 'a run with a long descriptive name, as people give them';
  const scored = await page.request.post(`/api/kbs/${slug}/query-sets/${setName}/runs?file=gear.run&name=${encodeURIComponent(runName)}`, {
    data: ['q1 Q0 301 1 2.0 gear', 'q2 Q0 302 1 2.0 gear', ''].join('\n'), headers: { 'content-type': 'text/plain' },
  });
  expect(scored.status(), await scored.text()).toBe(201);

  const set = `/kb/${slug}/queries/${setName}`;
  await refusedAtOnce(page, `${set}/runs/999999`, 'No run 999999 on this query set', { label: `Runs of ${setName}`, to: `${set}?tab=runs` });
  await refusedAtOnce(page, `${set}/runs/1.5`, 'Invalid run id: must be a positive integer', { label: `Runs of ${setName}`, to: `${set}?tab=runs` });
  await refusedAtOnce(page, `${set}/releases/abc`, 'Invalid release number: must be a positive integer', { label: `Releases of ${setName}`, to: `${set}?tab=releases` });
  await refusedAtOnce(page, `${set}/releases/7`, 'No release 7 of this query set', { label: `Releases of ${setName}`, to: `${set}?tab=releases` });
  await refusedAtOnce(page, `${set}/q/nope`, 'No query nope in this query set', { label: `Queries of ${setName}`, to: set });

  // Every metric of the run table in view at a laptop's width, the last one (nDCG@10) too.
  await page.setViewportSize({ width: 1366, height: 768 });
  await page.goto(`${set}?tab=runs`);
  const table = page.getByTestId('run-table');
  await expect(table.getByRole('row').filter({ hasText: runName })).toContainText('done');
  const last = table.getByRole('columnheader', { name: 'nDCG@10' });
  const [cell, wrapper] = await Promise.all([last.boundingBox(), table.locator('..').boundingBox()]);
  expect(cell!.x + cell!.width).toBeLessThanOrEqual(wrapper!.x + wrapper!.width + 0.5);
  expect(await table.locator('..').evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
});

test('malformed ids of campaign, workspace, review, study, LLM-call and link pages are said at once; an id naming nothing is a 404 that leads to its list', async ({ page }) => {
  await signIn(page, CURATOR);
  const campaigns = { label: `Campaigns of ${PUBLIC_KB.name}`, to: `${kb}/campaigns` };
  const studies = { label: `Studies of ${PUBLIC_KB.name}`, to: `${kb}/studies` };
  await refusedAtOnce(page, `${kb}/campaigns/abc`, 'Invalid campaign id: must be a positive integer', campaigns);
  await refusedAtOnce(page, `${kb}/campaigns/1.5/review`, 'Invalid campaign id: must be a positive integer', campaigns);
  await refusedAtOnce(page, `${kb}/campaigns/7/work/0`, 'Invalid assignment id: must be a positive integer', campaigns);
  await refusedAtOnce(page, `${kb}/studies/99999999999`, 'Invalid study id: must be at most 2147483647', studies);
  await refusedAtOnce(page, `${kb}/studies/-3/results`, 'Invalid study id: must be a positive integer', studies);
  await refusedAtOnce(page, `${kb}/studies/x/rate`, 'Invalid study id: must be a positive integer', studies);
  await refusedAtOnce(page, `${kb}/llm-calls/abc`, 'Invalid call id: must be a positive integer', { label: 'Synthesize', to: `${kb}/synthesize` });
  await refusedAtOnce(page, '/join/not-a-study-link', 'Invalid study link: must be 32 letters, digits, “-” or “_”', { label: 'Go to SKB Studio', to: '/' });
  await refusedAtOnce(page, '/rate/short', 'Invalid participation link: must be 32 letters, digits, “-” or “_”', { label: 'Go to SKB Studio', to: '/' });

  // Well-formed but naming nothing: the same 404 as for what the reader may not see, with the way to the list.
  for (const [path, list, label] of [
    [`${kb}/campaigns/2147483000/review`, `${kb}/campaigns`, 'Campaigns of this knowledge base'],
    [`${kb}/studies/2147483000`, `${kb}/studies`, 'Studies of this knowledge base'],
    [`${kb}/llm-calls/2147483000`, `${kb}/synthesize`, 'Synthesis of this knowledge base'],
  ] as const) {
    expect((await page.goto(path))?.status(), path).toBe(404);
    await expect(page.getByRole('heading', { name: '404 · Not found' })).toBeVisible();
    await expect(page.getByTestId('not-found-back')).toHaveText(label);
    await expect(page.getByTestId('not-found-back')).toHaveAttribute('href', list);
  }
  await page.getByTestId('not-found-back').click();
  await expect(page).toHaveURL((u) => u.pathname === `${kb}/synthesize`);
});

const catalogue = buildDemoCatalogue();

test('the workspace keeps the seed apart from the candidates and asks before submitting with some unjudged', async ({ page, playwright, baseURL }) => {
  // A product as the seed, and a requirement that comes back to it: the products of its brand.
  const ext = (id: string) => catalogue.entities.find((e) => e.externalId === id)!;
  const byBrand = new Map<string, string[]>();
  for (const e of catalogue.edges.filter((x) => x.relation === 'has_brand')) byBrand.set(e.target, [...(byBrand.get(e.target) ?? []), e.source]);
  const [, products] = [...byBrand].find(([, p]) => p.length >= 4)!;
  const seed = ext(products[0]!);
  const others = products.slice(1).map((p) => ext(p).name);

  const curator = await signedIn(playwright, baseURL, CURATOR);
  const annotator = await signedIn(playwright, baseURL, ANNOTATOR);
  const name = uniqueName('words');
  const created = await curator.post(`/api/kbs/${PUBLIC_KB.slug}/campaigns`, {
    data: { name, annotatorsPerSeed: 1, leakPolicy: 'warn', querySet: `${name}-queries`, annotators: [ANNOTATOR], seeds: { mode: 'list', text: seed.externalId } },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id: campaignId } = (await created.json()) as { id: number };
  const { assignment } = (await (await annotator.post(`/api/campaigns/${campaignId}/claim`)).json()) as { assignment: { id: number; entityId: number } };
  const requirement = { paths: [{ start: { entity: assignment.entityId }, steps: [
    { relation: 'has_brand', direction: 'out', targetType: 'brand' }, { relation: 'has_brand', direction: 'in', targetType: 'product' }] }] };
  const { draft } = (await (await annotator.get(`/api/assignments/${assignment.id}`)).json()) as { draft: { version: number } };
  const saved = await annotator.put(`/api/assignments/${assignment.id}/draft`, { data: { text: 'Other products from the same maker', requirement, version: draft.version } });
  expect(saved.status(), await saved.text()).toBe(200);

  await signIn(page, ANNOTATOR);
  await page.goto(`${kb}/campaigns/${campaignId}/work/${assignment.id}`);
  await expect(page.getByTestId('seed-apart')).toContainText(`The seed, ${seed.name}, is not listed`);
  const candidates = page.getByTestId('candidate');
  await expect(candidates).toHaveCount(others.length);
  expect((await candidates.getByRole('link').allTextContents()).sort()).toEqual([...others].sort());
  const progress = page.getByTestId('judged-progress');
  await expect(progress).toContainText(`Judged 0 of ${others.length} candidates`);

  await waitForHydration(page.getByRole('button', { name: 'Submit for review' }));
  await candidates.nth(0).getByRole('button', { name: 'Relevant', exact: true }).click();
  await expect(progress).toContainText(`Judged 1 of ${others.length} candidates`);

  // Asked first, with the count; keeping on judging changes nothing.
  await page.getByRole('button', { name: 'Submit for review' }).click();
  const confirm = page.getByTestId('submit-confirm');
  await expect(confirm).toContainText(`1 of ${others.length} candidates judged; ${others.length - 1} not judged — submit anyway?`);
  await confirm.getByRole('button', { name: 'Keep judging' }).click();
  await expect(confirm).toHaveCount(0);
  await expect(page.getByTestId('submitted')).toHaveCount(0);
  expect(((await (await annotator.get(`/api/assignments/${assignment.id}`)).json()) as { assignment: { status: string } }).assignment.status).toBe('ACTIVE');

  await page.getByRole('button', { name: 'Submit for review' }).click();
  await page.getByTestId('submit-confirm').getByRole('button', { name: 'Submit anyway' }).click();
  await expect(page.getByTestId('submitted')).toContainText('Submitted for review: 2 answers (the seed and 1 judged relevant).');
  expect(((await (await annotator.get(`/api/assignments/${assignment.id}`)).json()) as { assignment: { status: string } }).assignment.status).toBe('SUBMITTED');

  // A reader who is not its annotator is told why the campaign hands them nothing.
  const rater = await page.context().browser()!.newContext({ baseURL });
  const raterPage = await rater.newPage();
  await signIn(raterPage, RATER);
  await raterPage.goto(`${kb}/campaigns/${campaignId}`);
  await expect(raterPage.getByTestId('guidelines')).toBeVisible();
  await expect(raterPage.getByTestId('not-annotator')).toContainText('You are not an annotator of this campaign');
  // And where a control of other roles is absent, says whose it is.
  await raterPage.goto(`${kb}/studies`);
  await expect(raterPage.getByTestId('role-note')).toHaveText('Curators and admins make studies; open ones are listed here to take part in.');
  await expect(raterPage.getByRole('link', { name: 'New study' })).toHaveCount(0);
  await rater.close();
  await curator.dispose();
  await annotator.dispose();
});
