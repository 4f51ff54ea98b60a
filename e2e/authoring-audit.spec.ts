import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { buildDemoCatalogue } from '../lib/demo/catalogue';
import { DEMO_QUERY_SET } from '../lib/demo/queries';
import { ANNOTATOR, apiSignIn, CURATOR, expect, PUBLIC_KB, signIn, test, waitForHydration } from './fixtures';

/**
 * An audit of the demo query set in the browser: the curator creates it from the campaigns page, the annotator
 * marks a current answer wrong with evidence, adds two missing ones (one by name, one with the path tool from the
 * query's seed) and flags the query, the curator approves the fixes; the query's revision history and the next
 * release's diff show them, and the dashboard the error rate.
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

test('an audit finds a wrong answer and two missing ones (by name and by a path from the seed), and the fixes reach the set, its release diff and the dashboard', async ({ page, browser, playwright, baseURL }) => {
  test.setTimeout(240_000);
  const slug = PUBLIC_KB.slug;
  const copy = `demo-audit-${tag}`;
  const setApi = `/api/kbs/${slug}/query-sets/${copy}`;
  const curatorApi = await playwright.request.newContext({ baseURL });
  await apiSignIn(curatorApi, CURATOR);
  const exported = await curatorApi.get(`/api/kbs/${slug}/query-sets/${DEMO_QUERY_SET}/export?format=jsonl`);
  expect(exported.status()).toBe(200);
  // The demo queries have no seeds: the copy's first one gets its brand, so the audit's path tool starts there.
  const lines = (await exported.text()).split('\n').filter(Boolean).map((l) => JSON.parse(l) as { answer_ids: string[]; answer_ids_source?: string[] });
  const brandId = catalogue.edges.find((e) => e.source === lines[0]!.answer_ids[0] && e.relation === 'has_brand')!.target;
  lines[0]!.answer_ids_source = [brandId];
  const jsonl = lines.map((l) => `${JSON.stringify(l)}\n`).join('');
  const upload = await curatorApi.put(`/api/uploads?name=${copy}.jsonl`, { data: Buffer.from(jsonl), headers: { 'content-type': 'application/octet-stream' } });
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
  // The brand's products, which the path from the seed reaches, and one of them that is not an answer yet.
  const brand = catalogue.entities.find((e) => e.externalId === brandId)!;
  const brandProducts = catalogue.edges.filter((e) => e.relation === 'has_brand' && e.target === brandId).map((e) => e.source);
  const viaPath = catalogue.entities.find((e) => brandProducts.includes(e.externalId) && !first!.answers.includes(e.externalId) && e !== missing)!;
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

  // The path tool starts at the query's seed, the brand; one step back along has_brand lists the brand's products.
  const branch = work.getByTestId('audit-branch');
  await expect(branch.getByTestId('audit-branch-start')).toContainText(brand.name);
  await branch.getByRole('combobox', { name: `Path from the seed, ${brand.name}: add a step` }).selectOption('in~has_brand~product');
  const candidates = work.getByTestId('candidate-list').getByTestId('candidate');
  await expect(candidates).toHaveCount(brandProducts.length);
  const judgedBefore = first!.answers.length + (brandProducts.includes(missing.externalId) ? 1 : 0);
  await expect(work.getByTestId('judged-progress')).toContainText(`Judged ${judgedBefore} of ${brandProducts.length} candidates`);
  const found = candidates.filter({ has: work.getByRole('link', { name: viaPath.name, exact: true }) });
  await found.getByRole('button', { name: 'Relevant', exact: true }).click();
  await expect(found.getByRole('button', { name: 'Relevant', exact: true })).toHaveAttribute('aria-pressed', 'true');
  await expect(work.getByTestId('judged-progress')).toContainText(`Judged ${judgedBefore + 1} of ${brandProducts.length} candidates`);

  const flags = work.getByTestId('audit-flags');
  await flags.getByRole('checkbox', { name: 'Ambiguous' }).check();
  await flags.getByLabel(/^Note/).fill('the category could be read two ways');
  await flags.getByRole('button', { name: 'Save flags' }).click();
  await expect(flags.getByRole('status')).toHaveText('Saved');
  await expect(submit).toBeEnabled();
  await submit.click();
  await expect(work.getByTestId('audit-submitted')).toContainText(`Submitted for review: ${first!.answers.length - 1} correct, 1 wrong, 0 unsure, 2 added, flagged ambiguous.`);
  await annotatorContext.close();

  // The curator reviews: the wrong answer starts removed, the added ones added, the query flagged; approving edits the set.
  await page.reload();
  await expect(page.getByTestId('review-link')).toHaveText('Review (1 waiting)');
  await page.getByTestId('review-link').click();
  await expect(page.getByTestId('audit-review-queue')).toBeVisible();
  await checkPage(page, 'the audit review queue');
  await page.getByTestId('audit-review-queue').getByRole('link', { name: `Query ${first!.id}` }).click();
  const decisions = page.getByTestId('audit-decisions');
  await expect(decisions.getByTestId(`audit-decision-${wrong}`).getByRole('radio', { name: 'Remove' })).toBeChecked();
  await expect(decisions.getByTestId(`audit-decision-${missing.externalId}`).getByRole('radio', { name: 'Add' })).toBeChecked();
  await expect(decisions.getByTestId(`audit-decision-${viaPath.externalId}`).getByRole('radio', { name: 'Add' })).toBeChecked();
  await expect(page.getByRole('radio', { name: 'Keep it, flagged' })).toBeChecked();
  await checkPage(page, 'the review of an audited query');
  const approve = page.getByRole('button', { name: `Approve the fixes into ${copy}` });
  await waitForHydration(approve);
  await approve.click();
  await expect(page.getByTestId('audit-approved')).toContainText('Approved: 1 answer removed, 2 added, the query flagged.');

  // The query's revision history names the audit and each change.
  await page.getByRole('link', { name: 'Open the query', exact: true }).click();
  const revisions = page.getByTestId('query-revisions');
  // The added answers are named in the order of their names, as the review lists them.
  const added = [missing, viaPath].sort((a, b) => (a.name < b.name ? -1 : 1)).map((e) => e.externalId).join(', ');
  await expect(revisions).toContainText(`audit campaign ${name}, item 1: removed answer ${wrong} (marked wrong by every annotator); added answers ${added}; flagged ambiguous (the category could be read two ways)`);

  // The next release's diff shows the answer removed and the two added, each in its column.
  await page.goto(`/kb/${slug}/queries/${copy}?tab=releases`);
  await page.getByLabel('Release name').fill('after the audit');
  const make = page.getByRole('button', { name: 'Make release' });
  await waitForHydration(make);
  await make.click();
  await expect(page.getByRole('status').filter({ hasText: 'Release 2 made.' })).toBeVisible();
  const diff = page.getByTestId('release-diff');
  await expect(diff).toContainText('0 added, 0 removed, 1 changed (0 in text, 1 in answers, 0 in split), 39 unchanged.');
  const row = diff.getByRole('row').filter({ has: page.getByRole('link', { name: first!.id, exact: true }) });
  // Columns: query, change, text, answers added, answers removed.
  const [addedCell, removedCell] = [row.getByRole('cell').nth(3), row.getByRole('cell').nth(4)];
  await expect(removedCell).toHaveText(wrong);
  await expect(addedCell).toContainText(missing.externalId);
  await expect(addedCell).toContainText(viaPath.externalId);
  expect((await addedCell.textContent())!.split(', ').sort()).toEqual([missing.externalId, viaPath.externalId].sort());

  // The dashboard: one query reviewed, found wrong, with its interval, per split and per origin.
  await page.goto(campaignPath);
  await expect(page.getByTestId('audit-error-total')).toHaveText('1 of 1 reviewed queries were wrong (40 in the audit): 100%, 95% interval 20.7% – 100%.');
  await expect(page.getByTestId('audit-errors-split')).toBeVisible();
  await checkPage(page, 'the audit campaign with its error rates');
  await page.getByTestId('audit-errors-origin-data').getByText('Data table').click();
  await expect(page.getByTestId('audit-errors-origin-data').getByRole('row').filter({ hasText: 'synthesized' })).toContainText('100%');
});
