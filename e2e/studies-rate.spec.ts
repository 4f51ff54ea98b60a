import { expect, type APIRequestContext, type Page, type PlaywrightWorkerArgs } from '@playwright/test';
import { apiSignIn, CURATOR, PUBLIC_KB, RATER, signIn, test, expectConsole } from './fixtures';

/**
 * The participant's rating screen: anonymous participants through the study link and a personal link, and a
 * signed-in rater, each rating with the keyboard only; stop and resume; every answer stored exactly once.
 */

const ATTENTION = 'To show that you are reading, choose 1 on naturalness.';
const SCALES = ['Naturalness', 'Diversity', 'Practicality'] as const;
const KEYS = ['naturalness', 'diversity', 'practicality'] as const;

async function context(playwright: PlaywrightWorkerArgs['playwright'], baseURL: string | undefined, email?: string): Promise<APIRequestContext> {
  const request = await playwright.request.newContext({ baseURL });
  if (email) await apiSignIn(request, email);
  return request;
}

interface Created {
  id: number;
  linkToken: string;
}

async function createStudy(curator: APIRequestContext, name: string, extra: Record<string, unknown>): Promise<Created> {
  const res = await curator.post(`/api/kbs/${PUBLIC_KB.slug}/studies`, {
    data: { name, sources: [{ querySet: 'demo-catalogue-questions', sample: 9 }], participantsPerItem: 1, open: true, ...extra },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as Created;
}

/** What a participant types for a query: 1 on naturalness for the attention check, else values from its text. */
function valuesFor(text: string): number[] {
  if (text === ATTENTION) return [1, 3, 3];
  let h = 0;
  for (const c of text) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  return [1 + (h % 5), 1 + ((h >>> 3) % 5), 1 + ((h >>> 6) % 5)];
}

const progress = (page: Page) => page.getByTestId('rating-progress');
const scale = (page: Page, label: string) => page.getByRole('radiogroup', { name: label, exact: true });

/** Each item starts with the focus on its heading (and the screen listening for keys). */
async function itemReady(page: Page): Promise<void> {
  await expect(page.getByRole('heading', { level: 2, name: /^Query \d+$/ })).toBeFocused();
}

/** Rates the shown item with number keys alone (no scale focused: each key fills the next unanswered scale). */
async function rateShownItem(page: Page, typed: Map<string, number[]>): Promise<number[]> {
  await itemReady(page);
  const text = (await page.getByTestId('item-text').textContent())!;
  const values = valuesFor(text);
  for (const v of values) await page.keyboard.press(String(v));
  for (const [i, label] of SCALES.entries()) {
    await expect(scale(page, label).getByRole('radio', { name: new RegExp(`^${values[i]} `) })).toBeChecked();
  }
  await expect(page.getByTestId('save-status')).toHaveText('Saved');
  typed.set(text, values);
  return values;
}

/** Rates items with the keyboard, Enter after each, until the thank-you screen. */
async function rateToTheEnd(page: Page, typed: Map<string, number[]>, total: number): Promise<void> {
  for (;;) {
    await rateShownItem(page, typed);
    const last = (await progress(page).textContent())!.includes(`Item ${total} of ${total}`);
    await page.keyboard.press('Enter');
    if (last) break;
  }
  await expect(page.getByTestId('thank-you')).toContainText('Thank you!');
}

interface Results {
  ratings: number;
  attention: { checks: number; failed: unknown[] };
  items: { text: string; raters: number; dimensions: Record<string, { n: number; mean: number }> }[];
}

test('anonymous participants rate by keyboard through both kinds of link, stop, resume and finish; answers are stored once', async ({ playwright, browser, baseURL }) => {
  // Unknown links (404) and changes after finishing (409) are refused on purpose; the browser logs each refusal.
  expectConsole(/Failed to load resource: the server responded with a status of (404|409)/);
  test.setTimeout(150_000);
  const curator = await context(playwright, baseURL, CURATOR);
  const name = `rate-ui-${Date.now().toString(36)}`;
  const study = await createStudy(curator, name, {
    consent: 'I agree that my **ratings** are used for research.',
    itemsPerParticipant: 3,
    attentionChecks: [{ text: ATTENTION, dimension: 'naturalness', accept: [1] }],
  });
  const personal = await curator.post(`/api/studies/${study.id}/links`, { data: { count: 2 } });
  expect(personal.status()).toBe(201);
  const [tokenB, spareToken] = ((await personal.json()) as { tokens: string[] }).tokens as [string, string];
  const typed = new Map<string, number[]>();

  // Participant A, through the study link: consent, two items, then stops and closes the page.
  const a = await browser.newContext();
  let page = await a.newPage();
  await page.goto(`/join/${study.linkToken}`);
  await page.waitForURL(/\/rate\/[A-Za-z0-9_-]{32}$/);
  const rateA = page.url();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Sign in' })).toBeVisible();
  await page.getByRole('button', { name: 'I agree' }).click();
  await expect(progress(page)).toContainText('Item 1 of 4');
  await rateShownItem(page, typed);
  await page.keyboard.press('Enter');
  await expect(progress(page)).toContainText('Item 2 of 4 · 1 complete');
  const secondText = (await page.getByTestId('item-text').textContent())!;
  const second = await rateShownItem(page, typed);
  await page.getByRole('button', { name: 'Stop for now' }).click();
  await expect(page.getByTestId('stopped')).toContainText('Your answers so far are saved');
  await expect(page.getByTestId('resume-link')).toHaveText(rateA);
  await page.close();

  // The same personal link resumes at the first item without all its answers; earlier answers are kept.
  page = await a.newPage();
  await page.goto(rateA);
  await expect(progress(page)).toContainText('Item 3 of 4 · 2 complete');
  await page.getByRole('button', { name: 'Previous' }).click();
  await expect(page.getByTestId('item-text')).toHaveText(secondText);
  for (const [i, label] of SCALES.entries()) {
    await expect(scale(page, label).getByRole('radio', { name: new RegExp(`^${second[i]} `) })).toBeChecked();
  }
  await page.close();

  // Opening the study link again on this browser is the same participant, not a new one.
  page = await a.newPage();
  await page.goto(`/join/${study.linkToken}`);
  await page.waitForURL(rateA);
  await expect(progress(page)).toContainText('Item 3 of 4 · 2 complete');
  const third = await rateShownItem(page, typed);
  // A number key on a focused scale changes that scale; pressed twice, it is still one answer.
  const thirdText = (await page.getByTestId('item-text').textContent())!;
  const changed = third[1] === 5 ? 4 : 5;
  await scale(page, 'Diversity').getByRole('radio', { checked: true }).focus();
  await page.keyboard.press(String(changed));
  await page.keyboard.press(String(changed));
  await expect(scale(page, 'Diversity').getByRole('radio', { name: new RegExp(`^${changed} `) })).toBeChecked();
  await expect(scale(page, 'Diversity').getByRole('radio', { name: new RegExp(`^${changed} `) })).toBeFocused();
  await expect(page.getByTestId('save-status')).toHaveText('Saved');
  typed.set(thirdText, [third[0]!, changed, third[2]!]);
  await page.keyboard.press('Enter');
  await expect(progress(page)).toContainText('Item 4 of 4');
  await rateToTheEnd(page, typed, 4);
  await a.close();

  // Participant B, through a personal link, in another browser; Enter waits for every scale.
  const b = await browser.newContext();
  page = await b.newPage();
  await page.goto(`/rate/${tokenB}`);
  await page.getByRole('button', { name: 'I agree' }).click();
  await expect(progress(page)).toContainText('Item 1 of 4');
  await itemReady(page);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('rating-hint')).toContainText('Answer every required scale');
  await expect(progress(page)).toContainText('Item 1 of 4');
  await rateToTheEnd(page, typed, 4);

  // Finished: the answers are shown read-only, keys only move between items, and a change is refused.
  await page.reload();
  await expect(page.getByTestId('thank-you')).toContainText('can no longer be changed');
  await expect(page.getByTestId('read-only')).toBeVisible();
  await expect(progress(page)).toContainText('Item 1 of 4 · 4 complete');
  await itemReady(page);
  const chosen = (await scale(page, 'Naturalness').getByRole('radio', { checked: true }).getAttribute('value'))!;
  await expect(scale(page, 'Naturalness').getByRole('radio', { checked: true })).toBeDisabled();
  await page.keyboard.press(chosen === '5' ? '4' : '5');
  await expect(scale(page, 'Naturalness').getByRole('radio', { checked: true })).toHaveAttribute('value', chosen);
  await page.keyboard.press('Enter');
  await expect(progress(page)).toContainText('Item 2 of 4');
  await expect(page.getByRole('button', { name: 'Stop for now' })).toHaveCount(0);
  const finishedView = (await (await b.request.get(`/api/participate/${tokenB}`)).json()) as { items: { itemId: number }[] };
  const change = await b.request.put(`/api/participate/${tokenB}/ratings`, { data: { itemId: finishedView.items[0]!.itemId, dimension: 'naturalness', value: 3 } });
  expect(change.status()).toBe(409);
  expect(((await change.json()) as { error: string }).error).toContain('finished');
  await b.close();

  // The curator sees each answer once, with the values typed.
  const participants = ((await (await curator.get(`/api/studies/${study.id}/participants`)).json()) as { items: { account: string | null; items: number; finishedAt: string | null }[] }).items;
  const started = participants.filter((p) => p.items > 0);
  expect(started).toHaveLength(2);
  expect(started.every((p) => p.account === null && p.finishedAt !== null)).toBe(true);
  const results = (await (await curator.get(`/api/studies/${study.id}/results`)).json()) as Results;
  expect(results.ratings).toBe(2 * 3 * 3);
  expect(results.attention).toMatchObject({ checks: 1, failed: [] });
  // Six queries, three each, and the attention check both were given.
  expect(typed.size).toBe(7);
  for (const [text, values] of typed) {
    if (text === ATTENTION) continue;
    const item = results.items.find((i) => i.text === text)!;
    expect(item, text).toBeDefined();
    expect(item.raters).toBe(1);
    for (const [i, key] of KEYS.entries()) expect(item.dimensions[key]).toMatchObject({ n: 1, mean: values[i] });
  }
  const raw = (await (await curator.get(`/api/studies/${study.id}/export?format=ratings-jsonl`)).text()).trim().split('\n')
    .map((line) => JSON.parse(line) as { participant: number; item: number; dimension: string });
  expect(raw).toHaveLength(2 * 4 * 3);
  expect(new Set(raw.map((r) => `${r.participant}:${r.item}:${r.dimension}`)).size).toBe(raw.length);

  // A participant token reaches its own study only: another study's item is not found.
  const anonymous = await context(playwright, baseURL);
  const other = await createStudy(curator, `${name}-other`, { itemsPerParticipant: 2 });
  const { token: otherToken } = (await (await anonymous.post(`/api/join/${other.linkToken}`)).json()) as { token: string };
  const otherItem = ((await (await anonymous.post(`/api/participate/${otherToken}/start`)).json()) as { items: { itemId: number }[] }).items[0]!.itemId;
  const tokenA = rateA.split('/').pop()!;
  const foreign = await anonymous.put(`/api/participate/${tokenA}/ratings`, { data: { itemId: otherItem, dimension: 'naturalness', value: 3 } });
  expect(foreign.status()).toBe(404);
  const ownView = (await (await anonymous.get(`/api/participate/${tokenA}`)).json()) as { items: { itemId: number }[] };
  expect(ownView.items.map((i) => i.itemId)).not.toContain(otherItem);

  // Invalid links say so.
  const c = await browser.newContext();
  page = await c.newPage();
  await page.goto(`/rate/${'x'.repeat(32)}`);
  await expect(page.getByRole('heading', { name: 'This link is not valid' })).toBeVisible();
  await page.goto('/join/not-a-study-link');
  await expect(page.getByRole('heading', { name: 'This study link is not valid' })).toBeVisible();

  // Closing the study: a participant midway is told so when answering, and on every visit after.
  await page.goto(`/rate/${spareToken}`);
  await page.getByRole('button', { name: 'I agree' }).click();
  await rateShownItem(page, typed);
  await page.keyboard.press('Enter');
  expect((await curator.patch(`/api/studies/${study.id}`, { data: { status: 'CLOSED' } })).status()).toBe(200);
  await itemReady(page);
  await page.keyboard.press('3');
  await expect(page.getByTestId('not-open')).toContainText('This study has closed');
  await page.reload();
  await expect(page.getByTestId('not-open')).toContainText('This study has closed');
  await expect(page.getByRole('radio')).toHaveCount(0);
  await page.goto(`/join/${study.linkToken}`);
  await expect(page.getByRole('heading', { name: 'This study is not taking answers now' })).toBeVisible();
  // The answers given before closing are kept; the refused one is not stored.
  const rows = (await (await curator.get(`/api/studies/${study.id}/export?format=ratings-jsonl`)).text()).trim().split('\n');
  expect(rows).toHaveLength(2 * 4 * 3 + 3);
  await c.close();
  await anonymous.dispose();
  await curator.dispose();
});

test('a signed-in rater takes part from the knowledge base, by keyboard, on a scale, a yes/no and a comment', async ({ page, playwright, baseURL }) => {
  test.setTimeout(90_000);
  const curator = await context(playwright, baseURL, CURATOR);
  const name = `rate-ui-rater-${Date.now().toString(36)}`;
  const study = await createStudy(curator, name, {
    itemsPerParticipant: 2,
    showAnswers: true,
    dimensions: [
      { kind: 'scale', key: 'naturalness', label: 'Naturalness', min: 1, max: 5, anchors: { 1: 'Not at all', 5: 'Completely' } },
      { kind: 'binary', key: 'answerable', label: 'Answerable', question: 'The answers shown answer the query.' },
      { kind: 'text', key: 'comment', label: 'Comment' },
    ],
  });
  const ratePath = `/kb/${PUBLIC_KB.slug}/studies/${study.id}/rate`;

  const anonymous = await context(playwright, baseURL);
  const signedOut = await anonymous.get(ratePath, { maxRedirects: 0 });
  expect(signedOut.headers()['location']).toContain('/login');

  await signIn(page, RATER);
  await page.goto(ratePath);
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await page.getByRole('button', { name: 'Start' }).click();
  await expect(progress(page)).toContainText('Item 1 of 2');
  await expect(page.getByTestId('item-answers').getByRole('listitem').first()).toBeVisible();

  // Item 1: 2 on the scale, "Yes" (key 1), then Tab to the comment, type it, Tab on to Next and press Enter.
  await itemReady(page);
  const first = (await page.getByTestId('item-text').textContent())!;
  await page.keyboard.press('2');
  await page.keyboard.press('1');
  await expect(scale(page, 'Naturalness').getByRole('radio', { name: '2', exact: true })).toBeChecked();
  await expect(scale(page, 'Answerable').getByRole('radio', { name: 'Yes' })).toBeChecked();
  for (let i = 0; i < 3; i++) await page.keyboard.press('Tab');
  await expect(page.getByRole('textbox', { name: 'Comment (optional)' })).toBeFocused();
  await page.keyboard.type('Too vague 1');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Next' })).toBeFocused();
  await expect(page.getByTestId('save-status')).toHaveText('Saved');
  await page.keyboard.press('Enter');

  // Item 2: 5 and "No" (key 0), no comment; Enter finishes.
  await expect(progress(page)).toContainText('Item 2 of 2 · 1 complete');
  await itemReady(page);
  const second = (await page.getByTestId('item-text').textContent())!;
  await page.keyboard.press('5');
  await page.keyboard.press('0');
  await expect(scale(page, 'Answerable').getByRole('radio', { name: 'No' })).toBeChecked();
  await expect(page.getByTestId('save-status')).toHaveText('Saved');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('thank-you')).toContainText('Thank you!');

  const participants = ((await (await curator.get(`/api/studies/${study.id}/participants`)).json()) as { items: { account: string | null; rated: number; finishedAt: string | null }[] }).items;
  expect(participants).toEqual([expect.objectContaining({ account: RATER, rated: 2, finishedAt: expect.any(String) })]);
  const raw = (await (await curator.get(`/api/studies/${study.id}/export?format=ratings-jsonl`)).text()).trim().split('\n')
    .map((line) => JSON.parse(line) as { participant_kind: string; dimension: string; value: number | null; text: string | null; item: number });
  expect(raw.every((r) => r.participant_kind === 'account')).toBe(true);
  const results = (await (await curator.get(`/api/studies/${study.id}/results`)).json()) as Results;
  const byText = (text: string) => results.items.find((i) => i.text === text)!;
  expect(byText(first).dimensions).toMatchObject({ naturalness: { n: 1, mean: 2 }, answerable: { n: 1, mean: 1 } });
  expect(byText(second).dimensions).toMatchObject({ naturalness: { n: 1, mean: 5 }, answerable: { n: 1, mean: 0 } });
  expect(raw.map((r) => [r.dimension, r.value, r.text]).sort()).toEqual([
    ['answerable', 0, null], ['answerable', 1, null], ['comment', null, 'Too vague 1'], ['naturalness', 2, null], ['naturalness', 5, null],
  ].sort());
  await anonymous.dispose();
  await curator.dispose();
});
