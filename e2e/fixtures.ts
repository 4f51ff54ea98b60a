import { test as base, expect, type APIRequestContext, type BrowserContext, type Locator, type Page, type PlaywrightWorkerArgs } from '@playwright/test';

export const E2E_PORT = 3210;
export const BASE_URL = `http://127.0.0.1:${E2E_PORT}`;

/** Password of the four demo accounts on the test server (passed as SKB_DEMO_PASSWORD). */
export const TEST_PASSWORD = 'e2e-demo-Passw0rd!';

export const ADMIN = 'admin@demo.local';
export const CURATOR = 'curator@demo.local';
export const ANNOTATOR = 'annotator@demo.local';
export const RATER = 'rater@demo.local';

export const PUBLIC_KB = { slug: 'demo-catalogue', name: 'Demo product catalogue' } as const;
export const PRIVATE_KB = { slug: 'demo-brand-registry', name: 'Demo brand registry (private)' } as const;

/** An email nobody has used yet, so tests that create users can run any number of times. */
export function uniqueEmail(prefix: string): string {
  return `${prefix}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@e2e.local`;
}

/**
 * Waits until React has hydrated a server-rendered element, i.e. its event handlers are attached.
 * Clicking before that would, for a form, submit it natively (credentials in the URL) or, for a
 * button, do nothing. React marks hydrated DOM nodes with a `__reactProps$<random>` property.
 */
export async function waitForHydration(locator: Locator): Promise<void> {
  await expect
    .poll(() => locator.evaluate((el) => Object.keys(el).some((k) => k.startsWith('__reactProps$'))), {
      message: 'element is hydrated by React',
    })
    .toBe(true);
}

/** Fills and submits the sign-in form at /login (or the page already shown); does not wait for the outcome. */
export async function submitLogin(page: Page, email: string, password: string): Promise<void> {
  if (!new URL(page.url()).pathname.startsWith('/login')) await page.goto('/login');
  const button = page.getByRole('button', { name: 'Sign in', exact: true });
  await waitForHydration(button);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await button.click();
}

/** Signs in through the form like a person would and waits for the list of knowledge bases. */
export async function signIn(page: Page, email: string, password: string = TEST_PASSWORD): Promise<void> {
  await page.goto('/login');
  await submitLogin(page, email, password);
  await expect(page.getByTestId('kb-list')).toBeVisible();
  await expect(page.getByTestId('current-user')).toContainText(email);
}

/**
 * Signs an API request context in through next-auth's credentials endpoint (what the form posts to),
 * so the context carries the session cookie for API calls.
 */
export async function apiSignIn(request: APIRequestContext, email: string, password: string = TEST_PASSWORD): Promise<void> {
  const csrf = await request.get('/api/auth/csrf');
  expect(csrf.ok()).toBe(true);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const res = await request.post('/api/auth/callback/credentials', {
    form: { csrfToken, email, password, json: 'true' },
  });
  expect(res.ok(), `sign-in of ${email} answered ${res.status()}`).toBe(true);
  const session = await request.get('/api/auth/session');
  expect(((await session.json()) as { user?: { email?: string } }).user?.email).toBe(email);
}

export interface ApiUser {
  id: number;
  email: string;
  name: string | null;
  role: string;
}

/** The users as the admin API lists them (the context must be signed in as an admin). */
export async function listUsers(request: APIRequestContext): Promise<ApiUser[]> {
  const res = await request.get('/api/users');
  expect(res.status()).toBe(200);
  return ((await res.json()) as { users: ApiUser[] }).users;
}

export async function userId(request: APIRequestContext, email: string): Promise<number> {
  const user = (await listUsers(request)).find((u) => u.email === email);
  if (!user) throw new Error(`No user ${email}`);
  return user.id;
}

/** A fresh API context, signed in as `email` (anonymous without one); dispose it when done. */
export async function apiContext(playwright: PlaywrightWorkerArgs['playwright'], email?: string, password?: string): Promise<APIRequestContext> {
  const request = await playwright.request.newContext({ baseURL: BASE_URL });
  if (email) await apiSignIn(request, email, password);
  return request;
}

/** Messages a test has said it causes on purpose (see `expectConsole`); emptied before every test. */
const expectedConsole: RegExp[] = [];

/**
 * Declares a console message the current test causes on purpose, such as Chromium's "Failed to load resource"
 * line for a page the test opens to see it answer 404; any other error or warning still fails the test.
 */
export function expectConsole(pattern: RegExp): void {
  expectedConsole.push(pattern);
}

/**
 * Records the browser's errors and warnings in every page of a context: console messages and uncaught errors.
 * Left out: Chromium's "Failed to load resource" line for a page the test navigated to that answered 4xx/5xx,
 * which the test sees (and checks) in the navigation's response; the same line for anything else counts.
 */
function watchContext(context: BrowserContext, problems: string[]): void {
  const failedPages = new Set<string>();
  context.on('response', (res) => {
    if (res.status() >= 400 && res.request().isNavigationRequest() && !res.frame().parentFrame()) failedPages.add(res.url());
  });
  context.on('console', (msg) => {
    if (msg.type() !== 'error' && msg.type() !== 'warning') return;
    const text = msg.text();
    const at = msg.location().url || msg.page()?.url() || '';
    if (text.startsWith('Failed to load resource') && failedPages.has(at)) return;
    if (expectedConsole.some((p) => p.test(text))) return;
    problems.push(`console ${msg.type()} on ${at}: ${text}`);
  });
  context.on('weberror', (err) => problems.push(`uncaught error on ${err.page()?.url() ?? ''}: ${err.error().message}`));
}

/**
 * `test` that fails on any error or warning the browser logs (console errors and warnings, uncaught errors) in
 * any page of the test, its own `page` and those of contexts it opens itself; and on any Content-Security-Policy
 * violation: those Chromium logs to the console, and those the page's `securitypolicyviolation` event reports
 * (also for reports the console leaves out).
 */
export const test = base.extend<{ consoleProblems: void }>({
  consoleProblems: [async ({ context, browser }, use) => {
    expectedConsole.length = 0;
    const problems: string[] = [];
    watchContext(context, problems);
    // Contexts the test opens itself (another user, another viewport) are watched too.
    const newContext = browser.newContext.bind(browser);
    browser.newContext = async (options) => {
      const made = await newContext(options);
      watchContext(made, problems);
      return made;
    };
    try {
      await use();
    } finally {
      browser.newContext = newContext;
    }
    expect(problems, 'errors and warnings in the browser console').toEqual([]);
  }, { auto: true }],
  page: async ({ page }, use) => {
    const violations: string[] = [];
    await page.exposeFunction('__skbCspViolation', (v: string) => violations.push(v));
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) => {
        (window as unknown as { __skbCspViolation(v: string): void }).__skbCspViolation(
          `${e.violatedDirective} blocked ${e.blockedURI || 'inline'} on ${e.documentURI} (${e.sourceFile}:${e.lineNumber})`);
      });
    });
    page.on('console', (msg) => {
      if (/Content Security Policy/i.test(msg.text())) violations.push(`${page.url()}: ${msg.text()}`);
    });
    await use(page);
    expect(violations, 'Content-Security-Policy violations').toEqual([]);
  },
});

export { expect };
