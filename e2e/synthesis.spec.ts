import { expect, type Page } from '@playwright/test';
import { ANNOTATOR, CURATOR, PUBLIC_KB, signIn, waitForHydration, test } from './fixtures';

/**
 * Query synthesis in the browser: a curator opens Synthesize from the explorer's navigation, picks templates,
 * previews five attempts with the (fake) LLM the e2e server is configured with, synthesizes 20 queries into a
 * new set, opens one query's provenance and one LLM call, opens a rating study on the set, and a participant
 * rates one query. The deterministic path, the phone width and the refusal of an annotator are checked apart.
 */

const kbPath = `/kb/${PUBLIC_KB.slug}`;
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;

/** Opens the synthesis page through the navigation, ready for clicks. */
async function openSynthesize(page: Page): Promise<void> {
  await page.goto(kbPath);
  await page.getByRole('navigation', { name: 'Explorer' }).getByRole('link', { name: 'Synthesize' }).click();
  await expect(page).toHaveURL(`${kbPath}/synthesize`);
  await waitForHydration(page.getByRole('button', { name: 'Preview five' }));
  await expect(page.getByTestId('template-list').getByRole('checkbox').first()).toBeVisible();
}

/** Two one-step templates from a product, found through the filters, chosen by ticking them. */
async function chooseTemplates(page: Page): Promise<void> {
  await page.getByLabel('Seed type', { exact: true }).selectOption('product');
  await page.getByLabel('Steps', { exact: true }).selectOption('1');
  await expect(page.getByTestId('template-total')).toHaveText(/^\d+ templates$/);
  for (const relation of ['also_bought', 'also_viewed']) {
    await page.getByTestId('template-list').getByRole('checkbox', { name: new RegExp(`product -\\[${relation}\\]-> product`) }).check();
  }
  await expect(page.getByTestId('template-total')).toContainText('2 chosen');
}

async function previewFive(page: Page) {
  await page.getByRole('button', { name: 'Preview five' }).click();
  const items = page.getByTestId('preview-item');
  await expect(items).toHaveCount(5, { timeout: 60_000 });
  return items;
}

/**
 * Nothing on the page reaches past the screen's right edge, so it does not scroll sideways; the offenders are
 * named by tag, test id and text when some do.
 */
async function expectNoSidewaysScroll(page: Page, width: number): Promise<void> {
  const offenders = await page.evaluate((w) => [...document.body.querySelectorAll('*')]
    .filter((el) => el.getClientRects().length > 0 && el.getBoundingClientRect().right > w + 0.5)
    .map((el) => `${el.tagName.toLowerCase()}${el.getAttribute('data-testid') ? `[${el.getAttribute('data-testid')}]` : ''}: ${(el.textContent ?? '').slice(0, 40)}`), width);
  expect(offenders).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

test('a curator previews with the LLM, synthesizes 20 queries, reads a query’s provenance and an LLM call, opens a study on the set, and a participant rates one', async ({ page, browser }) => {
  test.setTimeout(300_000);
  await signIn(page, CURATOR);
  await openSynthesize(page);
  await expect(page.getByTestId('llm-status')).toContainText('LLM:');
  await expect(page.getByRole('checkbox', { name: 'Use the LLM' })).toBeChecked();
  await expect(page.getByTestId('prompt-list').getByText('synthesis.compose@v1')).toBeVisible();

  // The listed templates' answer-set sizes, measured on a sample.
  await chooseTemplates(page);
  await page.getByRole('button', { name: 'Measure answer-set sizes' }).click();
  const sizes = page.getByTestId('template-size');
  await expect(sizes).toHaveCount(await page.getByTestId('template-list').getByRole('checkbox').count(), { timeout: 60_000 });
  await expect(sizes.first()).toHaveText(/^mean [\d.]+ · median [\d.]+ · max \d+[\d.]+% non-empty of 10$/);

  // Five attempts: each kept one shows its query and how it was made, with the LLM's calls linked.
  const items = await previewFive(page);
  const kept = items.filter({ has: page.getByTestId('preview-query') });
  expect(await kept.count()).toBeGreaterThan(0);
  const first = kept.first();
  await expect(first.getByTestId('preview-status')).toHaveText('kept');
  await expect(first.getByTestId('provenance-template')).not.toBeEmpty();
  await expect(first.getByTestId('provenance-seeds').getByRole('listitem')).not.toHaveCount(0);
  await expect(first.getByTestId('provenance-property')).not.toHaveCount(0);
  await expect(first.getByTestId('provenance-counts')).toContainText(/\d+ relational answers?, \d+ kept by the filter/);
  await expect(first.getByTestId('provenance-kept').getByRole('link')).not.toHaveCount(0);
  await expect(first.getByTestId('provenance-votes')).toBeVisible();
  await expect(first.getByTestId('provenance-prompts')).toContainText('synthesis.compose@v1');
  // Each attempt that did not make it says where and why.
  for (const other of await items.filter({ hasNot: page.getByTestId('preview-query') }).all()) {
    await expect(other.getByTestId('preview-status')).toHaveText(/^(dropped|failed) at (relational|properties|compose|leak|filter)$/);
    await expect(other.getByTestId('preview-reason')).not.toBeEmpty();
  }

  // An LLM call of the preview, opened in its viewer.
  const callLink = first.getByTestId('provenance-calls').getByRole('link').first();
  const callHref = (await callLink.getAttribute('href'))!;
  expect(callHref).toMatch(new RegExp(`^${kbPath}/llm-calls/\\d+$`));
  const callPage = await page.context().newPage();
  await callPage.goto(callHref);
  await expect(callPage.getByRole('heading', { level: 1, name: /^LLM call #\d+$/ })).toBeVisible();
  await expect(callPage.getByTestId('llm-call-status')).toHaveText('ok');
  await expect(callPage.getByTestId('llm-call-message')).not.toHaveCount(0);
  await expect(callPage.getByTestId('llm-call-response')).not.toBeEmpty();
  await callPage.close();

  // The job: 20 queries into a new set.
  const set = unique('synth');
  await page.getByLabel('Query set name').fill(set);
  await page.getByLabel('Queries', { exact: true }).fill('20');
  await page.getByRole('button', { name: 'Synthesize' }).click();
  const progress = page.getByTestId('job-progress');
  await expect(progress.getByRole('progressbar', { name: 'Queries kept' })).toBeVisible();
  await expect(progress.getByTestId('job-status')).toHaveText('finished', { timeout: 180_000 });
  await expect(progress.getByTestId('job-done')).toContainText('20 of 20 queries kept');
  await expect(page.getByTestId('job-list').getByRole('link', { name: set })).toBeVisible();
  await progress.getByRole('link', { name: `Open the query set ${set}` }).click();

  // The set's queries; one of them with its provenance.
  await expect(page).toHaveURL(`${kbPath}/queries/${set}`);
  await expect(page.getByTestId('query-total')).toHaveText('20 queries');
  await page.getByTestId('query-table').getByRole('link').first().click();
  await expect(page).toHaveURL(new RegExp(`${kbPath}/queries/${set}/q/syn-\\d+-\\d+$`));
  const provenance = page.getByRole('region', { name: 'How this query was made' });
  await expect(provenance.getByTestId('provenance-template')).not.toBeEmpty();
  await expect(provenance.getByTestId('provenance-seeds').getByRole('link')).not.toHaveCount(0);
  await expect(provenance.getByTestId('provenance-source').getByRole('link')).toBeVisible();
  await expect(provenance.getByTestId('provenance-property')).not.toHaveCount(0);
  await expect(provenance.getByTestId('provenance-methods')).toContainText('query by');
  await expect(provenance.getByTestId('provenance-calls').getByRole('link')).not.toHaveCount(0);
  const seed = provenance.getByTestId('provenance-seeds').getByRole('link').first();
  const seedName = (await seed.textContent())!;
  await seed.click();
  await expect(page.getByTestId('entity-name')).toHaveText(seedName);

  // A rating study on a sample of the set: the set page's shortcut opens the new-study form with it chosen.
  const study = unique('synth-study');
  await page.goto(`${kbPath}/queries/${set}`);
  await page.getByRole('link', { name: 'Open a rating study on a sample' }).click();
  await expect(page).toHaveURL(new RegExp(`/studies/new\\?querySet=${set}&sample=20$`));
  const create = page.getByRole('button', { name: 'Create study' });
  await waitForHydration(create);
  await page.getByLabel('Name', { exact: true }).fill(study);
  await page.getByLabel('Consent', { exact: true }).fill('I agree that my ratings are published without my name.');
  const source = page.getByRole('group', { name: 'Source 1', exact: true });
  await expect(source.getByLabel('Query set')).toHaveValue(set);
  await source.getByLabel('Sample size').fill('5');
  await expect(page.getByTestId('item-total')).toHaveText('5 items in all');
  await page.getByLabel('Items per participant').fill('5');
  await page.getByLabel('Participants per item').fill('1');
  await page.getByLabel(/^Open now/).check();
  await create.click();
  await expect(page.getByTestId('study-created').getByRole('status').first()).toHaveText('Study created with 5 items.');
  const studyLink = await page.getByTestId('study-link').getByRole('textbox').inputValue();

  // A participant, in a browser of their own, through the study link: rates one query.
  const participant = await browser.newContext();
  const rater = await participant.newPage();
  await rater.goto(studyLink);
  await rater.waitForURL(/\/rate\/[\w-]+$/);
  await rater.getByRole('button', { name: 'I agree' }).click();
  await expect(rater.getByTestId('rating-progress')).toHaveText('Item 1 of 5 · 0 complete');
  await expect(rater.getByRole('heading', { level: 2, name: /^Query \d+$/ })).toBeFocused();
  await expect(rater.getByTestId('item-text')).not.toBeEmpty();
  for (const v of [4, 3, 5]) await rater.keyboard.press(String(v));
  await expect(rater.getByTestId('save-status')).toHaveText('Saved');
  await rater.keyboard.press('Enter');
  await expect(rater.getByTestId('rating-progress')).toHaveText('Item 2 of 5 · 1 complete');
  await participant.close();
});

test('without the LLM the preview runs on the extractor, the realiser and term evidence, and the page fits a phone screen', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, CURATOR);
  await openSynthesize(page);
  await page.getByRole('checkbox', { name: 'Use the LLM' }).uncheck();
  await expect(page.getByText('Not using it: the deterministic extractor, realiser and term-evidence filter will be used.')).toBeVisible();
  await chooseTemplates(page);
  await expectNoSidewaysScroll(page, 390);

  const items = await previewFive(page);
  const kept = items.filter({ has: page.getByTestId('preview-query') });
  expect(await kept.count()).toBeGreaterThan(0);
  for (const item of await kept.all()) {
    await expect(item.getByTestId('provenance-methods')).toHaveText('properties by extractor, query by realiser, filter by term-evidence');
    await expect(item.getByTestId('provenance-calls')).toHaveCount(0);
  }
  // The extractor's properties are read verbatim: each shown with its field, the quoted span marked in the field's text.
  const property = kept.first().getByTestId('provenance-property').first();
  await expect(property).toContainText(/field \S+ \(.+\), characters \d+–\d+ · extractor/);
  await expect(property.locator('mark')).not.toBeEmpty();
  await expectNoSidewaysScroll(page, 390);

  // A form problem is named at its field, before anything is sent.
  await page.getByLabel('Query set name').fill('not a name!');
  await page.getByRole('button', { name: 'Synthesize' }).click();
  await expect(page.getByTestId('synthesis-error')).toHaveText('Some fields need a change; they are marked.');
  await expect(page.getByRole('alert').filter({ hasText: 'Use 1 to 80 letters' })).toBeVisible();
});

test('an annotator has no Synthesize link and is refused the page and the LLM call viewer', async ({ page }) => {
  await signIn(page, ANNOTATOR);
  await page.goto(kbPath);
  await expect(page.getByRole('navigation', { name: 'Explorer' }).getByRole('link', { name: 'Queries' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Explorer' }).getByRole('link', { name: 'Synthesize' })).toHaveCount(0);
  for (const path of [`${kbPath}/synthesize`, `${kbPath}/llm-calls/1`]) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('403 · Not allowed');
  }
});
