import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { encode } from 'next-auth/jwt';
import { expect, type Page } from '@playwright/test';
import { ADMIN, ANNOTATOR, CURATOR, TEST_PASSWORD, apiSignIn, signIn, submitLogin, uniqueEmail, waitForHydration, test, expectConsole } from './fixtures';

/** Submits the form and waits for next-auth's answer, so consecutive attempts do not overlap. */
async function attemptLogin(page: Page, email: string, password: string): Promise<void> {
  const answered = page.waitForResponse((r) => r.url().includes('/api/auth/callback/credentials'));
  await submitLogin(page, email, password);
  await answered;
  await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeEnabled();
}

test('a wrong password shows an error and stays on the sign-in page', async ({ page }) => {
  // The browser logs the refused sign-in; the form's message is what the test checks.
  expectConsole(/Failed to load resource: the server responded with a status of 401/);
  await page.goto('/login');
  await attemptLogin(page, ANNOTATOR, 'not-the-password');
  await expect(page.locator('form').getByRole('alert')).toHaveText('Wrong email or password');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByTestId('current-user')).toHaveCount(0);
  // The password is never put in the address bar (the form is handled by script, not submitted natively).
  expect(page.url()).not.toContain('password');
});

test('removing the session cookie signs the user out, and signing in again returns to the page', async ({ page, context }) => {
  await signIn(page, CURATOR);
  await page.goto('/kb/demo-catalogue');
  await expect(page.getByTestId('current-user')).toBeVisible();

  const sessionCookies = (await context.cookies()).filter((c) => c.name.includes('next-auth.session-token'));
  expect(sessionCookies.length).toBeGreaterThan(0);
  for (const c of sessionCookies) await context.clearCookies({ name: c.name });

  await page.reload();
  await expect(page).toHaveURL(/\/login\?callbackUrl=%2Fkb%2Fdemo-catalogue$/);
  await expect(page.getByTestId('current-user')).toHaveCount(0);
  expect((await page.request.get('/api/kbs')).status()).toBe(401);

  // Signing in from there goes back to the page that asked for it.
  await submitLogin(page, CURATOR, TEST_PASSWORD);
  await expect(page).toHaveURL(/\/kb\/demo-catalogue$/);
  await expect(page.getByTestId('current-user')).toContainText(CURATOR);
});

test('five failed sign-ins on one account from one address answer 429, whatever the client says its address is', async ({ page, request, playwright, baseURL }) => {
  // The browser logs each refused sign-in.
  expectConsole(/Failed to load resource: the server responded with a status of (401|429)/);
  // A fresh user, so the limit of this test does not touch the demo accounts.
  await apiSignIn(request, ADMIN);
  const email = uniqueEmail('throttled');
  const password = 'the-right-Passw0rd';
  const created = await request.post('/api/users', { data: { email, password, role: 'ANNOTATOR' } });
  expect(created.status()).toBe(201);

  await page.goto('/login');
  for (let i = 1; i <= 5; i++) {
    await attemptLogin(page, email, `wrong-password-${i}`);
    await expect(page.locator('form').getByRole('alert'), `attempt ${i}`).toHaveText('Wrong email or password');
  }

  // The server works out the address from the connection: headers the client writes do not make it another one.
  const anonymous = await playwright.request.newContext({ baseURL });
  const { csrfToken } = (await (await anonymous.get('/api/auth/csrf')).json()) as { csrfToken: string };
  const res = await anonymous.post('/api/auth/callback/credentials', {
    headers: { 'X-Forwarded-For': '203.0.113.77', 'X-SKB-Client-Address': '203.0.113.78' },
    form: { csrfToken, email, password, json: 'true' },
  });
  expect(res.status()).toBe(429);
  expect(Number(res.headers()['retry-after'])).toBeGreaterThan(60);
  expect(((await res.json()) as { error: string }).error).toMatch(/^Too many failed sign-ins\. Try again in \d+ minutes?\.$/);
  expect(((await (await anonymous.get('/api/auth/session')).json()) as { user?: unknown }).user).toBeUndefined();
  await anonymous.dispose();

  await attemptLogin(page, email, password);
  await expect(page.locator('form').getByRole('alert')).toHaveText(/^Too many failed sign-ins\. Try again in \d+ minutes?\.$/);
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByTestId('current-user')).toHaveCount(0);

  // The limit is per account and address: another account still signs in from the same browser.
  await signIn(page, ANNOTATOR);
});

test('signing out ends the session on the server: a copy of its cookie is refused afterwards', async ({ page, context, browser, baseURL }) => {
  await signIn(page, CURATOR);
  const cookies = await context.cookies();
  expect((await page.request.get('/api/kbs')).status()).toBe(200);

  const signOut = page.getByRole('button', { name: 'Sign out' });
  await waitForHydration(signOut);
  await signOut.click();
  await expect(page).toHaveURL(/\/login/);

  const replay = await browser.newContext({ baseURL });
  await replay.addCookies(cookies);
  expect((await replay.request.get('/api/kbs')).status()).toBe(401);
  await replay.close();
});

test('a crafted return address after sign-in lands on the home page, never elsewhere or on an error', async ({ page, baseURL }) => {
  await page.goto('/login?callbackUrl=%2F%09%2Fevil.example%2Fphish');
  await submitLogin(page, ANNOTATOR, TEST_PASSWORD);
  await expect(page.getByTestId('kb-list')).toBeVisible();
  expect(page.url()).toBe(`${baseURL}/`);

  // Signed in, the sign-in page sends on at once: the same rule, and a newline is no 500.
  for (const payload of ['%2F%0A%2Fevil.example', '%2F%0D%2Fevil.example', '%2F%5Cevil.example', 'javascript%3Aalert(1)', '%2F%2Fevil.example']) {
    const res = await page.goto(`/login?callbackUrl=${payload}`);
    expect(res?.status(), payload).toBe(200);
    expect(page.url(), payload).toBe(`${baseURL}/`);
  }
});

test('an expired or forged session token counts as signed out', async ({ page, context, request, baseURL }) => {
  await apiSignIn(request, ADMIN);
  const { users } = (await (await request.get('/api/users')).json()) as { users: { id: number; email: string }[] };
  const annotator = users.find((u) => u.email === ANNOTATOR)!;
  const secret = fs.readFileSync(path.join('.data', 'e2e', 'auth-secret'), 'utf8').trim();
  const claims = { uid: annotator.id, sv: 0, email: ANNOTATOR, sid: crypto.randomUUID(), auth: Math.floor(Date.now() / 1000) };

  const valid = await encode({ token: claims, secret, maxAge: 600 });
  const expired = await encode({ token: claims, secret, maxAge: -60 });
  const forged = await encode({ token: claims, secret: 'not-the-server-secret', maxAge: 600 });
  // Tokens without a session id (issued before sessions could be ended one by one), or older than a sign-in lasts.
  const { sid: _sid, ...withoutId } = claims;
  const legacy = await encode({ token: withoutId as typeof claims, secret, maxAge: 600 });
  const stale = await encode({ token: { ...claims, auth: claims.auth - 13 * 3600 }, secret, maxAge: 600 });
  const useToken = async (value: string) => {
    await context.clearCookies();
    await context.addCookies([{ name: 'next-auth.session-token', value, url: baseURL! }]);
  };

  // The same claims with a fresh expiry are accepted, so the refusals below are about expiry and signature.
  await useToken(valid);
  expect((await page.request.get('/api/kbs')).status()).toBe(200);
  for (const token of [expired, forged, legacy, stale]) {
    await useToken(token);
    expect((await page.request.get('/api/kbs')).status()).toBe(401);
    await page.goto('/');
    await expect(page).toHaveURL(/\/login\?callbackUrl=%2F$/);
  }
});

test('a shared explorer link survives signing in: the view state comes back with the page', async ({ page }) => {
  const link = '/kb/demo-catalogue/search?q=tent&page=2';
  await page.goto(link);
  await expect(page).toHaveURL(`/login?callbackUrl=${encodeURIComponent(link)}`);
  await submitLogin(page, ANNOTATOR, TEST_PASSWORD);
  await expect(page).toHaveURL(link);
  await expect(page.getByRole('searchbox')).toHaveValue('tent');
});
