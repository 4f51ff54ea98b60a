import AxeBuilder from '@axe-core/playwright';
import { expect, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import { apiContext, CURATOR, expectConsole, PUBLIC_KB, signIn, test } from './fixtures';

/**
 * A study recruited on Prolific: the curator sets the link up on the study page, participants arrive with
 * PROLIFIC_PID, STUDY_ID and SESSION_ID on a phone, rate, and land back on Prolific's completion address with the
 * code; failing the attention check twice, arriving after the cap, after closing, or a second time, each ends
 * on a clear page with the right code.
 */

const ATTENTION = 'To show that you are reading, choose 1 on naturalness.';
const COMPLETED = 'C0MPL3TE';
const SCREENED = 'SCRN0UT';
const PROLIFIC_DONE = 'https://app.prolific.com/submissions/complete';
const PHONE = { width: 390, height: 844 };

/** A participant's browser on a phone, with Prolific's completion page stood in for (there is no internet here). */
async function phone(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ viewport: PHONE });
  await context.route('https://app.prolific.com/**', (route) => route.fulfill({ contentType: 'text/html', body: '<title>Prolific</title><h1>Submission received</h1>' }));
  return context.newPage();
}

/** The study link as Prolific fills it in for one participant. */
const arrival = (link: string, pid: string) => link
  .replace('{{%PROLIFIC_PID%}}', pid).replace('{{%STUDY_ID%}}', '65a0f00d5e11e2d7c0ffee01').replace('{{%SESSION_ID%}}', `s-${pid}`);

async function noSidewaysScroll(page: Page): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
}

/** Rates the shown items with number keys (1 on the attention check, 3 elsewhere) until the last one is sent. */
async function rateAll(page: Page): Promise<void> {
  for (;;) {
    await expect(page.getByRole('heading', { level: 2, name: /^Query \d+$/ })).toBeFocused();
    const text = await page.getByTestId('item-text').textContent();
    for (const key of text === ATTENTION ? ['1', '3', '3'] : ['3', '3', '3']) await page.keyboard.press(key);
    await expect(page.getByTestId('save-status')).toHaveText('Saved');
    const progress = (await page.getByTestId('rating-progress').textContent())!;
    const last = /Item (\d+) of \1\b/.test(progress);
    await page.keyboard.press('Enter');
    if (last) return;
  }
}

/** The outcome page with its code, and the button back to Prolific unless the outcome has no address. */
async function expectOutcome(page: Page, title: string, code: string, returns = true): Promise<void> {
  const outcome = page.getByTestId('crowd-outcome');
  await expect(outcome.getByRole('heading', { level: 1 })).toHaveText(title);
  await expect(outcome.getByTestId('crowd-code')).toHaveText(code);
  const back = outcome.getByRole('link', { name: 'Return to Prolific' });
  if (returns) await expect(back).toHaveAttribute('href', `${PROLIFIC_DONE}?cc=${code}`);
  else await expect(back).toHaveCount(0);
  await noSidewaysScroll(page);
}

/** No serious or critical WCAG 2.1 A/AA violation on the page as it is. */
async function accessible(page: Page): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help}`)).toEqual([]);
}

let curator: APIRequestContext;
test.beforeAll(async ({ playwright }) => {
  curator = await apiContext(playwright, CURATOR);
});
test.afterAll(async () => curator.dispose());

test('a curator sets a study up for Prolific; participants on phones finish, fail attention, come back, or arrive too late', async ({ page, browser }) => {
  // The address that is not a web address is refused on purpose; the browser logs the refusal.
  expectConsole(/Failed to load resource: the server responded with a status of 400/);
  test.setTimeout(180_000);
  const name = `crowd-${Date.now().toString(36)}`;
  const created = await curator.post(`/api/kbs/${PUBLIC_KB.slug}/studies`, {
    data: {
      name, sources: [{ querySet: 'demo-catalogue-questions', sample: 9 }], itemsPerParticipant: 2, participantsPerItem: 1, open: true,
      attentionChecks: [{ text: ATTENTION, dimension: 'naturalness', accept: [1] }],
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const study = (await created.json()) as { id: number };

  // The curator: Prolific, its codes (Prolific's own addresses), a second try at attention checks.
  await signIn(page, CURATOR);
  await page.goto(`/kb/${PUBLIC_KB.slug}/studies/${study.id}`);
  const panel = page.getByTestId('crowd-panel');
  await panel.getByLabel('Recruiting platform').selectOption('prolific');
  await expect(panel).toContainText('Captured from the link: PROLIFIC_PID, STUDY_ID, SESSION_ID');
  // An address that is not a web address is refused, naming the field.
  await panel.getByLabel('Completed code').fill(COMPLETED);
  await panel.getByLabel('Completed address').fill('ftp://example.org/done');
  await panel.getByRole('button', { name: 'Save platform settings' }).click();
  await expect(panel.getByRole('alert')).toContainText('crowd.completed.url: must be an http:// or https:// address');
  await panel.getByLabel('Completed address').fill('');
  await panel.getByLabel('Screened out code').fill(SCREENED);
  await panel.getByLabel('Allow a second try at each attention check').check();
  await accessible(page);
  await panel.getByRole('button', { name: 'Save platform settings' }).click();
  await expect(panel.getByRole('status')).toHaveText('Saved.');
  await expect(panel.getByTestId('crowd-link')).toContainText('?PROLIFIC_PID={{%PROLIFIC_PID%}}&STUDY_ID={{%STUDY_ID%}}&SESSION_ID={{%SESSION_ID%}}');
  await expect(page.getByTestId('study-settings')).toContainText('yes, for Prolific');
  await page.getByRole('button', { name: 'New study link' }).click();
  const link = await page.getByTestId('new-study-link').getByRole('textbox').inputValue();
  expect(link).toMatch(/\/join\/[\w-]{32}\?PROLIFIC_PID=\{\{%PROLIFIC_PID%\}\}&STUDY_ID=\{\{%STUDY_ID%\}\}&SESSION_ID=\{\{%SESSION_ID%\}\}$/);

  // A participant from Prolific, on a phone: starts, rates, finishes, sees the code and is sent back to Prolific.
  const first = await phone(browser);
  await first.goto(arrival(link, 'pid-finisher'));
  await first.waitForURL(/\/rate\/[\w-]{32}$/);
  await expect(first.getByRole('heading', { level: 1, name })).toBeVisible();
  await noSidewaysScroll(first);
  await first.getByRole('button', { name: 'Start' }).click();
  await rateAll(first);
  await expectOutcome(first, 'Thank you! You have completed this study', COMPLETED);
  await first.waitForURL(`${PROLIFIC_DONE}?cc=${COMPLETED}`);
  await expect(first.getByRole('heading', { name: 'Submission received' })).toBeVisible();

  // The same participant again: their completion page and code, not a second participation.
  const again = await phone(browser);
  await again.goto(arrival(link, 'pid-finisher'));
  await expectOutcome(again, 'Thank you! You have completed this study', COMPLETED);
  await again.getByRole('link', { name: 'Return to Prolific' }).click();
  await again.waitForURL(`${PROLIFIC_DONE}?cc=${COMPLETED}`);

  // Another fails the attention check twice: asked to read it again, then screened out with the screen-out code.
  const careless = await phone(browser);
  await careless.goto(arrival(link, 'pid-careless'));
  await careless.getByRole('button', { name: 'Start' }).click();
  for (;;) {
    await expect(careless.getByRole('heading', { level: 2, name: /^Query \d+$/ })).toBeFocused();
    if (await careless.getByTestId('item-text').textContent() === ATTENTION) break;
    for (const key of ['3', '3', '3']) await careless.keyboard.press(key);
    await expect(careless.getByTestId('save-status')).toHaveText('Saved');
    await careless.keyboard.press('Enter');
  }
  await careless.keyboard.press('4');
  await expect(careless.getByTestId('attention-retry')).toContainText('Read it again and answer once more (1 more try)');
  await expect(careless.getByRole('radiogroup', { name: 'Naturalness', exact: true }).getByRole('radio', { checked: true })).toHaveCount(0);
  await careless.keyboard.press('4');
  await expectOutcome(careless, 'This study has ended for you', SCREENED);

  // Past the cap (two are in), and after closing: new participants get the screen-out page at once.
  const settings = { platform: 'prolific', completed: { code: COMPLETED, url: `${PROLIFIC_DONE}?cc=${COMPLETED}` }, screenedOut: { code: SCREENED, url: `${PROLIFIC_DONE}?cc=${SCREENED}` }, attentionAttempts: 2 };
  expect((await curator.put(`/api/studies/${study.id}/crowd`, { data: { crowd: { ...settings, cap: 2 } } })).status()).toBe(200);
  const late = await phone(browser);
  await late.goto(arrival(link, 'pid-late'));
  await expectOutcome(late, 'This study is full', SCREENED);
  await late.waitForURL(`${PROLIFIC_DONE}?cc=${SCREENED}`);

  // After closing, with a screen-out code but no address: the page shows the code and stays.
  expect((await curator.put(`/api/studies/${study.id}/crowd`, { data: { crowd: { ...settings, screenedOut: { code: SCREENED, url: null } } } })).status()).toBe(200);
  expect((await curator.patch(`/api/studies/${study.id}`, { data: { status: 'CLOSED' } })).status()).toBe(200);
  const closed = await phone(browser);
  await closed.goto(arrival(link, 'pid-after-closing'));
  await expectOutcome(closed, 'This study has closed', SCREENED, false);
  await accessible(closed);
  await expect(closed).toHaveURL(/\/join\//);

  // The participants' export has their Prolific ids, outcomes, codes and times per item.
  const csv = await (await curator.get(`/api/studies/${study.id}/export?format=participants-csv`)).text();
  const rows = (parse(csv) as string[][]).slice(1);
  const finisher = rows.filter((r) => r[2] === 'pid-finisher');
  expect(finisher).toHaveLength(3);
  for (const r of finisher) expect([r[1], r[6], r[7]]).toEqual(['crowd', 'completed', COMPLETED]);
  expect(rows.find((r) => r[2] === 'pid-careless')!.slice(6, 9)).toEqual(['attention-failed', SCREENED, '2']);
  expect(rows.some((r) => r[2] === 'pid-late' || r[2] === 'pid-after-closing')).toBe(false);
});
