import { readFile } from 'node:fs/promises';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { apiSignIn, CURATOR, PUBLIC_KB, RATER, signIn, waitForHydration, test, expectConsole } from './fixtures';

/**
 * The curator's study pages: a study built through the form over the demo query set and a release of it (mixed
 * blind), opened, with personal links handed out; two participants rate through the participant API, one of
 * them failing the attention check; the results page then shows the STaRK Table-5 rates, agreement and the
 * failed check, leaving that participant out on request, and the downloads carry the same numbers.
 */

const SET = 'demo-catalogue-questions';
const studiesPath = `/kb/${PUBLIC_KB.slug}/studies`;
const uniqueName = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;

type Key = 'naturalness' | 'diversity' | 'practicality' | 'answerable';
const KEYS: Key[] = ['naturalness', 'diversity', 'practicality', 'answerable'];
const SCALES: Key[] = ['naturalness', 'diversity', 'practicality'];

/**
 * What each participant answers on the n-th item (by item id) of each source: the live set ("live") and its
 * release ("release"); yes / no on `answerable`. The second participant fails the attention check.
 */
const PLAN: Record<'first' | 'second', Record<'live' | 'release', Record<Key, number[]>>> = {
  first: {
    live: { naturalness: [5, 4, 3], diversity: [4, 4, 2], practicality: [5, 5, 5], answerable: [1, 1, 0] },
    release: { naturalness: [2, 3, 4], diversity: [1, 2, 5], practicality: [3, 3, 1], answerable: [0, 1, 0] },
  },
  second: {
    live: { naturalness: [4, 2, 3], diversity: [5, 3, 3], practicality: [4, 4, 1], answerable: [1, 0, 0] },
    release: { naturalness: [1, 1, 5], diversity: [2, 2, 4], practicality: [2, 5, 3], answerable: [1, 1, 0] },
  },
};
const ATTENTION_TEXT = 'Please choose 1 on Naturalness for this query.';

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const share = (values: number[], test: (v: number) => boolean) => values.filter(test).length / values.length;

/** The answers of the given participants on one dimension, for one source or for all. */
function answers(who: ('first' | 'second')[], key: Key, source: 'live' | 'release' | 'all'): number[] {
  return who.flatMap((p) => (source === 'all' ? [...PLAN[p].live[key], ...PLAN[p].release[key]] : PLAN[p][source][key]));
}

async function download(page: Page, link: string): Promise<string> {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: link }).click()]);
  return readFile(await file.path(), 'utf8');
}

interface Participation {
  study: { dimensions: { key: string; anchors?: Record<string, string> }[] };
  items: { itemId: number; text: string }[];
}

/** Rates every item of a personal link's participant through the participant API, after consenting. */
async function rate(request: APIRequestContext, token: string, who: 'first' | 'second', sourceOf: Map<number, 'live' | 'release'>): Promise<Participation> {
  // Reading the participation hands nothing out; starting does.
  expect(((await (await request.get(`/api/participate/${token}`)).json()) as Participation).items).toEqual([]);
  const res = await request.post(`/api/participate/${token}/start`);
  expect(res.status()).toBe(200);
  const view = (await res.json()) as Participation;
  expect(view.items).toHaveLength(7);
  // Consent comes first: a rating before it is refused.
  const early = await request.put(`/api/participate/${token}/ratings`, { data: { itemId: view.items[0]!.itemId, dimension: 'naturalness', value: 3 } });
  expect(early.status()).toBe(409);
  expect((await request.post(`/api/participate/${token}/consent`)).status()).toBe(200);
  const seen = { live: 0, release: 0 };
  for (const item of [...view.items].sort((a, b) => a.itemId - b.itemId)) {
    const source = sourceOf.get(item.itemId);
    let values: Record<Key, number>;
    if (source) {
      const n = seen[source]++;
      values = Object.fromEntries(KEYS.map((k) => [k, PLAN[who][source][k][n]!])) as Record<Key, number>;
    } else {
      expect(item.text).toBe(ATTENTION_TEXT);
      values = { naturalness: who === 'first' ? 1 : 4, diversity: 3, practicality: 3, answerable: 1 };
    }
    for (const key of KEYS) {
      const put = await request.put(`/api/participate/${token}/ratings`, { data: { itemId: item.itemId, dimension: key, value: values[key] } });
      expect(put.status(), `${key} of item ${item.itemId}`).toBe(200);
    }
  }
  expect((await request.post(`/api/participate/${token}/finish`)).status()).toBe(200);
  return view;
}

test('a curator builds a study through the form, hands out links and reads its results and downloads', async ({ page, context, playwright }) => {
  // The browser logs the key the server refuses; the message at its dimension is what the test checks.
  expectConsole(/Failed to load resource: the server responded with a status of 400/);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const name = uniqueName('ui-study');
  await signIn(page, CURATOR);

  // A second source: a release of the demo set, so the study mixes the live set and a frozen copy. A set
  // unchanged since its last release cannot be released again: then that last release is the one.
  const releases = `/api/kbs/${PUBLIC_KB.slug}/query-sets/${SET}/releases`;
  const made = await page.request.post(releases, { data: { name: `For ${name}` } });
  expect([201, 409]).toContain(made.status());
  const release = made.status() === 201
    ? ((await made.json()) as { number: number }).number
    : ((await (await page.request.get(releases)).json()) as { items: { number: number }[] }).items[0]!.number;
  const releaseSource = `${SET}@${release}`;

  await page.goto(`/kb/${PUBLIC_KB.slug}`);
  await page.getByRole('navigation', { name: 'Explorer' }).getByRole('link', { name: 'Studies' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Studies' })).toBeVisible();
  await page.getByRole('link', { name: 'New study' }).click();
  await expect(page).toHaveURL(new RegExp(`${studiesPath}/new$`));
  const create = page.getByRole('button', { name: 'Create study' });
  await waitForHydration(create);

  // The instructions start as the default text, previewed as Markdown.
  await expect(page.getByLabel('Instructions', { exact: true })).toHaveValue(/^# Rating queries/);
  await expect(page.getByTestId('sf-instructions-preview').getByRole('heading', { name: 'Rating queries' })).toBeVisible();

  // Nothing chosen yet: refused before anything is sent, each problem at its field.
  await create.click();
  await expect(page.getByTestId('source-row').getByRole('alert')).toHaveText('Choose a query set.');
  await expect(page.getByRole('alert').filter({ hasText: 'Use 1 to 80 letters' })).toBeVisible();

  await page.getByLabel('Name', { exact: true }).fill(name);
  await expect(page.getByRole('alert').filter({ hasText: 'Use 1 to 80 letters' })).toHaveCount(0);
  await page.getByLabel('Consent', { exact: true }).fill('I agree that my ratings are **published** without my name.');
  await expect(page.getByTestId('sf-consent-preview').locator('strong')).toHaveText('published');

  const first = page.getByRole('group', { name: 'Source 1', exact: true });
  await first.getByLabel('Query set').selectOption(SET);
  await first.getByLabel('Sample size').fill('3');
  await page.getByRole('button', { name: 'Add a source' }).click();
  const second = page.getByRole('group', { name: 'Source 2', exact: true });
  await second.getByLabel('Query set').selectOption(SET);
  await second.getByLabel('Version').selectOption(String(release));
  await second.getByLabel('Sample size').fill('3');
  await expect(page.getByTestId('item-total')).toHaveText('6 items in all');

  // An anchor label edited, and a yes / no dimension added (its key follows its label).
  const naturalness = page.getByRole('group', { name: 'Naturalness (scale)', exact: true });
  await expect(naturalness.getByLabel('Label of point 5')).toHaveValue('Strongly agree');
  await naturalness.getByLabel('Label of point 5').fill('Reads as if a person wrote it');
  await page.getByLabel('Kind of the new dimension').selectOption('binary');
  await page.getByRole('button', { name: 'Add dimension' }).click();
  const custom = page.getByRole('group', { name: 'Custom 1 (yes / no)', exact: true });
  await custom.getByLabel('Label', { exact: true }).fill('Answerable');
  const answerable = page.getByRole('group', { name: 'Answerable (yes / no)', exact: true });
  await expect(answerable.getByLabel('Key')).toHaveValue('answerable');
  await answerable.getByLabel('Question').fill('Can the query be answered from the catalogue?');

  await page.getByLabel('Items per participant').fill('6');
  await page.getByLabel('Participants per item').fill('2');
  await page.getByLabel('Seed', { exact: true }).fill('7');
  await expect(page.getByTestId('design-plan')).toHaveText('6 items × 2 raters = 12 item ratings: 2 participants at 6 items each cover them.');

  await page.getByRole('button', { name: 'Add an attention check' }).click();
  const check = page.getByRole('group', { name: 'Check 1', exact: true });
  await check.getByLabel('Text shown as the item').fill(ATTENTION_TEXT);
  await expect(check.getByLabel('Checked on')).toHaveValue(/\d+/);
  await page.getByRole('group', { name: 'Check 1: accepted answers' }).getByRole('checkbox', { name: /^1 / }).check();
  await page.getByLabel(/^Open now/).check();

  // A key the server refuses comes back at its dimension.
  await answerable.getByLabel('Key').fill('Bad key');
  await create.click();
  await expect(answerable.getByRole('alert')).toContainText('a lower-case key');
  await answerable.getByLabel('Key').fill('answerable');
  await create.click();

  // The study link, shown once, with a copy button.
  const shown = page.getByTestId('study-link');
  await expect(shown).toBeVisible();
  const studyLink = await shown.getByRole('textbox').inputValue();
  expect(studyLink).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/join\/[\w-]+$/);
  await shown.getByRole('button', { name: 'Copy link' }).click();
  await expect(shown.getByRole('status')).toHaveText('Copied.');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(studyLink);
  await shown.getByRole('link', { name: 'Go on to the study' }).click();

  await expect(page).toHaveURL(new RegExp(`${studiesPath}/\\d+$`));
  const studyId = Number(new URL(page.url()).pathname.split('/').pop());
  await expect(page.getByTestId('study-name')).toHaveText(name);
  await expect(page.getByTestId('study-status')).toContainText('OPEN');
  await expect(page.getByTestId('study-status')).toContainText('taking answers');
  await expect(page.getByTestId('study-settings')).toContainText('Answerable (yes / no)');
  const sources = page.getByTestId('study-sources');
  await expect(sources.getByRole('row', { name: new RegExp(`^${SET} 3$`) })).toBeVisible();
  await expect(sources.getByRole('row', { name: `${releaseSource} 3` })).toBeVisible();

  // Closing and opening again.
  await page.getByRole('button', { name: 'Close study', exact: true }).click();
  await page.getByTestId('close-confirm').getByRole('button', { name: 'Close study' }).click();
  await expect(page.getByTestId('study-status')).toContainText('CLOSED');
  await page.getByRole('button', { name: 'Reopen' }).click();
  await expect(page.getByTestId('study-status')).toContainText('taking answers');

  // Two personal links, shown once, as a list and as a CSV made in the browser.
  await page.getByLabel('Personal links').fill('2');
  await page.getByRole('button', { name: 'Create 2 personal links' }).click();
  const links = (await page.getByTestId('personal-links').getByRole('textbox').inputValue()).split('\n');
  expect(links).toHaveLength(2);
  for (const link of links) expect(link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/rate\/[\w-]+$/);
  const [csvFile] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
  expect(csvFile.suggestedFilename()).toBe(`study-${studyId}-links.csv`);
  expect(await readFile(await csvFile.path(), 'utf8')).toBe(`number,link\n1,${links[0]}\n2,${links[1]}\n`);
  await expect(page.getByTestId('participant-table').getByText('not started')).toHaveCount(2);

  // A new study link replaces the old one.
  await page.getByRole('button', { name: 'New study link' }).click();
  const renewed = await page.getByTestId('new-study-link').getByRole('textbox').inputValue();
  expect(renewed).not.toBe(studyLink);
  const anonymous = await playwright.request.newContext({ baseURL: new URL(page.url()).origin });
  expect((await anonymous.post(`/api/join/${studyLink.split('/').pop()}`)).status()).toBe(404);

  // The item sources, from the results (participants never see them), then the two participants rate.
  const before = (await (await page.request.get(`/api/studies/${studyId}/results`)).json()) as { items: { itemId: number; source: string }[] };
  const sourceOf = new Map(before.items.map((i) => [i.itemId, i.source === SET ? 'live' as const : 'release' as const]));
  expect(before.items.filter((i) => i.source === releaseSource)).toHaveLength(3);
  const tokens = links.map((l) => l.split('/').pop()!);
  const view = await rate(anonymous, tokens[0]!, 'first', sourceOf);
  expect(view.study.dimensions.find((d) => d.key === 'naturalness')?.anchors?.['5']).toBe('Reads as if a person wrote it');
  await rate(anonymous, tokens[1]!, 'second', sourceOf);
  await anonymous.dispose();

  await page.reload();
  await expect(page.getByTestId('participant-table').getByRole('row').filter({ hasText: 'anonymous #' })).toHaveCount(2);
  await page.getByRole('link', { name: 'Results' }).click();
  await expect(page).toHaveURL(new RegExp(`${studiesPath}/${studyId}/results$`));
  await expect(page.getByTestId('results-totals')).toHaveText('2 participants, 48 ratings');

  // The Table-5 rates per source and for all, as computed from the answers above.
  async function expectRates(who: ('first' | 'second')[]) {
    for (const [source, label] of [['live', SET], ['release', releaseSource], ['all', 'all']] as const) {
      for (const key of SCALES) {
        const values = answers(who, key, source);
        await expect(page.getByTestId(`rate-${label}-${key}-positive`)).toHaveText(pct(share(values, (v) => v > 3)));
        await expect(page.getByTestId(`rate-${label}-${key}-nonNegative`)).toHaveText(pct(share(values, (v) => v >= 3)));
      }
      await expect(page.getByTestId(`rate-${label}-answerable-positive`)).toHaveText(pct(share(answers(who, 'answerable', source), (v) => v === 1)));
    }
  }
  await expectRates(['first', 'second']);

  // Agreement: one pair per item; within one point and exact as counted from the answers.
  for (const key of SCALES) {
    const a = answers(['first'], key, 'all');
    const b = answers(['second'], key, 'all');
    await expect(page.getByTestId(`pairs-${key}`)).toHaveText('6');
    await expect(page.getByTestId(`within-one-${key}`)).toHaveText(pct(a.filter((v, i) => Math.abs(v - b[i]!) <= 1).length / 6));
    await expect(page.getByTestId(`exact-${key}`)).toHaveText(pct(a.filter((v, i) => v === b[i]).length / 6));
    await expect(page.getByTestId(`alpha-${key}`)).toHaveText(/^-?\d\.\d{3}$/);
  }
  await expect(page.getByTestId('mean-all-naturalness')).toHaveText((answers(['first', 'second'], 'naturalness', 'all').reduce((s, v) => s + v, 0) / 12).toFixed(2));
  await expect(page.getByTestId('distribution-naturalness')).toBeVisible();
  await expect(page.getByTestId('set-diversity').getByTestId(`diversity-${SET}`)).toBeVisible();
  await expect(page.getByTestId('set-diversity').getByTestId(`diversity-${releaseSource}`)).toBeVisible();

  // The failed attention check, with what was answered; then that participant left out.
  await expect(page.getByTestId('attention')).toContainText('1 attention check; 1 participant failed at least one.');
  await expect(page.getByTestId('attention-failures')).toContainText(/anonymous #\d+.*\(Naturalness\): answered 4, asked for 1/);
  await page.getByLabel('Leave out failed participants').check();
  await expect(page).toHaveURL(/excludeFailed=1/);
  await expect(page.getByTestId('results-totals')).toHaveText('1 participant, 24 ratings');
  await expectRates(['first']);
  await expect(page.getByTestId('pairs-naturalness')).toHaveText('0');
  await expect(page.getByTestId('alpha-naturalness')).toHaveText('—');
  await expect(page.getByTestId('attention')).toContainText('left out of the results on this page');

  // The summary download follows the exclusion; the raw ratings hold every answer, checks included.
  const summary = await download(page, 'Summary (Markdown)');
  expect(summary).toContain('| Source | Naturalness positive | Naturalness non-negative | Diversity positive | Diversity non-negative | Practicality positive | Practicality non-negative | Answerable (share of 1) |');
  const row = (source: 'live' | 'release', label: string) => `| ${label} | ${[
    ...SCALES.flatMap((k) => [share(answers(['first'], k, source), (v) => v > 3), share(answers(['first'], k, source), (v) => v >= 3)]),
    share(answers(['first'], 'answerable', source), (v) => v === 1),
  ].map((x) => (100 * x).toFixed(1)).join(' | ')} |`;
  expect(summary).toContain(row('live', SET));
  expect(summary).toContain(row('release', releaseSource));
  expect(summary).toContain('1 participant left out for failed attention checks');
  const ratings = (await download(page, 'Ratings (CSV)')).trim().split('\n');
  expect(ratings[0]).toBe('participant,participant_kind,item,source,query_id,attention_check,dimension,value,text,rated_at');
  expect(ratings).toHaveLength(1 + 2 * 7 * 4);
  expect(ratings.filter((l) => l.includes(',attention check,') && l.includes(',true,naturalness,4,'))).toHaveLength(1);

  // The list shows the study with its counts and the way to take part.
  await page.getByRole('navigation', { name: 'Explorer' }).getByRole('link', { name: 'Studies' }).click();
  const listed = page.getByTestId('study-list').getByRole('row').filter({ hasText: name });
  await expect(listed).toContainText('taking answers');
  await expect(listed.getByRole('link', { name: `Take part in ${name}` })).toHaveAttribute('href', `${studiesPath}/${studyId}/rate`);
  // A study of another number, or none, is the 404 page.
  expect((await page.goto(`${studiesPath}/2147483647/results`))?.status()).toBe(404);
});

test('a rater sees the open studies to take part in, but not the curator pages', async ({ page, playwright, baseURL }) => {
  const curator = await playwright.request.newContext({ baseURL });
  await apiSignIn(curator, CURATOR);
  const name = uniqueName('rater-view');
  const res = await curator.post(`/api/kbs/${PUBLIC_KB.slug}/studies`, {
    data: { name, sources: [{ querySet: SET, sample: 2 }], itemsPerParticipant: 2, participantsPerItem: 1, open: true },
  });
  expect(res.status()).toBe(201);
  const { id } = (await res.json()) as { id: number };
  const draft = uniqueName('rater-draft');
  expect((await curator.post(`/api/kbs/${PUBLIC_KB.slug}/studies`, { data: { name: draft, sources: [{ querySet: SET, sample: 1 }], itemsPerParticipant: 1, participantsPerItem: 1 } })).status()).toBe(201);
  await curator.dispose();

  await signIn(page, RATER);
  await page.goto(studiesPath);
  await expect(page.getByRole('link', { name: 'New study' })).toHaveCount(0);
  const row = page.getByTestId('study-list').getByRole('row').filter({ hasText: name });
  await expect(row.getByRole('link', { name: `Take part in ${name}` })).toHaveAttribute('href', `${studiesPath}/${id}/rate`);
  await expect(row.getByRole('link', { name, exact: true })).toHaveCount(0);
  await expect(page.getByTestId('study-list')).not.toContainText(draft);

  for (const path of [`${studiesPath}/new`, `${studiesPath}/${id}`, `${studiesPath}/${id}/results`]) {
    const answer = await page.goto(path);
    expect(answer?.status(), path).toBe(403);
  }
  expect((await page.request.get(`/api/studies/${id}/results`)).status()).toBe(403);
});
