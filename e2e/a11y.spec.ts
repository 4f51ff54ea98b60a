import AxeBuilder from '@axe-core/playwright';
import { expect, type Locator, type Page } from '@playwright/test';
import { expectConsole, PUBLIC_KB, test, waitForHydration } from './fixtures';
import { disposeSecurityFixtures, setUpSecurityFixtures, type SecurityFixtures } from './security-setup';

/**
 * Accessibility: every page of the app, in the states that matter (a graph drawn, the workspace with its
 * candidates, the rating screen, dialogs open), has no serious or critical WCAG 2.1 A/AA violation by axe; the
 * rating screen and the workspace's judging work by keyboard alone with a visible focus ring; a chart's table
 * holds the chart's numbers.
 */

let f: SecurityFixtures;
let studyLink: string;
let keyboardStudyLink: string;
let releaseNumber: number;
const kb = `/kb/${PUBLIC_KB.slug}`;
const WCAG = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

test.beforeAll(async ({ playwright }) => {
  test.setTimeout(180_000);
  f = await setUpSecurityFixtures(playwright);
  const admin = f.callers.admin.request;
  const tag = Date.now().toString(36);
  // Two studies, each with two items for its one participant: one to look at, one to rate by keyboard.
  const studyLinks: string[] = [];
  for (const name of [`a11y-${tag}`, `a11y-keyboard-${tag}`]) {
    const study = await admin.post(`/api/kbs/${PUBLIC_KB.slug}/studies`, {
      data: { name, consent: 'I agree that my **ratings** are used.', sources: [{ querySet: f.perKb.public.querySet, sample: 2 }], itemsPerParticipant: 2, participantsPerItem: 1, open: true },
    });
    expect(study.status(), await study.text()).toBe(201);
    studyLinks.push(`/join/${((await study.json()) as { linkToken: string }).linkToken}`);
  }
  [studyLink, keyboardStudyLink] = studyLinks as [string, string];
  // A set unchanged since its last release cannot be released again: then that last release is the one.
  const releases = `/api/kbs/${PUBLIC_KB.slug}/query-sets/${f.perKb.public.querySet}/releases`;
  const made = await admin.post(releases, { data: { name: `a11y ${tag}` } });
  expect([201, 409], await made.text()).toContain(made.status());
  releaseNumber = made.status() === 201
    ? ((await made.json()) as { number: number }).number
    : ((await (await admin.get(releases)).json()) as { items: { number: number }[] }).items[0]!.number;
});
test.afterAll(async () => disposeSecurityFixtures(f));

/** Fails (softly, so one run lists every page's problems) on each serious or critical violation, named readably. */
async function axeCheck(page: Page, state: string): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).withTags(WCAG).analyze();
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const report = bad.map((v) => `${v.id} (${v.impact}): ${v.help}\n${v.nodes.slice(0, 6).map((n) => `    ${n.target.join(' ')}${n.failureSummary ? ` — ${n.failureSummary.split('\n').slice(1).join(' ').trim()}` : ''}`).join('\n')}`);
  expect.soft(report, `axe on ${state} (${page.url()})`).toEqual([]);
}

/** Opens a page, waits until React has hydrated it and checks it. */
async function check(page: Page, path: string, ready?: Locator): Promise<void> {
  const res = await page.goto(path);
  expect(res?.status(), path).toBeLessThan(400);
  await waitForHydration(page.locator('header button, header a, main button, main a, main input').first());
  if (ready) await expect(ready.first()).toBeVisible();
  await expectAccessible(page, path);
}

/** Runs axe once nothing is loading (a list being refetched is drawn faded on purpose). */
async function expectAccessible(page: Page, state: string): Promise<void> {
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  await axeCheck(page, state);
}

async function signInAs(page: Page, who: 'admin' | 'owner' | 'rater'): Promise<void> {
  const request = who === 'admin' ? f.callers.admin.request : who === 'rater' ? f.callers.rater.request : f.owner;
  await page.context().clearCookies();
  await page.context().addCookies((await request.storageState()).cookies);
}

/**
 * The focused element shows the keyboard focus: it matches `:focus-visible` and draws an outline of 2px or more,
 * or, for a visually hidden input (the rating scales' radios), the label around it draws a ring.
 */
async function expectVisibleFocus(page: Page): Promise<void> {
  const focus = await page.evaluate(() => {
    const el = document.activeElement as HTMLElement;
    const hidden = el.getBoundingClientRect().width <= 1;
    const drawn = (hidden ? el.closest('label') : el) ?? el;
    const style = getComputedStyle(drawn);
    return {
      what: `${el.tagName.toLowerCase()} ${el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 30) ?? ''}`,
      focusVisible: el.matches(':focus-visible'),
      outline: style.outlineStyle === 'none' ? 0 : parseFloat(style.outlineWidth),
      ring: style.boxShadow !== 'none',
      hidden,
    };
  });
  expect(focus.focusVisible, `${focus.what} matches :focus-visible`).toBe(true);
  if (focus.hidden) expect(focus.ring || focus.outline >= 2, `the label of ${focus.what} draws a ring`).toBe(true);
  else expect(focus.outline, `${focus.what} draws an outline`).toBeGreaterThanOrEqual(2);
}

/** Presses Tab until `target` has the focus (at most `limit` times), checking the focus ring on the way. */
async function tabTo(page: Page, target: Locator, limit = 60): Promise<void> {
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press('Tab');
    if (await target.evaluate((el) => el === document.activeElement)) {
      await expectVisibleFocus(page);
      return;
    }
  }
  throw new Error(`Tab did not reach ${target.toString()} in ${limit} presses`);
}

test('signed out: sign-in, a study link, the consent and the rating screen', async ({ page }) => {
  await check(page, '/login', page.getByRole('button', { name: 'Sign in', exact: true }));
  expectConsole(/404 \(Not Found\)/);
  await check(page, '/join/not-a-study-link');
  await page.goto(studyLink);
  await page.waitForURL(/\/rate\/[A-Za-z0-9_-]{32}$/);
  await waitForHydration(page.getByRole('button', { name: 'I agree' }));
  await expectAccessible(page, 'the consent screen');
  await page.getByRole('button', { name: 'I agree' }).click();
  await expect(page.getByTestId('rating-progress')).toContainText('Item 1 of');
  await page.keyboard.press('3');
  await expect(page.getByTestId('save-status')).toHaveText('Saved');
  await expectAccessible(page, 'the rating screen with an answer');
  await check(page, `/rate/${f.participantToken}`);
});

// The explorer in two tests: as one, it took 52 s of its 60 beside a parallel CPU load (docs/benchmarks.md).
test('the explorer: knowledge bases, overview, search, entity', async ({ page }) => {
  const { entityId } = f.perKb.public;
  await signInAs(page, 'admin');
  await check(page, '/', page.getByTestId('kb-list'));
  await check(page, kb, page.getByTestId('degree-chart'));
  await check(page, `${kb}/search?q=tent`);
  await check(page, `${kb}/entities/${entityId}`);
});

test('the explorer: graph drawn, a node chosen, metapaths, paths', async ({ page }) => {
  const { entityId, otherEntityId } = f.perKb.public;
  await signInAs(page, 'admin');
  await check(page, `${kb}/graph?entity=${entityId}`, page.getByTestId('graph-caption'));
  await page.getByTestId('graph-node-list').getByRole('button').nth(1).click();
  await expect(page.getByTestId('graph-side-panel')).toBeVisible();
  await expectAccessible(page, 'the graph with a node chosen');
  await check(page, `${kb}/metapaths`);
  await check(page, `${kb}/paths?from=${entityId}&to=${otherEntityId}`);
});

// Query sets in two tests, as the explorer: as one, it took 48 s of its 60 beside a parallel CPU load.
test('query sets: list, every tab', async ({ page }) => {
  const { querySet } = f.perKb.public;
  await signInAs(page, 'admin');
  await check(page, `${kb}/queries`);
  for (const tab of ['queries', 'stats', 'releases', 'runs']) {
    await check(page, `${kb}/queries/${querySet}?tab=${tab}`, page.getByRole('tabpanel'));
  }
});

test('query sets: a query, a run, a release, import', async ({ page }) => {
  const { querySet, qid, runId } = f.perKb.public;
  await signInAs(page, 'admin');
  await check(page, `${kb}/queries/${querySet}/q/${encodeURIComponent(qid)}`);
  await check(page, `${kb}/queries/${querySet}/runs/${runId}`);
  await check(page, `${kb}/queries/${querySet}/releases/${releaseNumber}`);
  await check(page, `${kb}/queries/import`);
});

test('campaigns, review, studies, results, synthesis and an LLM call, imports and users', async ({ page }) => {
  test.setTimeout(180_000);
  await signInAs(page, 'admin');
  await check(page, `${kb}/campaigns`);
  await check(page, `${kb}/campaigns/${f.campaignId}`);
  await check(page, `${kb}/campaigns/${f.campaignId}/review`);
  await check(page, `${kb}/campaigns/${f.campaignId}/review/${f.seedEntityId}`);
  await check(page, `${kb}/campaigns/new`);
  await check(page, `${kb}/studies`);
  await check(page, `${kb}/studies/${f.studyId}`);
  await check(page, `${kb}/studies/${f.studyId}/results`);
  await check(page, `${kb}/studies/new`);
  await check(page, '/admin/import');
  await check(page, `/imports/${f.importId}`);
  await check(page, '/admin/users', page.getByTestId('user-table'));

  // Synthesis, with a preview made, and one of its LLM calls.
  await check(page, `${kb}/synthesize`, page.getByTestId('template-list').getByRole('checkbox'));
  await page.getByLabel('Seed type', { exact: true }).selectOption('product');
  await page.getByLabel('Steps', { exact: true }).selectOption('1');
  await page.getByTestId('template-list').getByRole('checkbox', { name: /product -\[also_bought\]-> product/ }).check();
  await page.getByRole('button', { name: 'Preview five' }).click();
  await expect(page.getByTestId('preview-item')).toHaveCount(5, { timeout: 60_000 });
  await expectAccessible(page, 'the synthesis preview');
  const call = page.getByTestId('provenance-calls').getByRole('link').first();
  await check(page, (await call.getAttribute('href'))!);
});

test('a rater: the knowledge bases and a study’s rating screen', async ({ page }) => {
  await signInAs(page, 'rater');
  await check(page, '/', page.getByTestId('kb-list'));
  await check(page, `${kb}/studies/${f.studyId}/rate`);
});

test("the annotator's workspace with its candidates, and the skip dialog open", async ({ page }) => {
  await signInAs(page, 'owner');
  await check(page, `${kb}/campaigns/${f.campaignId}/work/${f.assignmentId}`, page.getByRole('textbox', { name: 'Query', exact: true }));
  await page.getByRole('textbox', { name: 'Query', exact: true }).fill('Which products of this kind weigh under a kilo?');
  await expect(page.getByTestId('save-status')).toContainText('Saved');
  await expectAccessible(page, 'the workspace with a query');
  await page.getByRole('button', { name: 'Skip this seed…' }).click();
  await expect(page.getByRole('dialog', { name: 'Skip this seed' })).toBeVisible();
  await expectAccessible(page, 'the skip dialog');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
});

test('by keyboard alone, with a visible focus: a participant rates an item, and an annotator judges a candidate', async ({ page, browser }) => {
  // The rating screen: Tab to a scale, choose with the arrow keys, Tab on to Next and press Enter.
  await page.goto(keyboardStudyLink);
  await page.waitForURL(/\/rate\/[A-Za-z0-9_-]{32}$/);
  const agree = page.getByRole('button', { name: 'I agree' });
  await waitForHydration(agree);
  await tabTo(page, agree);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('rating-progress')).toContainText('Item 1 of 2');
  const firstText = await page.getByTestId('item-text').textContent();
  for (const name of ['Naturalness', 'Diversity', 'Practicality']) {
    const group = page.getByRole('radiogroup', { name, exact: true });
    await tabTo(page, group.getByRole('radio').first());
    await page.keyboard.press('Space');
    await expect(group.getByRole('radio').first()).toBeChecked();
    await page.keyboard.press('ArrowRight');
    await expect(group.getByRole('radio').nth(1)).toBeChecked();
  }
  await expect(page.getByTestId('save-status')).toHaveText('Saved');
  await tabTo(page, page.getByRole('button', { name: /^Next/ }));
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('rating-progress')).toContainText('Item 2 of 2 · 1 complete');
  await expect(page.getByTestId('item-text')).not.toHaveText(firstText!);

  // The workspace: Tab to a candidate's "Relevant" and press Space; the judgment is stored.
  const context = await browser.newContext({ baseURL: new URL(page.url()).origin });
  try {
    const work = await context.newPage();
    await context.addCookies((await f.owner.storageState()).cookies);
    await work.goto(`${kb}/campaigns/${f.campaignId}/work/${f.assignmentId}`);
    const query = work.getByRole('textbox', { name: 'Query', exact: true });
    await waitForHydration(query);
    await tabTo(work, query, 80);
    await work.keyboard.type('Which products share this one’s maker?');
    // The relational requirement, by keyboard: typing on the closed select picks the seed's brand (each product has one).
    const addStep = work.getByRole('combobox', { name: 'Path from the seed: add a step' });
    await tabTo(work, addStep, 80);
    await work.keyboard.press('h');
    await expect(work.getByTestId('pattern-words')).toContainText('product (the seed) → has_brand → brand');
    const relevant = work.getByTestId('candidate-list').getByRole('button', { name: 'Relevant', exact: true }).first();
    await expect(relevant).toBeVisible();
    await tabTo(work, relevant, 120);
    await work.keyboard.press('Space');
    await expect(relevant).toHaveAttribute('aria-pressed', 'true');
    await expect.poll(async () => {
      const body = (await (await f.owner.get(`/api/assignments/${f.assignmentId}`)).json()) as { judgments: { label: string }[] };
      return body.judgments.some((j) => j.label === 'relevant');
    }).toBe(true);
  } finally {
    await context.close();
  }
});

test('a chart’s text equivalent: the degree chart’s table holds the numbers the chart draws', async ({ page }) => {
  await signInAs(page, 'admin');
  await page.goto(kb);
  const chart = page.getByTestId('degree-chart');
  await expect(chart.locator('.recharts-bar-rectangle').first()).toBeVisible();
  const stats = (await (await f.callers.admin.request.get(`/api/kbs/${PUBLIC_KB.slug}/stats`)).json()) as { degreeHistogram: { min: number; max: number; count: number }[] };
  expect(stats.degreeHistogram.length).toBeGreaterThan(1);
  // The table is folded under the chart; opened by keyboard like any disclosure.
  const table = chart.getByRole('table', { name: /Degree distribution/ });
  await expect(table).toBeHidden();
  await chart.getByText('Data table').focus();
  await page.keyboard.press('Enter');
  await expect(table).toBeVisible();
  const rows = await table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent!.trim())));
  expect(rows).toEqual(stats.degreeHistogram.map((b) => [
    b.min === b.max ? String(b.min) : `${b.min.toLocaleString('en')}–${b.max.toLocaleString('en')}`,
    b.count.toLocaleString('en'),
  ]));
  // One bar per row of the table.
  await expect(chart.locator('.recharts-bar-rectangle')).toHaveCount(rows.length);
  // The chart itself is an image named by a summary, so a screen reader does not read the SVG's ticks.
  await expect(chart.getByRole('img', { name: /^Degree distribution/ })).toHaveCount(1);
});
