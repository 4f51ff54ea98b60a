import type { Browser, BrowserContext, Page } from '@playwright/test';
import { BASE_URL, expect, PUBLIC_KB, test, waitForHydration } from './fixtures';
import { requestOf, setUpPageTable, type PageTable, type Who } from './page-table';
import { disposeSecurityFixtures, setUpSecurityFixtures, type SecurityFixtures } from './security-setup';

/**
 * Every page of the app at a phone's, a tablet's and a desktop's width: nothing is wider than the window (a table
 * or graph that is wider scrolls inside a container of its own), and on a phone the rating screen and the
 * annotator's workspace can be used by touch: every control is at least 24 x 24 px, and a participant rates an
 * item, an annotator writes a query and judges a candidate.
 */

const WIDTHS = [360, 768, 1440] as const;
const kb = `/kb/${PUBLIC_KB.slug}`;
/** WCAG 2.2's minimum target size (2.5.8). */
const MIN_TARGET = 24;

let f: SecurityFixtures;
let table: PageTable;

test.beforeAll(async ({ playwright }) => {
  test.setTimeout(180_000);
  f = await setUpSecurityFixtures(playwright);
  table = await setUpPageTable(f, 'responsive');
});
test.afterAll(async () => disposeSecurityFixtures(f));

/** One browser context per width; switching who is signed in swaps the session cookies. */
class Viewer {
  private who: Who | null = null;
  constructor(readonly context: BrowserContext, readonly page: Page) {}

  private static async open(browser: Browser, width: number): Promise<Viewer> {
    const context = await browser.newContext({ baseURL: BASE_URL, viewport: { width, height: 800 }, hasTouch: width < 768, isMobile: false });
    return new Viewer(context, await context.newPage());
  }

  /** Runs `body` in a context of its own at `width`, closed afterwards whatever happens. */
  static async at(browser: Browser, width: number, body: (viewer: Viewer) => Promise<void>): Promise<void> {
    const viewer = await Viewer.open(browser, width);
    try {
      await body(viewer);
    } finally {
      await viewer.context.close();
    }
  }

  async as(who: Who): Promise<void> {
    if (who === this.who) return;
    await this.context.clearCookies();
    const request = requestOf(f, who);
    if (request) await this.context.addCookies((await request.storageState()).cookies);
    this.who = who;
  }
}

/** Opens a page, waits until React has hydrated it and its data has arrived. */
async function open(page: Page, path: string): Promise<void> {
  const res = await page.goto(path);
  expect(res?.status(), path).toBeLessThan(400);
  await waitForHydration(page.locator('header button, header a, main button, main a, main input').first());
  await page.waitForLoadState('networkidle');
}

/**
 * How far the page is wider than the window, and what sticks out past its right edge where no container
 * clips it or scrolls it on purpose (overflow-x other than visible): for each such part, the outermost element
 * and the innermost ones (whose own content is too wide), which is where to look.
 */
async function overflow(page: Page): Promise<{ by: number; culprits: string[] }> {
  return page.evaluate(() => {
    const width = window.innerWidth;
    const by = document.documentElement.scrollWidth - width;
    const sticksOut = (el: Element) => el.getBoundingClientRect().right > width + 0.5 && el.getBoundingClientRect().width > 0;
    // A container clips what lies in its flow; an absolutely placed element only if the container is at or above
    // the element's containing block (its nearest positioned ancestor), a fixed one never.
    const held = (el: Element) => {
      const position = getComputedStyle(el).position;
      if (position === 'fixed') return false;
      let clipsFromHere = position !== 'absolute';
      for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
        const style = getComputedStyle(p);
        if (!clipsFromHere && style.position !== 'static') clipsFromHere = true;
        if (clipsFromHere && style.overflowX !== 'visible') return true;
      }
      return false;
    };
    const describe = (el: Element, what: string) => {
      const id = el.getAttribute('data-testid') ?? el.id;
      return `${what} <${el.tagName.toLowerCase()}${id ? ` ${id}` : ''} class="${String(el.getAttribute('class') ?? '').slice(0, 60)}"> right ${Math.round(el.getBoundingClientRect().right)}: ${(el.textContent ?? '').trim().slice(0, 40)}`;
    };
    // Inside an SVG the drawing's own box clips what is drawn.
    const out = [...document.body.querySelectorAll('*')].filter((el) => !el.closest('svg > *') && sticksOut(el) && !held(el));
    const outermost = out.filter((el) => !el.parentElement || !out.includes(el.parentElement));
    const innermost = out.filter((el) => ![...el.children].some((c) => out.includes(c)));
    return { by, culprits: [...outermost.map((el) => describe(el, 'outermost')), ...innermost.slice(0, 6).map((el) => describe(el, 'innermost'))] };
  });
}

async function expectNoOverflow(page: Page, state: string): Promise<void> {
  const { by, culprits } = await overflow(page);
  expect.soft(by <= 0 ? [] : [`${by} px too wide`, ...culprits], `${state} at ${page.viewportSize()!.width} px`).toEqual([]);
}

/** The visible controls in the page's main part smaller than 24 x 24 px (a radio or checkbox counts with its label). */
async function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate((min) => {
    const controls = document.querySelectorAll<HTMLElement>('main button, main select, main textarea, main input, main [role="radio"]');
    const small: string[] = [];
    for (const control of controls) {
      const target = (control instanceof HTMLInputElement && ['radio', 'checkbox'].includes(control.type) && control.closest('label')) || control;
      const rect = target.getBoundingClientRect();
      if (rect.width === 0 && rect.height === 0) continue;
      if (getComputedStyle(target).visibility === 'hidden') continue;
      if (rect.width < min || rect.height < min) {
        const name = control.getAttribute('aria-label') ?? control.textContent?.trim() ?? control.getAttribute('name') ?? '';
        small.push(`<${target.tagName.toLowerCase()}> "${name.slice(0, 30)}" ${Math.round(rect.width)}x${Math.round(rect.height)}`);
      }
    }
    return small;
  }, MIN_TARGET);
}

for (const width of WIDTHS) {
  test(`every page fits ${width} px`, async ({ browser }) => {
    test.setTimeout(240_000);
    await Viewer.at(browser, width, async (viewer) => {
      for (const { path, who } of table.pages) {
        await viewer.as(who);
        await open(viewer.page, path);
        await expectNoOverflow(viewer.page, path);
      }
    });
  });
}

test('on a phone, a participant rates an item by touch on the rating screen', async ({ browser }) => {
  await Viewer.at(browser, 360, async ({ page }) => {
    await open(page, `/join/${table.studyLinkToken}`);
    await page.waitForURL(/\/rate\/[A-Za-z0-9_-]{32}$/);
    const agree = page.getByRole('button', { name: 'I agree' });
    await waitForHydration(agree);
    await agree.tap();
    await expect(page.getByTestId('rating-progress')).toContainText('Item 1 of 2');
    await expectNoOverflow(page, 'the rating screen');
    expect(await smallTargets(page), 'controls under 24 x 24 px on the rating screen').toEqual([]);
    for (const name of ['Naturalness', 'Diversity', 'Practicality']) {
      const group = page.getByRole('radiogroup', { name, exact: true });
      // The radio itself is visually hidden: the person taps its label.
      await group.locator('label').nth(3).tap();
      await expect(group.getByRole('radio').nth(3)).toBeChecked();
    }
    await expect(page.getByTestId('save-status')).toHaveText('Saved');
    await page.getByRole('button', { name: /^Next/ }).tap();
    await expect(page.getByTestId('rating-progress')).toContainText('Item 2 of 2 · 1 complete');
    await expectNoOverflow(page, 'the rating screen, second item');
  });
});

test('on a phone, an annotator writes a query and judges a candidate by touch in the workspace', async ({ browser }) => {
  await Viewer.at(browser, 360, async (viewer) => {
    const { page } = viewer;
    await viewer.as('owner');
    await open(page, `${kb}/campaigns/${f.campaignId}/work/${f.assignmentId}`);
    const query = page.getByRole('textbox', { name: 'Query', exact: true });
    await query.tap();
    await query.fill('Which products of this brand weigh under a kilo?');
    await expect(page.getByTestId('save-status')).toContainText('Saved');
    // A step of the relational requirement lists the candidates.
    const step = page.getByRole('combobox', { name: 'Path from the seed: add a step' });
    await step.selectOption((await step.locator('option', { hasText: 'made_of →' }).getAttribute('value'))!);
    const relevant = page.getByTestId('candidate-list').getByRole('button', { name: 'Relevant', exact: true }).first();
    await relevant.tap();
    await expect(relevant).toHaveAttribute('aria-pressed', 'true');
    await expectNoOverflow(page, 'the workspace with a judgment');
    expect(await smallTargets(page), 'controls under 24 x 24 px in the workspace').toEqual([]);
  });
});

test('the app has a favicon, icons and a web manifest, linked from every page', async ({ page, request }) => {
  for (const [path, type] of [['/favicon.ico', 'image/x-icon'], ['/icon.svg', 'image/svg+xml'], ['/apple-icon.png', 'image/png'],
    ['/icon-192.png', 'image/png'], ['/icon-512.png', 'image/png'], ['/manifest.webmanifest', 'application/manifest+json']] as const) {
    const res = await request.get(path);
    expect(res.status(), path).toBe(200);
    expect(res.headers()['content-type'], path).toContain(type);
  }
  const manifest = (await (await request.get('/manifest.webmanifest')).json()) as { name: string; icons: { src: string }[] };
  expect(manifest.name).toBe('SKB Studio');
  for (const icon of manifest.icons) expect((await request.get(icon.src)).status(), icon.src).toBe(200);

  await page.goto('/login');
  await expect(page.locator('head link[rel="icon"][type="image/svg+xml"]')).toHaveAttribute('href', /^\/icon\.svg/);
  await expect(page.locator('head link[rel="apple-touch-icon"]')).toHaveAttribute('href', /^\/apple-icon\.png/);
  await expect(page.locator('head link[rel="manifest"]')).toHaveAttribute('href', '/manifest.webmanifest');
});
