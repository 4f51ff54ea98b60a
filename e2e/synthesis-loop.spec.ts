import { expect, type APIRequestContext, type PlaywrightWorkerArgs } from '@playwright/test';
import { buildDemoCatalogue } from '../lib/demo/catalogue';
import { ANNOTATOR, apiSignIn, CURATOR, PUBLIC_KB, signIn, test, waitForHydration } from './fixtures';

/**
 * Closing the loop from a synthesized set: the curator opens a rating study on a sample of it and sends it to
 * answer validation; the annotator finds the query in their editor and the synthesis's answers marked as
 * suggestions, accepts one, and it is their judgment.
 */

const catalogue = buildDemoCatalogue();
const byName = (name: string) => catalogue.entities.find((e) => e.name === name)!;
const productsOf = (brand: string) => catalogue.edges.filter((e) => e.relation === 'has_brand' && e.target === byName(brand).externalId).map((e) => e.source);
const nameOf = (externalId: string) => catalogue.entities.find((e) => e.externalId === externalId)!.name;

async function signedIn(playwright: PlaywrightWorkerArgs['playwright'], baseURL: string | undefined, email: string): Promise<APIRequestContext> {
  const request = await playwright.request.newContext({ baseURL });
  await apiSignIn(request, email);
  return request;
}

/** A synthesized query as the synthesis job writes it: kept answers, removed candidates and the provenance. */
function synthesized(id: string, position: number, brand: string, text: string, kept: string[], removed: { id: string; reason: string }[]) {
  const seed = byName(brand);
  return {
    id, query: text, answer_ids: kept, answer_ids_source: [seed.externalId],
    metadata: {
      origin: 'synthesized',
      synthesis: {
        jobId: 1, position, template: { key: 'brand -[has_brand]<- product', words: 'a product from the brand <brand>' },
        seeds: [{ id: seed.externalId, name: seed.name }], propertySource: null, properties: [],
        relationalAnswers: productsOf(brand), kept, removed, votes: [], llmCallIds: [],
        methods: { properties: 'extractor', compose: 'realiser', filter: ['term-evidence'] }, prompts: [],
      },
    },
  };
}

test('a curator rates a sample and sends a synthesized set to validation; the annotator accepts a suggestion as their judgment', async ({ page, browser, playwright, baseURL }) => {
  test.setTimeout(120_000);
  const curator = await signedIn(playwright, baseURL, CURATOR);
  const lumenhaus = productsOf('Lumenhaus');
  const [kept1, kept2, dropped] = lumenhaus;
  const other = productsOf('Trailmark');
  const text = 'Which lamp from this Danish maker has replaceable parts?';
  const rows = [
    synthesized('syn-1-0', 0, 'Lumenhaus', text, [kept1!, kept2!], [{ id: dropped!, reason: 'no replaceable parts in its document' }]),
    synthesized('syn-1-1', 1, 'Lumenhaus', 'A second query on the same brand', [kept1!], []),
    synthesized('syn-1-2', 2, 'Trailmark', 'Which product of this brand is for camping?', [other[0]!], []),
  ].map((r) => JSON.stringify(r)).join('\n');
  const upload = await curator.put('/api/uploads?name=synthesized.jsonl', { data: rows, headers: { 'content-type': 'application/octet-stream' } });
  expect(upload.status(), await upload.text()).toBe(201);
  const set = `synth-loop-${Date.now().toString(36)}`;
  const imported = await curator.post(`/api/kbs/${PUBLIC_KB.slug}/query-sets`, {
    data: { name: set, origin: 'synthesized', format: 'jsonl', files: [{ uploadId: ((await upload.json()) as { uploadId: string }).uploadId, kind: 'queries' }] },
  });
  expect(imported.status(), await imported.text()).toBe(201);

  // The curator: a rating study on a sample lands on the new-study form with the set and a sample size.
  await signIn(page, CURATOR);
  const setPage = `/kb/${PUBLIC_KB.slug}/queries/${set}`;
  await page.goto(setPage);
  await page.getByRole('link', { name: 'Open a rating study on a sample' }).click();
  await expect(page).toHaveURL(new RegExp(`/studies/new\\?querySet=${set}&sample=3$`));
  await expect(page.getByRole('heading', { name: 'New study' })).toBeVisible();
  await expect(page.getByLabel('Query set', { exact: true })).toHaveValue(set);
  await expect(page.getByLabel('Sample size')).toHaveValue('3');

  // … and sends the set to answer validation.
  await page.goto(setPage);
  const send = page.getByRole('button', { name: 'Send to answer validation' });
  await waitForHydration(send);
  await send.click();
  const form = page.getByRole('form', { name: 'Send to answer validation' });
  const campaign = `${set}-check`;
  await form.getByLabel('Campaign name').fill(campaign);
  await form.getByLabel('Target query set').fill(`${set}-validated`);
  await form.getByTestId('annotator-picker').getByRole('checkbox', { name: new RegExp(ANNOTATOR) }).check();
  await form.getByRole('button', { name: 'Create the validation campaign' }).click();
  const created = page.getByTestId('validation-created');
  await expect(created).toContainText('Campaign created with 2 queries to validate');
  await created.getByText('1 query left out').click();
  await expect(created).toContainText('syn-1-1: its seed');
  await created.getByRole('link', { name: 'Open the campaign' }).click();
  await expect(page.getByRole('heading', { name: campaign })).toBeVisible();
  await expect(page.getByTestId('campaign-validates')).toHaveText(`validates the queries of ${set}`);

  // The annotator opens the assignment: the query is in the editor, the synthesis's answers are suggestions.
  const annotatorContext = await browser.newContext({ baseURL });
  const annotatorPage = await annotatorContext.newPage();
  await signIn(annotatorPage, ANNOTATOR);
  await annotatorPage.goto(page.url());
  const start = annotatorPage.getByRole('button', { name: 'Start annotating' });
  await waitForHydration(start);
  await start.click();
  await expect(annotatorPage).toHaveURL(/\/work\/\d+$/);
  await expect(annotatorPage.getByLabel('Query', { exact: true })).toHaveValue(text);
  await expect(annotatorPage.getByTestId('pattern-words')).toContainText('product');
  const suggestions = annotatorPage.getByTestId('suggestions');
  await expect(suggestions.locator('li')).toHaveCount(3);
  const first = annotatorPage.getByTestId(`suggestion-${kept1}`);
  await expect(first).toContainText('Suggestion');
  await expect(first).toContainText('relevant — suggested by the synthesis filter');
  await expect(annotatorPage.getByTestId(`suggestion-${dropped}`)).toContainText('not relevant — suggested: no replaceable parts in its document');
  await expect(annotatorPage.getByRole('button', { name: 'Accept all (3)' })).toBeVisible();

  // Nothing is judged until a suggestion is accepted; then it is the annotator's own judgment.
  const assignmentId = Number(/\/work\/(\d+)$/.exec(annotatorPage.url())![1]);
  const annotatorApi = await signedIn(playwright, baseURL, ANNOTATOR);
  const judged = async () => ((await (await annotatorApi.get(`/api/assignments/${assignmentId}`)).json()) as { judgments: { name: string; label: string }[] }).judgments;
  expect(await judged()).toEqual([]);
  await first.getByRole('button', { name: `Accept the suggestion for ${nameOf(kept1!)}` }).click();
  await expect(first.getByTestId('suggestion-judged')).toHaveText('Your judgment: Relevant');
  await expect(first).toContainText('Suggestion');
  await expect.poll(async () => (await judged()).map((j) => [j.name, j.label])).toEqual([[nameOf(kept1!), 'relevant']]);
  await expect(annotatorPage.getByRole('group', { name: `Judge ${nameOf(kept1!)}` }).first().getByRole('button', { name: 'Relevant', exact: true })).toHaveAttribute('aria-pressed', 'true');
  await expect(annotatorPage.getByRole('button', { name: 'Accept all (2)' })).toBeVisible();

  // At phone width the suggestions stay readable and within the screen.
  await annotatorPage.setViewportSize({ width: 390, height: 844 });
  await suggestions.scrollIntoViewIfNeeded();
  await expect(annotatorPage.getByTestId(`suggestion-${kept2}`).getByRole('button', { name: /^Accept the suggestion/ })).toBeVisible();
  // (The page header's account controls are wider than a phone of their own; the workspace's panels are not.)
  const panel = await suggestions.boundingBox();
  expect(panel!.x + panel!.width).toBeLessThanOrEqual(390);
  expect(await suggestions.evaluate((list) => [...list.querySelectorAll('*')].filter((el) => el.getBoundingClientRect().right > 390).length)).toBe(0);
  await annotatorPage.screenshot({ path: test.info().outputPath('workspace-suggestions-390.png') });
  await annotatorContext.close();
});
