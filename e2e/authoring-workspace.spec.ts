import { expect, type APIRequestContext, type Page, type PlaywrightWorkerArgs } from '@playwright/test';
import { buildDemoCatalogue } from '../lib/demo/catalogue';
import { ANNOTATOR, apiSignIn, CURATOR, PUBLIC_KB, signIn, waitForHydration, test, expectConsole } from './fixtures';

/**
 * The annotator's workspace in the browser, on the demo catalogue: the leak warning as the query is typed,
 * autosave through a reload and a lost connection, a conflict with a draft saved elsewhere, the textual and
 * relational requirements, keyboard judging with evidence, submit and skip. What the server stored is read
 * back through the API.
 */

const catalogue = buildDemoCatalogue();
const byName = (name: string) => catalogue.entities.find((e) => e.name === name)!;

interface WorkspaceBody {
  assignment: { status: string };
  draft: { text: string; requirement: { paths: unknown[] } | null; textSpans: { field: string; start: number; end: number; quote: string }[]; version: number };
  judgments: { entityId: number; name: string; label: string; evidence: Record<string, unknown>[] }[];
}

async function signedIn(playwright: PlaywrightWorkerArgs['playwright'], baseURL: string | undefined, email: string): Promise<APIRequestContext> {
  const request = await playwright.request.newContext({ baseURL });
  await apiSignIn(request, email);
  return request;
}

/** A campaign on one brand of the catalogue, for the demo annotator, and the annotator's claim of it. */
async function claimedSeed(curator: APIRequestContext, annotator: APIRequestContext, brand: string, leakPolicy: 'warn' | 'block') {
  const name = `workspace-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
  const created = await curator.post(`/api/kbs/${PUBLIC_KB.slug}/campaigns`, {
    data: { name, annotatorsPerSeed: 1, leakPolicy, querySet: `${name}-queries`, annotators: [ANNOTATOR], seeds: { mode: 'list', text: byName(brand).externalId } },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id: campaignId } = (await created.json()) as { id: number };
  const claim = await annotator.post(`/api/campaigns/${campaignId}/claim`);
  const { assignment } = (await claim.json()) as { assignment: { id: number; entityId: number } };
  return { campaignId, assignmentId: assignment.id, seedId: assignment.entityId, workPage: `/kb/${PUBLIC_KB.slug}/campaigns/${campaignId}/work/${assignment.id}` };
}

async function stored(annotator: APIRequestContext, assignmentId: number): Promise<WorkspaceBody> {
  const res = await annotator.get(`/api/assignments/${assignmentId}`);
  expect(res.status()).toBe(200);
  return (await res.json()) as WorkspaceBody;
}

/** Selects characters [start, end) of a document field's text, as a drag with the mouse would. */
async function selectInField(page: Page, documentTestId: string, field: string, start: number, end: number): Promise<void> {
  await page.getByTestId(documentTestId).locator(`[data-field="${field}"]`).evaluate((el, [from, to]) => {
    const text = el.firstElementChild!.firstChild!;
    const range = document.createRange();
    range.setStart(text, from!);
    range.setEnd(text, to!);
    window.getSelection()!.removeAllRanges();
    window.getSelection()!.addRange(range);
  }, [start, end]);
}

test('an annotator writes a query without the seed’s name, builds its requirements, judges the candidates and submits', async ({ page, context, playwright, baseURL }) => {
  // The test takes the device offline: the browser logs the save that could not be sent.
  expectConsole(/Failed to load resource: net::ERR_INTERNET_DISCONNECTED/);
  const brand = byName('Lumenhaus');
  const products = catalogue.edges.filter((e) => e.relation === 'has_brand' && e.target === brand.externalId).map((e) => e.source);
  expect(products.length).toBeGreaterThan(3);
  const curator = await signedIn(playwright, baseURL, CURATOR);
  const annotator = await signedIn(playwright, baseURL, ANNOTATOR);
  const { assignmentId, seedId, workPage } = await claimedSeed(curator, annotator, brand.name, 'block');

  await signIn(page, ANNOTATOR);
  await page.goto(workPage);
  await expect(page.getByTestId('seed-name')).toHaveText(brand.name);
  const query = page.getByRole('textbox', { name: 'Query', exact: true });
  await waitForHydration(query);
  const status = page.getByTestId('save-status');

  // The leak check runs as the author types, and blocks submitting in this campaign.
  await query.pressSequentially(`Which lamps does ${brand.name} make?`);
  await expect(page.getByRole('alert').filter({ hasText: 'The query names the seed' })).toContainText(`“${brand.name}”`);
  await expect(page.getByRole('button', { name: 'Submit for review' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Submit for review' })).toHaveAccessibleDescription(/Submitting is blocked: the query names the seed/);
  const fixed = 'Which lamps come from a Danish maker of quiet, minimalist lighting?';
  await query.fill(fixed);
  await expect(page.getByRole('alert').filter({ hasText: 'The query names the seed' })).toHaveCount(0);
  await expect(status).toHaveText('Saved');
  await expect(page.getByTestId('saved-leak-check')).toHaveText('Checked when saved: the query does not name the seed.');
  await page.reload();
  await expect(query).toHaveValue(fixed);

  // Typed and reloaded before autosave ran: the copy kept on this device is restored and saved.
  await waitForHydration(query);
  await query.press('Control+End');
  await query.pressSequentially(' With replaceable parts');
  await page.reload();
  await expect(query).toHaveValue(`${fixed} With replaceable parts`);
  await expect.poll(async () => (await stored(annotator, assignmentId)).draft.text).toBe(`${fixed} With replaceable parts`);
  await expect(status).toHaveText('Saved');

  // A lost connection: kept on this device, retried, saved once back online.
  await context.setOffline(true);
  await query.press('Control+End');
  await query.pressSequentially(' and long-life LEDs');
  await expect(status).toHaveText('Offline — kept on this device, retrying');
  await context.setOffline(false);
  await expect(status).toHaveText('Saved', { timeout: 20_000 });
  const text = `${fixed} With replaceable parts and long-life LEDs`;
  await page.reload();
  await expect(query).toHaveValue(text);

  // A textual requirement: a passage of the seed's description.
  const description = String(brand.document.description);
  const words = description.split(' ').slice(0, 3).join(' ');
  await selectInField(page, 'seed-document', 'description', 0, words.length);
  await page.getByRole('button', { name: 'Mark as textual requirement' }).click();
  await expect(page.getByTestId('text-spans')).toContainText(`“${words}”`);

  // The relational requirement: the seed's products, one step back along has_brand.
  await page.getByRole('combobox', { name: 'Path from the seed: add a step' }).selectOption('in~has_brand~product');
  await expect(page.getByTestId('pattern-words')).toContainText('brand (the seed) ← has_brand ← product');
  const progress = page.getByTestId('judged-progress');
  await expect(progress).toContainText(`Judged 0 of ${products.length} candidates`);
  const candidates = page.getByTestId('candidate');
  await expect(candidates).toHaveCount(products.length);
  const names = await candidates.getByRole('link').allTextContents();
  for (const n of names) expect(products).toContain(byName(n).externalId);

  // Keyboard judging: each key judges the focused candidate and moves on.
  await page.getByTestId('candidate-list').focus();
  await page.keyboard.press('1');
  await expect(progress).toContainText(`Judged 1 of ${products.length}`);
  await page.keyboard.press('n');
  await expect(progress).toContainText(`Judged 2 of ${products.length}`);
  await page.keyboard.press('j');
  await page.keyboard.press('k');
  await page.keyboard.press('u');
  await expect(progress).toContainText(`Judged 3 of ${products.length}`);
  await expect(candidates.nth(0).getByRole('button', { name: 'Relevant', exact: true })).toHaveAttribute('aria-pressed', 'true');
  await expect(candidates.nth(1).getByRole('button', { name: 'Not relevant' })).toHaveAttribute('aria-pressed', 'true');
  await expect(candidates.nth(2).getByRole('button', { name: 'Unsure' })).toHaveAttribute('aria-pressed', 'true');

  // Evidence for the relevant one: its edge to the seed and a passage of its own document.
  const relevant = byName(names[0]!);
  await candidates.nth(0).getByRole('button', { name: 'Cite evidence' }).click();
  const picker = page.getByTestId('evidence-picker');
  await picker.getByRole('button', { name: `Cite ${relevant.name} has_brand ${brand.name}` }).click();
  await expect(picker.getByTestId('cited-evidence').getByRole('listitem')).toHaveCount(1);
  // Selected with the mouse this time: a triple click takes the whole title.
  await picker.getByTestId('evidence-document').locator('[data-field="title"]').click({ clickCount: 3 });
  await picker.getByRole('button', { name: 'Cite this passage' }).click();
  await expect(picker.getByTestId('cited-evidence').getByRole('listitem')).toHaveCount(2);
  await expect(candidates.nth(0).getByRole('button', { name: 'Cite evidence (2)' })).toBeVisible();

  // An answer the requirement misses, added by hand: judged like a candidate, not counted among them.
  const other = catalogue.entities.find((e) => e.type === 'product' && e.document.brand === 'Coppervale')!;
  const box = page.getByTestId('hand-picker').getByRole('combobox');
  await box.fill(other.name);
  await page.getByRole('option').filter({ hasText: `${other.name} product ·` }).click();
  const hand = page.getByTestId('hand-added');
  await expect(hand).toContainText(other.name);
  await hand.getByRole('button', { name: 'Relevant', exact: true }).click();
  await expect(hand.getByRole('button', { name: 'Relevant', exact: true })).toHaveAttribute('aria-pressed', 'true');
  await expect.poll(async () => (await stored(annotator, assignmentId)).judgments.length).toBe(4);
  await expect(progress).toContainText(`Judged 3 of ${products.length}`);

  await expect(status).toHaveText('Saved');
  await page.getByRole('button', { name: 'Submit for review' }).click();
  // Candidates are left unjudged: the count first, then the second click submits.
  await expect(page.getByTestId('submit-confirm')).toContainText(`3 of ${products.length} candidates judged; ${products.length - 3} not judged — submit anyway?`);
  await page.getByRole('button', { name: 'Submit anyway' }).click();
  await expect(page.getByTestId('submitted')).toContainText('Submitted for review: 3 answers (the seed and 2 judged relevant), 1 still unsure.');
  await expect(page.getByRole('button', { name: 'Next seed' })).toBeVisible();

  const ws = await stored(annotator, assignmentId);
  expect(ws.assignment.status).toBe('SUBMITTED');
  expect(ws.draft.text).toBe(text);
  expect(ws.draft.requirement).toEqual({ paths: [{ start: { entity: seedId }, steps: [{ relation: 'has_brand', direction: 'in', targetType: 'product' }] }] });
  expect(ws.draft.textSpans).toEqual([{ field: 'description', start: 0, end: words.length, quote: words }]);
  const cited = ws.judgments.find((j) => j.name === relevant.name)!;
  expect(cited.label).toBe('relevant');
  expect(cited.evidence).toEqual(expect.arrayContaining([
    { kind: 'edge', source: cited.entityId, relation: 'has_brand', target: seedId },
    { kind: 'span', entity: cited.entityId, field: 'title', start: 0, end: relevant.name.length, quote: relevant.name },
  ]));
  expect(cited.evidence).toHaveLength(2);
  expect(ws.judgments.map((j) => [j.name, j.label]).sort()).toEqual([
    [names[0], 'relevant'], [names[1], 'not_relevant'], [names[2], 'unsure'], [other.name, 'relevant'],
  ].sort());

  // Nothing is left in this one-seed campaign.
  await page.getByRole('button', { name: 'Next seed' }).click();
  await expect(page.getByText('No seed is left for you in this campaign.')).toBeVisible();

  // Sent back by a reviewer: the note on top, the draft editable again, and submitted once more.
  const returned = await curator.post(`/api/assignments/${assignmentId}/return`, { data: { note: 'Say which room the lamps are for.' } });
  expect(returned.status(), await returned.text()).toBe(200);
  await page.reload();
  await expect(page.getByTestId('review-note')).toContainText('Say which room the lamps are for.');
  await expect(page.getByTestId('hand-added')).toContainText(other.name);
  await waitForHydration(query);
  await query.press('Control+End');
  await query.pressSequentially(' for a desk');
  await expect.poll(async () => (await stored(annotator, assignmentId)).draft.text).toBe(`${text} for a desk`);
  await page.getByRole('button', { name: 'Submit for review' }).click();
  await page.getByRole('button', { name: 'Submit anyway' }).click();
  await expect(page.getByTestId('submitted')).toContainText('Submitted for review: 3 answers');
  expect((await stored(annotator, assignmentId)).assignment.status).toBe('SUBMITTED');
  await curator.dispose();
  await annotator.dispose();
});

test('a draft saved elsewhere while this device was offline is offered against the local text', async ({ page, context, playwright, baseURL }) => {
  // Offline, then a save that meets a newer draft: the browser logs both; the offer is what the test checks.
  expectConsole(/Failed to load resource: net::ERR_INTERNET_DISCONNECTED/);
  expectConsole(/Failed to load resource: the server responded with a status of 409/);
  const curator = await signedIn(playwright, baseURL, CURATOR);
  const annotator = await signedIn(playwright, baseURL, ANNOTATOR);
  const { assignmentId, workPage } = await claimedSeed(curator, annotator, 'Coppervale', 'warn');

  await signIn(page, ANNOTATOR);
  await page.goto(workPage);
  const query = page.getByRole('textbox', { name: 'Query', exact: true });
  await waitForHydration(query);
  await query.fill('Which pans can be re-seasoned for life?');
  await expect(page.getByTestId('save-status')).toHaveText('Saved');
  const { version } = (await stored(annotator, assignmentId)).draft;

  await context.setOffline(true);
  await query.fill('Which heavy pans can be re-seasoned for life?');
  await expect(page.getByTestId('save-status')).toHaveText('Offline — kept on this device, retrying');
  const elsewhere = await annotator.put(`/api/assignments/${assignmentId}/draft`, { data: { text: 'Saved from another tab', version } });
  expect(elsewhere.status()).toBe(200);
  await context.setOffline(false);

  const conflict = page.getByTestId('save-status');
  await expect(conflict).toContainText('This draft was saved elsewhere', { timeout: 20_000 });
  await expect(page.getByTestId('conflict-server')).toHaveText('Saved from another tab');
  await expect(page.getByTestId('conflict-local')).toHaveText('Which heavy pans can be re-seasoned for life?');
  await page.getByRole('button', { name: 'Overwrite it with this device’s text' }).click();
  await expect(page.getByTestId('save-status')).toHaveText('Saved');
  expect((await stored(annotator, assignmentId)).draft).toMatchObject({ text: 'Which heavy pans can be re-seasoned for life?', version: version + 2 });
  await curator.dispose();
  await annotator.dispose();
});

test('an annotator skips a seed with a reason and returns to the campaign', async ({ page, playwright, baseURL }) => {
  const curator = await signedIn(playwright, baseURL, CURATOR);
  const annotator = await signedIn(playwright, baseURL, ANNOTATOR);
  const { campaignId, assignmentId, workPage } = await claimedSeed(curator, annotator, 'Woolcombe', 'warn');

  // Someone else's assignment, or one under another campaign's address, is not found.
  expect((await curator.get(workPage)).status()).toBe(404);
  expect((await annotator.get(workPage.replace(`/campaigns/${campaignId}/`, `/campaigns/${campaignId + 1000}/`))).status()).toBe(404);

  await signIn(page, ANNOTATOR);
  // The page renews the lease as it opens. A renewal that reaches the server after the skip is refused (409):
  // the page ignores that, but the browser logs the failed request, so the skip waits for the renewal, as a
  // person reading the seed first does.
  const renewed = page.waitForResponse((r) => r.url().endsWith(`/api/assignments/${assignmentId}/lease`));
  await page.goto(workPage);
  const open = page.getByRole('button', { name: 'Skip this seed…' });
  await waitForHydration(open);
  expect((await renewed).status()).toBe(200);
  await open.click();
  const dialog = page.getByRole('dialog', { name: 'Skip this seed' });
  await expect(dialog.getByRole('button', { name: 'Skip the seed' })).toBeDisabled();
  await dialog.getByLabel('Why skip it?').fill('Its document says too little to ask about.');
  await dialog.getByRole('button', { name: 'Skip the seed' }).click();
  await expect(page).toHaveURL(new RegExp(`/kb/${PUBLIC_KB.slug}/campaigns/${campaignId}$`));
  expect((await stored(annotator, assignmentId)).assignment.status).toBe('SKIPPED');

  // The skipped assignment is shown read-only from now on.
  await page.goto(workPage);
  await expect(page.getByTestId('read-only')).toContainText('This assignment is skipped; it is shown read-only.');
  await expect(page.getByRole('textbox', { name: 'Query', exact: true })).toHaveAttribute('readonly', '');
  await curator.dispose();
  await annotator.dispose();
});
