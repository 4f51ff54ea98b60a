import { readFile } from 'node:fs/promises';
import { expect, type Page } from '@playwright/test';
import { krippendorffAlpha } from '../lib/stats/agreement';
import { CURATOR, PUBLIC_KB, signIn, waitForHydration, test } from './fixtures';

/**
 * A rating study from start to end, in the browser: a curator builds it through the form and hands out the
 * study link and a personal link; two anonymous participants rate every item by keyboard, one of them stopping
 * and resuming through the study link; the curator reads the Table-5 rates and the agreement and downloads the
 * summary and the raw ratings, whose numbers are the ones computed here from the values typed.
 */

const SET = 'demo-catalogue-questions';
const studiesPath = `/kb/${PUBLIC_KB.slug}/studies`;
const KEYS = ['naturalness', 'diversity', 'practicality'] as const;
const LABELS = ['Naturalness', 'Diversity', 'Practicality'] as const;
const ITEMS = 4;

/** What each participant types on the n-th item shown to them: naturalness, diversity, practicality. */
const PLAN: Record<'a' | 'b', number[][]> = {
  a: [[5, 3, 2], [2, 4, 5], [4, 1, 5], [3, 5, 4]],
  b: [[4, 2, 5], [1, 2, 3], [3, 4, 2], [5, 3, 4]],
};

/** The values a participant typed, by the query text they were shown. */
type Typed = Map<string, number[]>;

const pct = (x: number) => (100 * x).toFixed(1);
const share = (values: number[], test: (v: number) => boolean) => values.filter(test).length / values.length;

const progress = (page: Page) => page.getByTestId('rating-progress');
const scale = (page: Page, label: string) => page.getByRole('radiogroup', { name: label, exact: true });

/** Rates the shown item with number keys alone: each key fills the next unanswered scale. */
async function rateShownItem(page: Page, values: number[], typed: Typed): Promise<void> {
  // Each item starts with the focus on its heading, so no scale is focused.
  await expect(page.getByRole('heading', { level: 2, name: /^Query \d+$/ })).toBeFocused();
  const text = (await page.getByTestId('item-text').textContent())!;
  for (const v of values) await page.keyboard.press(String(v));
  for (const [i, label] of LABELS.entries()) {
    await expect(scale(page, label).getByRole('radio', { name: new RegExp(`^${values[i]} `) })).toBeChecked();
  }
  await expect(page.getByTestId('save-status')).toHaveText('Saved');
  typed.set(text, values);
}

/** Rates the items at the given positions (0-based), pressing Enter after each. */
async function rateItems(page: Page, positions: number[], plan: number[][], typed: Typed): Promise<void> {
  for (const n of positions) {
    await expect(progress(page)).toHaveText(`Item ${n + 1} of ${ITEMS} · ${n} complete`);
    await rateShownItem(page, plan[n]!, typed);
    await page.keyboard.press('Enter');
  }
}

async function download(page: Page, link: string): Promise<string> {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: link }).click()]);
  return readFile(await file.path(), 'utf8');
}

test('a curator builds a study, two anonymous participants rate by keyboard (one stops and resumes), the curator reads and downloads the results', async ({ page, context, browser }) => {
  test.setTimeout(180_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const name = `journey-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;

  // 1. The curator builds the study through the form: four queries of the demo set, the default dimensions,
  // each item rated by both of two participants.
  await signIn(page, CURATOR);
  await page.goto(`${studiesPath}/new`);
  const create = page.getByRole('button', { name: 'Create study' });
  await waitForHydration(create);
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByLabel('Consent', { exact: true }).fill('I agree that my ratings are published without my name.');
  const source = page.getByRole('group', { name: 'Source 1', exact: true });
  await source.getByLabel('Query set').selectOption(SET);
  await source.getByLabel('Sample size').fill(String(ITEMS));
  await expect(page.getByTestId('item-total')).toHaveText('4 items in all');
  for (const label of LABELS) await expect(page.getByRole('group', { name: `${label} (scale)`, exact: true })).toBeVisible();
  await page.getByLabel('Items per participant').fill('4');
  await page.getByLabel('Participants per item').fill('2');
  await expect(page.getByTestId('design-plan')).toHaveText('4 items × 2 raters = 8 item ratings: 2 participants at 4 items each cover them.');
  await expect(page.getByLabel(/^Study link:/)).toBeChecked();
  await page.getByLabel(/^Open now/).check();
  await create.click();

  // The study link, shown once: copied from the page.
  await expect(page.getByTestId('study-created').getByRole('status').first()).toHaveText('Study created with 4 items.');
  const shown = page.getByTestId('study-link');
  await shown.getByRole('button', { name: 'Copy link' }).click();
  await expect(shown.getByRole('status')).toHaveText('Copied.');
  const studyLink = await page.evaluate(() => navigator.clipboard.readText());
  expect(studyLink).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/join\/[\w-]+$/);
  expect(studyLink).toBe(await shown.getByRole('textbox').inputValue());
  await shown.getByRole('link', { name: 'Go on to the study' }).click();

  await expect(page).toHaveURL(new RegExp(`${studiesPath}/\\d+$`));
  await expect(page.getByTestId('study-name')).toHaveText(name);
  await expect(page.getByTestId('study-status')).toContainText('taking answers');
  await expect(page.getByTestId('study-sources').getByRole('row', { name: `${SET} 4` })).toBeVisible();

  // One personal link, shown once.
  await page.getByLabel('Personal links').fill('1');
  await page.getByRole('button', { name: 'Create 1 personal link' }).click();
  const personalLink = await page.getByTestId('personal-links').getByRole('textbox').inputValue();
  expect(personalLink).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/rate\/[\w-]+$/);
  await expect(page.getByTestId('participant-table').getByText('not started')).toHaveCount(1);

  // 2. Participant A, in a browser of their own, through the study link: agrees, rates two items and leaves.
  const typedA: Typed = new Map();
  const a = await browser.newContext();
  let pageA = await a.newPage();
  await pageA.goto(studyLink);
  await pageA.waitForURL(/\/rate\/[\w-]+$/);
  const ownLink = pageA.url();
  await expect(pageA.getByRole('heading', { level: 1, name })).toBeVisible();
  await pageA.getByRole('button', { name: 'I agree' }).click();
  await rateItems(pageA, [0, 1], PLAN.a, typedA);
  await expect(progress(pageA)).toHaveText('Item 3 of 4 · 2 complete');
  await pageA.close();

  // The study link again, in the same browser: the same participant, back at the third item.
  pageA = await a.newPage();
  await pageA.goto(studyLink);
  await pageA.waitForURL(ownLink);
  await rateItems(pageA, [2, 3], PLAN.a, typedA);
  await expect(pageA.getByTestId('thank-you')).toContainText('Thank you!');
  await a.close();

  // 3. Participant B, in another browser, through the personal link.
  const typedB: Typed = new Map();
  const b = await browser.newContext();
  const pageB = await b.newPage();
  await pageB.goto(personalLink);
  await pageB.getByRole('button', { name: 'I agree' }).click();
  await rateItems(pageB, [0, 1, 2, 3], PLAN.b, typedB);
  await expect(pageB.getByTestId('thank-you')).toContainText('Thank you!');
  await b.close();

  // Both rated the same four queries: every item has two raters.
  const texts = [...typedA.keys()].sort();
  expect(texts).toHaveLength(ITEMS);
  expect([...typedB.keys()].sort()).toEqual(texts);
  const all = (i: number) => [...typedA.values(), ...typedB.values()].map((v) => v[i]!);
  const units = (i: number) => texts.map((t) => [typedA.get(t)![i]!, typedB.get(t)![i]!]);

  // 4. The curator: two anonymous participants, both finished; then the results.
  await page.reload();
  const participants = page.getByTestId('participant-table');
  await expect(participants.getByRole('row').filter({ hasText: 'anonymous #' })).toHaveCount(2);
  await expect(participants.getByText('not started')).toHaveCount(0);
  await page.getByRole('link', { name: 'Results' }).click();
  await expect(page).toHaveURL(new RegExp(`${studiesPath}/\\d+/results$`));
  await expect(page.getByTestId('results-totals')).toHaveText('2 participants, 24 ratings');

  // Table 5: one source, so its row and "All" hold the same rates.
  await expect(page.getByTestId(`rates-row-${SET}`)).toBeVisible();
  await expect(page.getByTestId('rates-row-all')).toContainText('All');
  const rates = KEYS.map((_, i) => ({ positive: share(all(i), (v) => v > 3), nonNegative: share(all(i), (v) => v >= 3) }));
  // The plan is chosen so that the rates differ between dimensions and are neither 0 nor 100%.
  expect(new Set(rates.map((r) => `${r.positive}/${r.nonNegative}`)).size).toBe(KEYS.length);
  for (const label of [SET, 'all']) {
    for (const [i, key] of KEYS.entries()) {
      await expect(page.getByTestId(`rate-${label}-${key}-positive`)).toHaveText(`${pct(rates[i]!.positive)}%`);
      await expect(page.getByTestId(`rate-${label}-${key}-nonNegative`)).toHaveText(`${pct(rates[i]!.nonNegative)}%`);
    }
  }

  // Agreement: one pair per item, and alpha as computed over the typed pairs (ordinal, items as units).
  const agreement = KEYS.map((_, i) => {
    const pairs = units(i);
    const alpha = krippendorffAlpha(pairs, 'ordinal').alpha;
    expect(alpha).not.toBeNull();
    return {
      alpha: alpha!.toFixed(3),
      withinOne: share(pairs.map(([x, y]) => Math.abs(x! - y!)), (d) => d <= 1),
      exact: share(pairs.map(([x, y]) => Math.abs(x! - y!)), (d) => d === 0),
    };
  });
  for (const [i, key] of KEYS.entries()) {
    await expect(page.getByTestId(`pairs-${key}`)).toHaveText('4');
    await expect(page.getByTestId(`alpha-${key}`)).toHaveText(agreement[i]!.alpha);
    await expect(page.getByTestId(`within-one-${key}`)).toHaveText(`${pct(agreement[i]!.withinOne)}%`);
    await expect(page.getByTestId(`exact-${key}`)).toHaveText(`${pct(agreement[i]!.exact)}%`);
  }

  // The summary download: the same Table-5 rows and agreement.
  const summary = await download(page, 'Summary (Markdown)');
  expect(summary).toContain(`# ${name}\n`);
  expect(summary).toContain('2 participants, 24 ratings.');
  expect(summary).toContain(`| Source | ${LABELS.map((l) => `${l} positive | ${l} non-negative`).join(' | ')} |`);
  const row = rates.flatMap((r) => [pct(r.positive), pct(r.nonNegative)]).join(' | ');
  expect(summary).toContain(`| ${SET} | ${row} |`);
  expect(summary).toContain(`| all | ${row} |`);
  for (const [i, label] of LABELS.entries()) {
    const { alpha, withinOne, exact } = agreement[i]!;
    expect(summary).toMatch(new RegExp(`^\\| ${label} \\| ${alpha.replace('.', '\\.')} \\| [^|]* \\| ${pct(withinOne)} \\| ${pct(exact)} \\| 4 \\|$`, 'm'));
  }

  // The raw ratings: every answer exactly once, with the values typed.
  const lines = (await download(page, 'Ratings (CSV)')).trim().split('\n');
  expect(lines[0]).toBe('participant,participant_kind,item,source,query_id,attention_check,dimension,value,text,rated_at');
  const rows = lines.slice(1).map((line) => {
    const [participant, kind, item, rowSource, , check, dimension, value] = line.split(',');
    return { participant: participant!, kind, item: item!, source: rowSource, check, dimension: dimension!, value: Number(value) };
  });
  expect(rows).toHaveLength(2 * ITEMS * KEYS.length);
  expect(new Set(rows.map((r) => `${r.participant}:${r.item}:${r.dimension}`)).size).toBe(rows.length);
  expect(new Set(rows.map((r) => r.participant)).size).toBe(2);
  expect(new Set(rows.map((r) => r.item)).size).toBe(ITEMS);
  expect(rows.every((r) => r.kind === 'anonymous' && r.source === SET && r.check === 'false')).toBe(true);
  // Each participant's answers on an item, as (naturalness, diversity, practicality), are the ones typed.
  const answered = new Map<string, number[]>();
  for (const r of rows) {
    const triple = answered.get(`${r.participant}:${r.item}`) ?? [0, 0, 0];
    triple[KEYS.indexOf(r.dimension as (typeof KEYS)[number])] = r.value;
    answered.set(`${r.participant}:${r.item}`, triple);
  }
  const triples = (list: number[][]) => list.map((v) => v.join(',')).sort();
  expect(triples([...answered.values()])).toEqual(triples([...PLAN.a, ...PLAN.b]));
});
