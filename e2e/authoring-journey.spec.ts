import { readFileSync } from 'node:fs';
import { expect } from '@playwright/test';
import { ANNOTATOR, apiSignIn, CURATOR, signIn, waitForHydration, test } from './fixtures';
import { GEAR_ENTITIES, importGearKb, unzip } from './gear-kb';

/**
 * The whole authoring journey in the browser: a curator creates a campaign through the form, the annotator
 * writes a query about the seed (warned while it names the seed), builds its pattern, judges the candidates
 * with the keyboard and submits; the curator adjudicates and approves; the query is in the query set and in
 * its STaRK export with the seed as `answer_ids_source`. STaRK ids are integers and the demo catalogue's are
 * not, so the journey runs on a small knowledge base with integer ids, imported through the API (the only
 * step without a page of its own here).
 */

const uniqueName = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;

const SEED = GEAR_ENTITIES[1]!;

test('a query goes from a new campaign through annotation and review into the query set and its STaRK export', async ({ page, browser, playwright, baseURL }) => {
  test.setTimeout(180_000);
  const slug = uniqueName('journey');
  const setup = await playwright.request.newContext({ baseURL });
  await apiSignIn(setup, CURATOR);
  await importGearKb(setup, slug);
  await setup.dispose();

  // The curator creates the campaign through the form: one pasted seed, the demo annotator, k = 1, open now.
  const name = uniqueName('journey');
  const querySet = `${name}-queries`;
  await signIn(page, CURATOR);
  await page.goto(`/kb/${slug}`);
  await page.getByRole('navigation', { name: 'Explorer' }).getByRole('link', { name: 'Campaigns' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Campaigns' })).toBeVisible();
  await page.getByRole('link', { name: 'New campaign' }).click();
  await expect(page).toHaveURL(new RegExp(`/kb/${slug}/campaigns/new$`));
  await waitForHydration(page.getByRole('button', { name: 'Create campaign' }));
  await page.getByLabel('Name', { exact: true }).fill(name);
  await expect(page.getByLabel('Target query set')).toHaveValue(querySet);
  await page.getByRole('radio', { name: 'List' }).check();
  await page.getByLabel('… or paste external ids').fill(`${SEED.id}\n`);
  await page.getByRole('checkbox', { name: /annotator@demo\.local/ }).check();
  await page.getByLabel('Annotators per seed (k)').fill('1');
  await expect(page.getByRole('checkbox', { name: 'Open now: annotators can start at once' })).toBeChecked();
  await page.getByRole('button', { name: 'Create campaign' }).click();
  await expect(page).toHaveURL(new RegExp(`/kb/${slug}/campaigns/\\d+$`));
  const campaignPath = new URL(page.url()).pathname;
  await expect(page.getByTestId('campaign-name')).toHaveText(name);
  await expect(page.getByTestId('campaign-status')).toHaveText('OPEN');
  await expect(page.getByTestId('campaign-facts')).toContainText(/(?<!\d)1 seed·/);
  await expect(page.getByTestId('campaign-facts')).toContainText('1 annotator per seed');
  await expect(page.getByTestId('campaign-facts').getByRole('link', { name: querySet })).toBeVisible();
  await expect(page.getByTestId('review-link')).toHaveText('Review (0 waiting)');

  // The annotator, in a browser of their own, finds the campaign and starts on its seed.
  const annotatorContext = await browser.newContext({ baseURL });
  const work = await annotatorContext.newPage();
  await signIn(work, ANNOTATOR);
  await work.goto(`/kb/${slug}/campaigns`);
  await work.getByTestId('campaign-list').getByRole('link', { name, exact: true }).click();
  await expect(work).toHaveURL(new RegExp(`${campaignPath}$`));
  const start = work.getByRole('button', { name: 'Start annotating' });
  await waitForHydration(start);
  await start.click();
  await expect(work).toHaveURL(new RegExp(`${campaignPath}/work/\\d+$`));
  const assignmentId = Number(new URL(work.url()).pathname.split('/').pop());
  await expect(work.getByTestId('seed-name')).toHaveText(SEED.name);

  // Naming the seed is flagged as it is typed; the rewritten query is clear of it.
  const query = work.getByRole('textbox', { name: 'Query', exact: true });
  await waitForHydration(query);
  const leak = work.getByRole('alert').filter({ hasText: 'The query names the seed' });
  await query.pressSequentially(`Which tents does ${SEED.name} make?`);
  await expect(leak).toContainText(`“${SEED.name}”`);
  const text = 'Which shelters come from the outdoor brand that makes gear for high mountains?';
  await query.fill(text);
  await expect(leak).toHaveCount(0);
  await expect(work.getByTestId('save-status')).toHaveText('Saved');
  await expect(work.getByTestId('saved-leak-check')).toHaveText('Checked when saved: the query does not name the seed.');

  // A one-step pattern: the seed's products, back along has_brand.
  await work.getByRole('combobox', { name: 'Path from the seed: add a step' }).selectOption('in~has_brand~product');
  await expect(work.getByTestId('pattern-words')).toContainText('brand (the seed) ← has_brand ← product');
  const progress = work.getByTestId('judged-progress');
  await expect(progress).toContainText('Judged 0 of 2 candidates');
  const candidates = work.getByTestId('candidate');
  await expect(candidates).toHaveCount(2);
  const listed = await candidates.getByRole('link').allTextContents();
  expect([...listed].sort()).toEqual(['Alpine trail tent', 'Summit bivy']);

  // Judged with the keyboard only: move down and back up, then the first relevant and the second not.
  await work.getByTestId('candidate-list').focus();
  await work.keyboard.press('ArrowDown');
  await expect(candidates.nth(1)).toHaveAttribute('aria-current', 'true');
  await work.keyboard.press('k');
  await expect(candidates.nth(0)).toHaveAttribute('aria-current', 'true');
  await work.keyboard.press('1');
  await expect(progress).toContainText('Judged 1 of 2 candidates');
  await expect(candidates.nth(1)).toHaveAttribute('aria-current', 'true');
  await work.keyboard.press('2');
  await expect(progress).toContainText('Judged 2 of 2 candidates');
  await expect(candidates.nth(0).getByRole('button', { name: 'Relevant', exact: true })).toHaveAttribute('aria-pressed', 'true');
  await expect(candidates.nth(1).getByRole('button', { name: 'Not relevant' })).toHaveAttribute('aria-pressed', 'true');
  const relevant = GEAR_ENTITIES.find((e) => e.name === listed[0])!;
  const notRelevant = GEAR_ENTITIES.find((e) => e.name === listed[1])!;

  await expect(work.getByTestId('save-status')).toHaveText('Saved');
  await work.getByRole('button', { name: 'Submit for review' }).click();
  await expect(work.getByTestId('submitted')).toContainText('Submitted for review: 2 answers (the seed and 1 judged relevant).');
  await annotatorContext.close();

  // The curator reviews the seed: the annotator's work and the union of the answers (the relevant one only).
  await page.reload();
  await expect(page.getByTestId('review-link')).toHaveText('Review (1 waiting)');
  await page.getByTestId('review-link').click();
  await page.getByTestId('review-queue').getByRole('link', { name: SEED.name }).click();
  await expect(page).toHaveURL(new RegExp(`${campaignPath}/review/\\d+$`));
  await expect(page.getByTestId('review-seed')).toContainText(`(brand · ${SEED.id})`);
  const column = page.getByTestId(`work-${assignmentId}`);
  // The demo annotator's work, under their display name.
  await expect(column).toHaveAccessibleName('Work of Demo Annotator');
  await expect(column.getByTestId('work-text')).toHaveText(text);
  await expect(column).toContainText(`From the seed (${SEED.name}), go back along “has_brand” to a product.`);
  await expect(column).toContainText('1 answer chosen besides the seed, none left unsure.');
  const accepted = page.getByTestId(`entity-${relevant.id}`);
  await expect(accepted).toContainText(relevant.name);
  await expect(accepted).toContainText('all');
  await expect(page.getByTestId(`entity-${notRelevant.id}`)).toHaveCount(0);
  const accept = accepted.getByRole('radio', { name: 'Accept' });
  await waitForHydration(accept);
  await accept.check();
  await expect(accept).toBeChecked();
  await expect(page.getByTestId('approve-blocked')).toHaveCount(0);
  await expect(page.getByRole('radio', { name: `Demo Annotator: ${text}` })).toBeChecked();
  await page.getByRole('button', { name: `Approve into ${querySet}` }).click();
  await expect(page.getByTestId('approved')).toContainText(`Approved as query 0 of ${querySet}, with 2 answers.`);

  // The query set shows the query, and its STaRK export (the page's own download) carries it with its seed.
  await page.getByRole('link', { name: 'Open the query set' }).click();
  await expect(page.getByRole('heading', { level: 1, name: querySet })).toBeVisible();
  await expect(page.getByTestId('set-summary')).toContainText('1 query');
  await expect(page.getByTestId('query-table')).toContainText(text);
  const download = page.waitForEvent('download');
  await page.getByRole('navigation', { name: 'Export' }).getByRole('link', { name: 'STaRK', exact: true }).click();
  const zip = readFileSync((await (await download).path())!);
  const files = unzip(zip);
  const csv = [...files].find(([path]) => path.endsWith('/stark_qa_human_generated_eval.csv'))?.[1];
  expect(csv, `files: ${[...files.keys()].join(', ')}`).toBeDefined();
  expect(csv!.split('\n')).toEqual([
    'id,query,answer_ids,answer_ids_source',
    `0,${text},"[${SEED.id}, ${relevant.id}]",[${SEED.id}]`,
    '',
  ]);
});
