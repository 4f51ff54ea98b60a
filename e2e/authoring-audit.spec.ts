import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { buildDemoCatalogue } from '../lib/demo/catalogue';
import { DEMO_QUERY_SET } from '../lib/demo/queries';
import { ANNOTATOR, apiSignIn, CURATOR, expect, PUBLIC_KB, signIn, test, waitForHydration } from './fixtures';

/**
 * An audit of the demo query set in the browser: the curator creates it from the campaigns page, the annotator
 * marks a current answer wrong with evidence, adds a missing one and flags the query, the curator approves the
 * fixes; the query's revision history and the next release's diff show them, and the dashboard the error rate.
 * Each of the audit's pages is checked with axe and for width at 360 and 1,440 px on the way. The audit runs on a copy of the demo set (its JSONL export imported again), so the demo set other specs read
 * stays as it is.
 */

const catalogue = buildDemoCatalogue();
const WCAG = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/** The page as it stands has no serious or critical axe violation, and is no wider than a phone's or a desktop's window. */
async function checkPage(page: Page, state: string): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).withTags(WCAG).analyze();
  expect.soft(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help}`), `axe on ${state}`).toEqual([]);
  const size = page.viewportSize()!;
  for (const width of [360, 1440]) {
    await page.setViewportSize({ width, height: 800 });
    // Charts take their new width a frame or two after the window changes, so the overflow is polled.
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), {
      message: `${state} at ${width} px is wider than the window by`,
    }).toBeLessThanOrEqual(0);
  }
  await page.setViewportSize(size);
}
const tag = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;

test('an audit finds a wrong answer and a missing one, and the fixes reach the set, its release diff and the dashboard', async ({ page, browser, playwright, baseURL }) => {
  test.setTimeout(240_000);
  const slug = PUBLIC_KB.slug;
  const copy = `demo-audit-${tag}`;
  const setApi = `/api/kbs/${slug}/query-sets/${copy}`;
  const curatorApi = await playwright.request.newContext({ baseURL });
  await apiSignIn(curatorApi, CURATOR);
  const exported = await curatorApi.get(`/api/kbs/${slug}/query-sets/${DEMO_QUERY_SET}/export?format=jsonl`);
  expect(exported.status()).toBe(200);
  const upload = await curatorApi.put(`/api/uploads?name=${copy}.jsonl`, { data: await exported.body(), headers: { 'content-type': 'application/octet-stream' } });
  expect(upload.status(), await upload.text()).toBe(201);
  const imported = await curatorApi.post(`/api/kbs/${slug}/query-sets`, {
    data: { name: copy, origin: 'synthesized', format: 'jsonl', files: [{ uploadId: ((await upload.json()) as { uploadId: string }).uploadId, kind: 'queries' }] },
  });
  expect(imported.status(), await imported.text()).toBe(201);
  const released = await curatorApi.post(`${setApi}/releases`, { data: { name: 'before the audit' } });
  expect(released.status(), await released.text()).toBe(201);
  const { items: [first] } = (await (await curatorApi.get(`${setApi}/queries?limit=1`)).json()) as { items: { id: string; text: string; answers: string[] }[] };
  const wrong = first!.answers[0]!;
  const missing = catalogue.entities.find((e) => e.type === 'product' && !first!.answers.includes(e.externalId))!;
  await curatorApi.dispose();

  // The curator creates the audit from the campaigns page.
  const name = `audit-${tag}`;
  await signIn(page, CURATOR);
  await page.goto(`/kb/${slug}/campaigns`);
  await page.getByRole('link', { name: 'New audit' }).click();
  await expect(page).toHaveURL(new RegExp(`/kb/${slug}/campaigns/new/audit$`));
  const create = page.getByRole('button', { name: 'Create the audit' });
  await waitForHydration(create);
  await checkPage(page, 'the new-audit form');
  await page.getByLabel('Query set').selectOption(copy);
  await page.getByLabel('Campaign name').fill(name);
  await page.getByRole('checkbox', { name: /annotator@demo\.local/ }).check();
  await create.click();
  await expect(page.getByTestId('audit-created')).toContainText('Audit created with 40 queries to check.');
  await page.getByRole('link', { name: 'Open the campaign' }).click();
  await expect(page.getByTestId('campaign-name')).toHaveText(name);
  const campaignPath = new URL(page.url()).pathname;
  await expect(page.getByTestId('campaign-audits')).toContainText(`audits the queries of ${copy}`);
  await expect(page.getByTestId('review-link')).toHaveText('Review (0 waiting)');

  // The annotator audits the first query: one answer wrong with a passage as evidence, the rest correct, one added, the text flagged.
  const annotatorContext = await browser.newContext({ baseURL });
  const work = await annotatorContext.newPage();
  await signIn(work, ANNOTATOR);
  await work.goto(campaignPath);
  const start = work.getByRole('button', { name: 'Start auditing' });
  await waitForHydration(start);
  await start.click();
  await expect(work).toHaveURL(new RegExp(`${campaignPath}/audit/\\d+$`));
  await expect(work.getByTestId('audit-query')).toContainText(first!.text);
  const answers = work.getByTestId('audit-answers');
  await expect(answers.getByRole('listitem')).toHaveCount(first!.answers.length);
  const submit = work.getByRole('button', { name: 'Submit the audit' });
  await expect(submit).toBeDisabled();
  await checkPage(work, 'the audit screen');

  const wrongRow = work.getByTestId(`audit-answer-${wrong}`);
  await waitForHydration(wrongRow.getByRole('button', { name: 'Wrong' }));
  await wrongRow.getByRole('button', { name: 'Wrong' }).click();
  await expect(wrongRow.getByRole('button', { name: 'Wrong' })).toHaveAttribute('aria-pressed', 'true');
  await wrongRow.getByRole('button', { name: 'Cite evidence' }).click();
  const picker = work.getByTestId('evidence-picker');
  await expect(picker).toContainText('is not an answer');
  await picker.getByTestId('evidence-document').locator('[data-field="title"]').click({ clickCount: 3 });
  await picker.getByRole('button', { name: 'Cite this passage' }).click();
  await expect(picker.getByTestId('cited-evidence').getByRole('listitem')).toHaveCount(1);
  await picker.getByRole('button', { name: 'Done' }).click();
  await expect(wrongRow.getByRole('button', { name: 'Cite evidence (1)' })).toBeVisible();
  for (const id of first!.answers.slice(1)) {
    const row = work.getByTestId(`audit-answer-${id}`);
    await row.getByRole('button', { name: 'Correct' }).click();
    await expect(row.getByRole('button', { name: 'Correct' })).toHaveAttribute('aria-pressed', 'true');
  }

  const box = work.getByTestId('hand-picker').getByRole('combobox');
  await box.fill(missing.name);
  await work.getByRole('option').filter({ hasText: `${missing.name} product ·` }).click();
  const hand = work.getByTestId('hand-added');
  await hand.getByRole('button', { name: 'Relevant', exact: true }).click();
  await expect(hand.getByRole('button', { name: 'Relevant', exact: true })).toHaveAttribute('aria-pressed', 'true');

  const flags = work.getByTestId('audit-flags');
  await flags.getByRole('checkbox', { name: 'Ambiguous' }).check();
  await flags.getByLabel(/^Note/).fill('the category could be read two ways');
  await flags.getByRole('button', { name: 'Save flags' }).click();
  await expect(flags.getByRole('status')).toHaveText('Saved');
  await expect(submit).toBeEnabled();
  await submit.click();
  await expect(work.getByTestId('audit-submitted')).toContainText(`Submitted for review: ${first!.answers.length - 1} correct, 1 wrong, 0 unsure, 1 added, flagged ambiguous.`);
  await annotatorContext.close();

  // The curator reviews: the wrong answer starts removed, the added one added, the query flagged; approving edits the set.
  await page.reload();
  await expect(page.getByTestId('review-link')).toHaveText('Review (1 waiting)');
  await page.getByTestId('review-link').click();
  await expect(page.getByTestId('audit-review-queue')).toBeVisible();
  await checkPage(page, 'the audit review queue');
  await page.getByTestId('audit-review-queue').getByRole('link', { name: `Query ${first!.id}` }).click();
  const decisions = page.getByTestId('audit-decisions');
  await expect(decisions.getByTestId(`audit-decision-${wrong}`).getByRole('radio', { name: 'Remove' })).toBeChecked();
  await expect(decisions.getByTestId(`audit-decision-${missing.externalId}`).getByRole('radio', { name: 'Add' })).toBeChecked();
  await expect(page.getByRole('radio', { name: 'Keep it, flagged' })).toBeChecked();
  await checkPage(page, 'the review of an audited query');
  const approve = page.getByRole('button', { name: `Approve the fixes into ${copy}` });
  await waitForHydration(approve);
  await approve.click();
  await expect(page.getByTestId('audit-approved')).toContainText('Approved: 1 answer removed, 1 added, the query flagged.');

  // The query's revision history names the audit and each change.
  await page.getByRole('link', { name: 'Open the query', exact: true }).click();
  const revisions = page.getByTestId('query-revisions');
  await expect(revisions).toContainText(`audit campaign ${name}, item 1: removed answer ${wrong} (marked wrong by every annotator); added answer ${missing.externalId}; flagged ambiguous (the category could be read two ways)`);

  // The next release's diff shows the answer removed and the one added.
  await page.goto(`/kb/${slug}/queries/${copy}?tab=releases`);
  await page.getByLabel('Release name').fill('after the audit');
  const make = page.getByRole('button', { name: 'Make release' });
  await waitForHydration(make);
  await make.click();
  await expect(page.getByRole('status').filter({ hasText: 'Release 2 made.' })).toBeVisible();
  const diff = page.getByTestId('release-diff');
  await expect(diff).toContainText('0 added, 0 removed, 1 changed (0 in text, 1 in answers, 0 in split), 39 unchanged.');
  const row = diff.getByRole('row').filter({ has: page.getByRole('link', { name: first!.id, exact: true }) });
  await expect(row).toContainText(missing.externalId);
  await expect(row).toContainText(wrong);

  // The dashboard: one query reviewed, found wrong, with its interval, per split and per origin.
  await page.goto(campaignPath);
  await expect(page.getByTestId('audit-error-total')).toHaveText('1 of 1 reviewed queries were wrong (40 in the audit): 100%, 95% interval 20.7% – 100%.');
  await expect(page.getByTestId('audit-errors-split')).toBeVisible();
  await checkPage(page, 'the audit campaign with its error rates');
  await page.getByTestId('audit-errors-origin-data').getByText('Data table').click();
  await expect(page.getByTestId('audit-errors-origin-data').getByRole('row').filter({ hasText: 'synthesized' })).toContainText('100%');
});
