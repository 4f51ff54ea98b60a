import type { APIRequestContext, Browser, BrowserContext, Page } from '@playwright/test';
import { ADMIN, apiSignIn, expect, listUsers, test, waitForHydration } from './fixtures';
import { OIDC_ISSUER, OIDC_NAME } from './oidc-setup';
import type { OidcFault } from '../test/support/oidc-provider';

/**
 * Signing in with the organisation's OpenID Connect provider: a real provider (oidc-provider, started by
 * playwright.config.ts on port 3297) with its own sign-in and consent pages, and faults switched on over HTTP
 * to see the app refuse a provider that is down and ID tokens that fail a check.
 */

async function setFault(page: Page, fault: OidcFault): Promise<void> {
  const res = await page.request.post(`${OIDC_ISSUER}/test/fault/${fault}`);
  expect(res.status()).toBe(204);
}

/** The provider's development pages load a web font; the tests run offline, so it gets an empty style sheet. */
async function offlineFonts(context: BrowserContext): Promise<void> {
  await context.route(/^https:\/\/fonts\.(googleapis|gstatic)\.com\//, (route) => route.fulfill({ status: 200, contentType: 'text/css', body: '' }));
}

test.beforeEach(async ({ page, context }) => {
  await offlineFonts(context);
  await setFault(page, 'none');
});
test.afterEach(async ({ page }) => setFault(page, 'none'));

/** A login nobody has used, so the spec can run again on the same database. */
function uniqueLogin(prefix: string): string {
  return `${prefix}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
}

/** Clicks "Sign in with …" on the app's sign-in page; the browser goes to the provider. */
async function startAtApp(page: Page, path = '/login'): Promise<void> {
  await page.goto(path);
  const button = page.getByRole('button', { name: `Sign in with ${OIDC_NAME}` });
  await waitForHydration(button);
  await button.click();
}

/** Signs in on the provider's own pages (any password works there) and agrees to share the profile. */
async function signInAtProvider(page: Page, login: string): Promise<void> {
  await expect(page).toHaveURL(new RegExp(`^${OIDC_ISSUER}/interaction/`));
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('any password the test provider takes');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
}

/**
 * The sign-in page's message about the provider, picked by the provider's name it always holds: Next.js's route
 * announcer is an alert too, present or not depending on when the page hydrates.
 */
const providerMessage = (page: Page) => page.getByRole('alert').filter({ hasText: OIDC_NAME });

/** Runs `use` with an API context signed in as the demo admin. */
async function asAdmin<T>(browser: Browser, baseURL: string | undefined, use: (request: APIRequestContext) => Promise<T>): Promise<T> {
  const admin = await browser.newContext({ baseURL });
  try {
    await apiSignIn(admin.request, ADMIN);
    return await use(admin.request);
  } finally {
    await admin.close();
  }
}

/** The roles of the users with this email, as the admin sees them (none when no user was made). */
function rolesOf(browser: Browser, baseURL: string | undefined, email: string): Promise<string[]> {
  return asAdmin(browser, baseURL, async (request) => (await listUsers(request)).filter((u) => u.email === email).map((u) => u.role));
}

test('a member signs in with the organisation, lands where they were going with the role of their group, and an admin can end the session', async ({ page, browser, baseURL }) => {
  await startAtApp(page, '/login?callbackUrl=%2Fkb%2Fdemo-catalogue');
  await signInAtProvider(page, 'ada-oidc');
  await expect(page).toHaveURL(/\/kb\/demo-catalogue$/);
  await expect(page.getByTestId('current-user')).toHaveAttribute('title', 'ada.oidc@example.org · curator');
  expect(await rolesOf(browser, baseURL, 'ada.oidc@example.org')).toEqual(['CURATOR']);

  // The session is the app's own, under the same revocation as a password sign-in.
  expect((await page.request.get('/api/kbs')).status()).toBe(200);
  await asAdmin(browser, baseURL, async (request) => {
    const ada = (await listUsers(request)).find((u) => u.email === 'ada.oidc@example.org')!;
    expect((await request.delete(`/api/users/${ada.id}/sessions`)).status()).toBe(200);
  });
  expect((await page.request.get('/api/kbs')).status()).toBe(401);
  await page.reload();
  await expect(page).toHaveURL(/\/login\?callbackUrl=%2Fkb%2Fdemo-catalogue$/);
});

test('someone in no mapped group gets the default role, and signs in as the same user the next time', async ({ page, browser, baseURL }) => {
  const login = uniqueLogin('bob');
  await startAtApp(page);
  await signInAtProvider(page, login);
  await expect(page.getByTestId('kb-list')).toBeVisible();
  await expect(page.getByTestId('current-user')).toHaveAttribute('title', `${login}@example.org · annotator`);

  const second = await browser.newContext({ baseURL });
  await offlineFonts(second);
  const again = await second.newPage();
  await startAtApp(again);
  await signInAtProvider(again, login);
  await expect(again.getByTestId('kb-list')).toBeVisible();
  await second.close();
  expect(await rolesOf(browser, baseURL, `${login}@example.org`)).toEqual(['ANNOTATOR']);
});

test('an identity claiming a local account\'s email does not become that account', async ({ page, browser, baseURL }) => {
  await startAtApp(page);
  await signInAtProvider(page, 'admin-lookalike');
  await expect(page).toHaveURL(/\/login\?error=OidcEmailTaken$/);
  await expect(providerMessage(page)).toContainText(`An account with the email ${OIDC_NAME} sent already exists here`);
  await expect(page.getByTestId('current-user')).toHaveCount(0);
  expect(await rolesOf(browser, baseURL, ADMIN)).toEqual(['ADMIN']);
});

test('a provider that is down: the sign-in page says so and nobody is signed in', async ({ page }) => {
  await setFault(page, 'down');
  await startAtApp(page);
  await expect(page).toHaveURL(/\/login\?(.*&)?error=OAuthSignin$/);
  await expect(providerMessage(page)).toHaveText(`${OIDC_NAME} could not be reached to start signing in. Try again in a few minutes; if it keeps failing, tell your administrator.`);
  await expect(page.getByTestId('current-user')).toHaveCount(0);
  // The password form still works while the provider is away.
  await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeEnabled();
});

const TOKEN_FAULTS = { 'bad-signature': 'a bad signature', 'wrong-audience': 'another audience', expired: 'an expiry in the past', 'wrong-nonce': 'a wrong nonce' } as const;
for (const [fault, what] of Object.entries(TOKEN_FAULTS) as [OidcFault, string][]) {
  test(`an ID token with ${what} is refused with a clear message and no user is made`, async ({ page, browser, baseURL }) => {
    const login = uniqueLogin(fault);
    await startAtApp(page);
    await setFault(page, fault);
    await signInAtProvider(page, login);
    await expect(page).toHaveURL(/\/login\?(.*&)?error=OAuthCallback$/);
    await expect(providerMessage(page)).toContainText(`Signing in with ${OIDC_NAME} failed: its answer could not be verified`);
    await expect(page.getByTestId('current-user')).toHaveCount(0);
    expect(await rolesOf(browser, baseURL, `${login}@example.org`)).toEqual([]);
  });
}
