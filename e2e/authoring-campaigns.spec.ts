import { expect, type APIRequestContext, type Page, type PlaywrightWorkerArgs } from '@playwright/test';
import { ADMIN, ANNOTATOR, apiSignIn, CURATOR, PUBLIC_KB, signIn, waitForHydration, test, expectConsole } from './fixtures';
import { GEAR_ENTITIES, importGearKb, unzip } from './gear-kb';

/**
 * The campaign pages: a curator creates a campaign through the form (and sees a bad seed list refused line by
 * line), an annotator starts from the campaign page, and a curator reviews two annotators' work on one seed side
 * by side, sends one back, adjudicates the answers and approves a query, which the STaRK export then carries
 * with its seed. STaRK ids are integers and the demo catalogue's are not, so the review imports a small
 * knowledge base with integer ids.
 */

const uniqueName = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;

async function signedIn(playwright: PlaywrightWorkerArgs['playwright'], baseURL: string | undefined, email: string): Promise<APIRequestContext> {
  const request = await playwright.request.newContext({ baseURL });
  await apiSignIn(request, email);
  return request;
}

async function openNewCampaignForm(page: Page): Promise<void> {
  await page.goto(`/kb/${PUBLIC_KB.slug}`);
  await page.getByRole('navigation', { name: 'Explorer' }).getByRole('link', { name: 'Campaigns' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Campaigns' })).toBeVisible();
  await page.getByRole('link', { name: 'New campaign' }).click();
  await expect(page).toHaveURL(new RegExp(`/kb/${PUBLIC_KB.slug}/campaigns/new$`));
  await waitForHydration(page.getByRole('button', { name: 'Create campaign' }));
}

test('a curator creates a campaign through the form and lands on its page', async ({ page }) => {
  const name = uniqueName('ui-campaign');
  await signIn(page, CURATOR);
  await openNewCampaignForm(page);

  // The guidelines start as the default procedure, previewed as Markdown.
  await expect(page.getByLabel('Guidelines')).toHaveValue(/^# Writing a query about a seed entity/);
  await expect(page.getByTestId('guidelines-preview').getByRole('heading', { name: 'Writing a query about a seed entity' })).toBeVisible();

  // Nothing ticked, no name: refused before anything is sent.
  await page.getByRole('button', { name: 'Create campaign' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Tick at least one annotator.' })).toBeVisible();

  await page.getByLabel('Name', { exact: true }).fill(name);
  await expect(page.getByLabel('Target query set')).toHaveValue(`${name}-queries`);
  await page.getByLabel('Number of seeds').fill('3');
  await page.getByRole('checkbox', { name: /^product/ }).check();
  await page.getByLabel('Sampling seed').fill('7');
  await page.getByRole('checkbox', { name: /annotator@demo\.local/ }).check();
  await page.getByRole('checkbox', { name: /admin@demo\.local/ }).check();
  await page.getByLabel('Annotators per seed (k)').fill('2');
  await page.getByRole('button', { name: 'Create campaign' }).click();

  await expect(page).toHaveURL(new RegExp(`/kb/${PUBLIC_KB.slug}/campaigns/\\d+$`));
  await expect(page.getByTestId('campaign-name')).toHaveText(name);
  await expect(page.getByTestId('campaign-status')).toHaveText('OPEN');
  await expect(page.getByTestId('campaign-facts')).toContainText('3 seeds');
  await expect(page.getByTestId('campaign-facts')).toContainText('2 annotators per seed');
  await expect(page.getByTestId('review-link')).toHaveText('Review (0 waiting)');
  await expect(page.getByTestId('agreement')).toContainText('Not enough overlapping work yet');

  // Closing and opening again.
  // Closing asks first; keeping it open changes nothing.
  await page.getByRole('button', { name: 'Close campaign', exact: true }).click();
  await page.getByRole('button', { name: 'Keep it open' }).click();
  await expect(page.getByTestId('close-confirm')).toHaveCount(0);
  await expect(page.getByTestId('campaign-status')).toHaveText('OPEN');
  await page.getByRole('button', { name: 'Close campaign', exact: true }).click();
  await page.getByTestId('close-confirm').getByRole('button', { name: 'Close campaign' }).click();
  await expect(page.getByTestId('campaign-status')).toHaveText('CLOSED');
  await page.getByRole('button', { name: 'Open', exact: true }).click();
  await expect(page.getByTestId('campaign-status')).toHaveText('OPEN');

  // The list shows it with its counts and target set.
  await page.getByRole('link', { name: 'Campaigns', exact: true }).first().click();
  const row = page.getByTestId('campaign-list').getByRole('row').filter({ hasText: name });
  await expect(row).toContainText('OPEN');
  await expect(row.getByRole('link', { name: `${name}-queries` })).toHaveAttribute('href', `/kb/${PUBLIC_KB.slug}/queries/${name}-queries`);
});

test('a seed list with an unknown id is refused with the problem and its line, and nothing is created', async ({ page }) => {
  // The browser logs the refused request; the form's message is what the test checks.
  expectConsole(/Failed to load resource: the server responded with a status of 400/);
  const name = uniqueName('ui-list');
  await signIn(page, CURATOR);
  await openNewCampaignForm(page);
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByRole('radio', { name: 'List' }).check();
  await page.getByLabel('Seed list file').setInputFiles({ name: 'seeds.txt', mimeType: 'text/plain', buffer: Buffer.from('B01\n# brands\n\nNOPE-404\n') });
  await expect(page.getByTestId('seed-file')).toContainText('seeds.txt (3 lines)');
  await page.getByRole('checkbox', { name: /annotator@demo\.local/ }).check();
  await page.getByRole('button', { name: 'Create campaign' }).click();

  const problems = page.getByTestId('problem-table');
  await expect(problems).toBeVisible();
  const rows = await problems.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => Array.from(tr.querySelectorAll('td'), (c) => (c.textContent ?? '').trim())));
  expect(rows).toEqual([['seeds.txt', '4', 'no entity with the id "NOPE-404" in this knowledge base']]);
  await expect(page).toHaveURL(/\/campaigns\/new$/);
  const listed = (await (await page.request.get(`/api/kbs/${PUBLIC_KB.slug}/campaigns`)).json()) as { items: { name: string }[] };
  expect(listed.items.some((c) => c.name === name)).toBe(false);
});

test('an annotator cannot create campaigns, starts annotating from the campaign page and is told when no seed is left', async ({ page, playwright, baseURL }) => {
  const curator = await signedIn(playwright, baseURL, CURATOR);
  const name = uniqueName('ui-annotate');
  const created = await curator.post(`/api/kbs/${PUBLIC_KB.slug}/campaigns`, {
    data: { name, annotatorsPerSeed: 1, querySet: `${name}-queries`, annotators: [ANNOTATOR], seeds: { mode: 'list', text: 'P0001' } },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: number };

  await signIn(page, ANNOTATOR);
  await page.goto(`/kb/${PUBLIC_KB.slug}/campaigns`);
  await expect(page.getByTestId('campaign-list')).toContainText(name);
  await expect(page.getByRole('link', { name: 'New campaign' })).toHaveCount(0);
  const forbidden = await page.goto(`/kb/${PUBLIC_KB.slug}/campaigns/new`);
  expect(forbidden?.status()).toBe(403);
  await expect(page.getByRole('heading', { name: '403 · Not allowed' })).toBeVisible();
  expect((await page.goto(`/kb/${PUBLIC_KB.slug}/campaigns/${id}/review`))?.status()).toBe(403);

  // No dashboard for a non-manager; the claim leads to the work page.
  await page.goto(`/kb/${PUBLIC_KB.slug}/campaigns/${id}`);
  const start = page.getByRole('button', { name: 'Start annotating' });
  await waitForHydration(start);
  await expect(page.getByTestId('campaign-dashboard')).toHaveCount(0);
  await start.click();
  await expect(page).toHaveURL(new RegExp(`/kb/${PUBLIC_KB.slug}/campaigns/${id}/work/\\d+$`));
  const assignmentId = Number(new URL(page.url()).pathname.split('/').pop());

  await page.goto(`/kb/${PUBLIC_KB.slug}/campaigns/${id}`);
  await expect(page.getByRole('link', { name: 'Continue' }).first()).toHaveAttribute('href', `/kb/${PUBLIC_KB.slug}/campaigns/${id}/work/${assignmentId}`);
  await expect(page.getByTestId('my-assignments')).toContainText('ACTIVE');

  // Its only seed skipped, nothing is left for them.
  expect((await page.request.post(`/api/assignments/${assignmentId}/skip`, { data: { reason: 'Nothing to ask about it' } })).status()).toBe(200);
  await page.reload();
  await waitForHydration(page.getByRole('button', { name: 'Start annotating' }));
  await page.getByRole('button', { name: 'Start annotating' }).click();
  await expect(page.getByTestId('no-seed-left')).toContainText('No seed is left for you');
  await expect(page.getByTestId('my-assignments')).toContainText('SKIPPED');
  await curator.dispose();
});

/** The entity with this exact name, as the knowledge base's autocomplete reports it. */
async function entity(api: APIRequestContext, slug: string, name: string): Promise<{ id: number; externalId: string }> {
  const res = await api.get(`/api/kbs/${slug}/autocomplete?q=${encodeURIComponent(name)}`);
  expect(res.status()).toBe(200);
  const hit = ((await res.json()) as { items: { id: number; name: string; externalId: string }[] }).items.find((e) => e.name === name);
  expect(hit, `entity "${name}" in ${slug}`).toBeDefined();
  return hit!;
}


interface Work {
  request: APIRequestContext;
  assignmentId: number;
}

test('a curator reviews two works on a seed side by side, sends one back, adjudicates the answers and approves a query', async ({ page, playwright, baseURL }) => {
  test.setTimeout(120_000);
  const curator = await signedIn(playwright, baseURL, CURATOR);
  const slug = uniqueName('tents');
  await importGearKb(curator, slug);
  const [tent, brand, nylon] = [await entity(curator, slug, 'Alpine trail tent'), await entity(curator, slug, 'Northpeak'), await entity(curator, slug, 'Ripstop nylon')];
  const name = uniqueName('review');
  const querySet = `${name}-queries`;
  const created = await curator.post(`/api/kbs/${slug}/campaigns`, {
    data: { name, annotatorsPerSeed: 2, querySet, annotators: [ANNOTATOR, ADMIN], seeds: { mode: 'list', text: tent.externalId } },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id: campaignId } = (await created.json()) as { id: number };

  // Both annotators claim the seed, write a query with the same relational requirement and judge: the
  // annotator takes the brand and the material, the admin the brand only.
  const requirement = { paths: [{ start: { entity: tent.id }, steps: [{ relation: 'has_brand', direction: 'out', targetType: 'brand' }] }] };
  const description = GEAR_ENTITIES[0]!.document.description;
  const works: Work[] = [];
  for (const [email, text, materialLabel] of [
    [ANNOTATOR, 'Which brand makes a two-person tent with a storm-proof fly?', 'relevant'],
    [ADMIN, 'Who makes a storm-proof two-person shelter for alpine camps?', 'not_relevant'],
  ] as const) {
    const request = await signedIn(playwright, baseURL, email);
    const claim = (await (await request.post(`/api/campaigns/${campaignId}/claim`)).json()) as { assignment: { id: number; entityId: number } };
    expect(claim.assignment.entityId).toBe(tent.id);
    const a = claim.assignment.id;
    const span = { field: 'description', start: 2, end: 12, quote: description.slice(2, 12) };
    const draft = await request.put(`/api/assignments/${a}/draft`, { data: { text, requirement, textSpans: [span], version: 0 } });
    expect(draft.status(), await draft.text()).toBe(200);
    const candidates = (await (await request.post(`/api/assignments/${a}/candidates`, { data: { ...requirement, queryText: text, limit: 50, offset: 0 } })).json()) as { items: { id: number }[] };
    expect(candidates.items.map((c) => c.id)).toEqual([brand.id]);
    const evidence = [{ kind: 'edge', source: tent.id, relation: 'has_brand', target: brand.id }];
    for (const judgment of [
      { entityId: brand.id, label: 'relevant', evidence },
      { entityId: nylon.id, label: materialLabel, evidence: [{ kind: 'edge', source: tent.id, relation: 'made_of', target: nylon.id }] },
    ]) {
      const judged = await request.post(`/api/assignments/${a}/judgments`, { data: { ...judgment, version: 0 } });
      expect(judged.status(), await judged.text()).toBe(200);
    }
    const submitted = await request.post(`/api/assignments/${a}/submit`, { data: { draftVersion: 1 } });
    expect(submitted.status(), await submitted.text()).toBe(200);
    works.push({ request, assignmentId: a });
  }
  const [annotatorWork, adminWork] = works as [Work, Work];

  // The curator finds the seed in the review queue.
  await signIn(page, CURATOR);
  await page.goto(`/kb/${slug}/campaigns/${campaignId}`);
  await expect(page.getByTestId('review-link')).toHaveText('Review (1 waiting)');
  await page.getByTestId('review-link').click();
  await expect(page.getByTestId('review-queue')).toContainText('Alpine trail tent');
  await page.getByTestId('review-queue').getByRole('link', { name: 'Alpine trail tent' }).click();
  await expect(page).toHaveURL(new RegExp(`/campaigns/${campaignId}/review/${tent.id}$`));

  // Both works side by side, with the requirement in words, the quote and the union of their answers.
  const annotatorColumn = page.getByTestId(`work-${annotatorWork.assignmentId}`);
  const adminColumn = page.getByTestId(`work-${adminWork.assignmentId}`);
  await expect(annotatorColumn.getByTestId('work-text')).toHaveText('Which brand makes a two-person tent with a storm-proof fly?');
  await expect(adminColumn.getByTestId('work-text')).toHaveText('Who makes a storm-proof two-person shelter for alpine camps?');
  await expect(annotatorColumn).toContainText('From the seed (Alpine trail tent), follow “has_brand” to a brand.');
  await expect(annotatorColumn).toContainText(description.slice(2, 12));
  await expect(annotatorColumn).toContainText('2 answers chosen besides the seed');
  await expect(adminColumn).toContainText('1 answer chosen besides the seed');
  const brandRow = page.getByTestId(`entity-${brand.externalId}`);
  const nylonRow = page.getByTestId(`entity-${nylon.externalId}`);
  await expect(brandRow).toContainText('all');
  await expect(nylonRow).toContainText('some (1 of 2)');
  await expect(brandRow.getByRole('radio', { name: 'Accept' })).toBeChecked();
  await expect(nylonRow).toContainText('undecided');
  await expect(page.getByTestId('approve-blocked')).toContainText('1 is still undecided');
  await expect(page.getByRole('button', { name: `Approve into ${querySet}` })).toBeDisabled();

  // The admin's work goes back with a note; the admin sees it and hands it in again.
  await waitForHydration(adminColumn.getByRole('button', { name: 'Send back' }));
  await adminColumn.getByRole('button', { name: 'Send back' }).click();
  await expect(adminColumn.getByRole('alert')).toContainText('Write a note');
  await adminColumn.getByRole('textbox').fill('Say what makes the shelter storm-proof.');
  await adminColumn.getByRole('button', { name: 'Send back' }).click();
  await expect(adminColumn).toHaveCount(0);
  await expect(nylonRow).toHaveCount(1);
  const returned = (await (await adminWork.request.get(`/api/assignments/${adminWork.assignmentId}`)).json()) as { assignment: { status: string; reviewNote: string; editable: boolean }; draft: { version: number } };
  expect(returned.assignment).toMatchObject({ status: 'RETURNED', reviewNote: 'Say what makes the shelter storm-proof.', editable: true });
  const resubmitted = await adminWork.request.post(`/api/assignments/${adminWork.assignmentId}/submit`, { data: { draftVersion: returned.draft.version } });
  expect(resubmitted.status(), await resubmitted.text()).toBe(200);

  // Back on the page: both works again. The material is rejected with a reason, the brand stays accepted.
  await page.reload();
  await expect(adminColumn).toBeVisible();
  await waitForHydration(nylonRow.getByRole('radio', { name: 'Reject' }));
  await nylonRow.getByRole('radio', { name: 'Reject' }).check();
  await expect(page.getByTestId('approve-blocked')).toContainText('Give a reason for each rejection');
  await nylonRow.getByLabel('Reason for rejecting Ripstop nylon').fill('The query asks for the maker, not the fabric.');
  await expect(page.getByTestId('approve-blocked')).toHaveCount(0);
  await expect(page.getByRole('radio', { name: /Which brand makes/ })).toBeChecked();
  await page.getByRole('button', { name: `Approve into ${querySet}` }).click();
  await expect(page.getByTestId('approved')).toContainText(`Approved as query 0 of ${querySet}, with 2 answers.`);

  await page.getByRole('link', { name: 'Open the query set' }).click();
  await expect(page.getByRole('heading', { level: 1, name: querySet })).toBeVisible();
  await expect(page.getByTestId('query-table')).toContainText('Which brand makes a two-person tent with a storm-proof fly?');

  // The STaRK export carries the seed (answer_ids_source) and the adjudicated answers.
  const exported = await curator.get(`/api/kbs/${slug}/query-sets/${querySet}/export?format=stark`);
  expect(exported.status()).toBe(200);
  const files = unzip(await exported.body());
  const csv = [...files].find(([path]) => path.endsWith('/stark_qa_human_generated_eval.csv'))?.[1];
  expect(csv, `files: ${[...files.keys()].join(', ')}`).toBeDefined();
  expect(csv!.split('\n')).toEqual([
    'id,query,answer_ids,answer_ids_source',
    `0,Which brand makes a two-person tent with a storm-proof fly?,"[${tent.externalId}, ${brand.externalId}]",[${tent.externalId}]`,
    '',
  ]);

  // The dashboard: both works approved together, and how far the annotators agree (Jaccard of {brand, nylon}
  // and {brand}: 1/2).
  await page.goto(`/kb/${slug}/campaigns/${campaignId}`);
  await expect(page.getByTestId('review-link')).toHaveText('Review (0 waiting)');
  await expect(page.getByTestId('total-assigned')).toHaveText('2');
  await expect(page.getByTestId('total-submitted')).toHaveText('2');
  await expect(page.getByTestId('total-approved')).toHaveText('2');
  await expect(page.getByTestId('total-returned')).toHaveText('0');
  await expect(page.getByTestId('agreement-jaccard')).toHaveText('0.500');
  await expect(page.getByTestId('agreement')).toContainText('1 seed compared, 1 pair of answer sets, 2 entities judged by two or more');
  await expect(page.getByTestId('annotator-stats').getByRole('row')).toHaveCount(3);
  await expect(page.getByRole('img', { name: 'Assignments per annotator by state' }).locator('.recharts-bar-rectangle').first()).toBeVisible();
  for (const r of [curator, ...works.map((w) => w.request)]) await r.dispose();
});
