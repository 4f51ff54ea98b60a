import { expect } from '@playwright/test';
import { ADMIN, RATER, signIn, uniqueEmail, waitForHydration, test, expectConsole } from './fixtures';

test('a rater gets the 403 page for user administration', async ({ page }) => {
  await signIn(page, RATER);
  await expect(page.getByRole('link', { name: 'Users' })).toHaveCount(0);
  const response = await page.goto('/admin/users');
  expect(response?.status()).toBe(403);
  await expect(page.getByRole('heading', { name: '403 · Not allowed' })).toBeVisible();
  await expect(page.getByTestId('user-table')).toHaveCount(0);
});

test('an admin adds a user, changes its role, and the new user can sign in', async ({ page, browser }) => {
  const email = uniqueEmail('new-user');
  const password = 'a-new-Passw0rd';

  await signIn(page, ADMIN);
  await page.getByRole('link', { name: 'Users' }).click();
  await expect(page).toHaveURL(/\/admin\/users$/);
  const table = page.getByTestId('user-table');
  await expect(table.getByRole('cell', { name: ADMIN })).toBeVisible();

  // Add the user through the form.
  const addButton = page.getByRole('button', { name: 'Add user' });
  await expect(addButton).toBeVisible();
  await waitForHydration(addButton);
  const form = page.locator('form').filter({ has: page.getByRole('heading', { name: 'Add a user' }) });
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Name').fill('E2E New User');
  await form.getByLabel('Password').fill(password);
  await form.getByLabel('Role').selectOption({ label: 'annotator' });
  await addButton.click();
  await expect(page.getByText(`Added ${email}.`)).toBeVisible();
  await expect(table.getByRole('cell', { name: email })).toBeVisible();
  await expect(table.getByRole('row').filter({ hasText: email })).toContainText('E2E New User');
  const roleSelect = page.getByLabel(`Role of ${email}`);
  await expect(roleSelect).toHaveValue('ANNOTATOR');
  // The form was cleared after success.
  await expect(form.getByLabel('Email')).toHaveValue('');

  // Change its role to curator with the select.
  const patched = page.waitForResponse((r) => r.url().includes('/api/users/') && r.request().method() === 'PATCH');
  await roleSelect.selectOption({ label: 'curator' });
  expect((await patched).status()).toBe(200);
  await expect(roleSelect).toHaveValue('CURATOR');
  await expect(roleSelect).toBeEnabled();
  await expect(page.locator('main').getByRole('alert')).toHaveCount(0);

  // The change is stored, not only shown.
  await page.reload();
  await expect(page.getByLabel(`Role of ${email}`)).toHaveValue('CURATOR');

  // The new user signs in with the password the admin set, with the new role.
  const context = await browser.newContext();
  try {
    const newUserPage = await context.newPage();
    await signIn(newUserPage, email, password);
    await expect(newUserPage.getByTestId('current-user')).toHaveText(`${email} · curator`, { useInnerText: true });
  } finally {
    await context.close();
  }
});

test('an admin disables a user on the users page, which ends that user\'s open session, and enables them again', async ({ page, browser, baseURL }) => {
  const email = uniqueEmail('disabled-user');
  const password = 'a-new-Passw0rd';
  await signIn(page, ADMIN);
  expect((await page.request.post('/api/users', { data: { email, password, role: 'RATER' } })).status()).toBe(201);

  const userContext = await browser.newContext({ baseURL });
  try {
    const userPage = await userContext.newPage();
    await signIn(userPage, email, password);
    expect((await userPage.request.get('/api/kbs')).status()).toBe(200);

    await page.goto('/admin/users');
    const row = page.getByTestId('user-table').getByRole('row').filter({ hasText: email });
    const disable = row.getByRole('button', { name: 'Disable' });
    await waitForHydration(disable);
    page.once('dialog', (dialog) => void dialog.accept());
    await disable.click();
    await expect(row.getByRole('button', { name: 'Enable' })).toBeVisible();
    await expect(row).toContainText('disabled');

    // The session the user already had is refused at once, and signing in again is too.
    expect((await userPage.request.get('/api/kbs')).status()).toBe(401);
    await userPage.reload();
    await expect(userPage).toHaveURL(/\/login/);

    page.once('dialog', (dialog) => void dialog.accept());
    await row.getByRole('button', { name: 'Enable' }).click();
    await expect(row.getByRole('button', { name: 'Disable' })).toBeVisible();
    await signIn(userPage, email, password);
  } finally {
    await userContext.close();
  }
});

test('an admin sets a new password and signs a user out everywhere from the users page', async ({ page, browser, baseURL }) => {
  // The browser logs the refused weak password; the form's message is what the test checks.
  expectConsole(/Failed to load resource: the server responded with a status of 400/);
  const email = uniqueEmail('reset-user');
  await signIn(page, ADMIN);
  expect((await page.request.post('/api/users', { data: { email, password: 'the-first-Passw0rd', role: 'RATER' } })).status()).toBe(201);

  const userContext = await browser.newContext({ baseURL });
  try {
    const userPage = await userContext.newPage();
    await signIn(userPage, email, 'the-first-Passw0rd');

    await page.goto('/admin/users');
    const row = page.getByTestId('user-table').getByRole('row').filter({ hasText: email });
    const reset = row.getByRole('button', { name: 'Reset password' });
    await waitForHydration(reset);
    await reset.click();
    // A common password is refused with the policy's reason; a strong one is set.
    await row.getByLabel(`New password for ${email}`).fill('password123');
    page.once('dialog', (dialog) => void dialog.accept());
    await row.getByRole('button', { name: 'Set' }).click();
    await expect(page.locator('main').getByRole('alert')).toContainText('too common');
    await row.getByRole('button', { name: 'Reset password' }).click();
    await row.getByLabel(`New password for ${email}`).fill('the-second-Passw0rd');
    const saved = page.waitForResponse((r) => r.url().endsWith('/password') && r.request().method() === 'PUT');
    page.once('dialog', (dialog) => void dialog.accept());
    await row.getByRole('button', { name: 'Set' }).click();
    expect((await saved).status()).toBe(200);

    // The old session ended with the old password; the new one signs in, and "sign out everywhere" ends that too.
    expect((await userPage.request.get('/api/kbs')).status()).toBe(401);
    await signIn(userPage, email, 'the-second-Passw0rd');
    expect((await userPage.request.get('/api/kbs')).status()).toBe(200);
    page.once('dialog', (dialog) => void dialog.accept());
    const ended = page.waitForResponse((r) => r.url().endsWith('/sessions') && r.request().method() === 'DELETE');
    await row.getByRole('button', { name: 'Sign out everywhere' }).click();
    expect((await ended).status()).toBe(200);
    expect((await userPage.request.get('/api/kbs')).status()).toBe(401);
  } finally {
    await userContext.close();
  }
});
