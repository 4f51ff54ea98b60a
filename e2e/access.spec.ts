import { expect, request as playwrightRequest, type Locator, type Page, type Response } from '@playwright/test';
import { ADMIN, ANNOTATOR, BASE_URL, CURATOR, PRIVATE_KB, PUBLIC_KB, RATER, apiSignIn, signIn, uniqueEmail, waitForHydration, test, expectConsole } from './fixtures';

/**
 * The access panel of a knowledge base page: visibility and members, for admins and the knowledge
 * base's curators. These tests change the demo knowledge bases' access and put it back; afterEach
 * restores the demo state through the API as a safety net, so a failing test cannot leak a member or
 * a visibility change into the other specs (which rely on it, e.g. "an annotator does not see the
 * private knowledge base").
 */

interface AccessState {
  visibility: 'PUBLIC' | 'PRIVATE';
  members: { userId: number; email: string; name: string | null; role: string; since: string }[];
}

/** The demo data's access, as seeded: the brand registry private with the curator, the catalogue public without members. */
const DEMO_ACCESS = [
  { slug: PRIVATE_KB.slug, visibility: 'PRIVATE', members: [CURATOR] },
  { slug: PUBLIC_KB.slug, visibility: 'PUBLIC', members: [] as string[] },
] as const;

async function restoreDemoAccess(): Promise<void> {
  const api = await playwrightRequest.newContext({ baseURL: BASE_URL });
  try {
    await apiSignIn(api, ADMIN);
    for (const kb of DEMO_ACCESS) {
      const res = await api.get(`/api/kbs/${kb.slug}/members`);
      expect(res.status(), `GET members of ${kb.slug}`).toBe(200);
      const state = (await res.json()) as AccessState;
      for (const m of state.members) {
        if ((kb.members as readonly string[]).includes(m.email)) continue;
        const del = await api.delete(`/api/kbs/${kb.slug}/members/${m.userId}`);
        expect(del.status(), `removing ${m.email} from ${kb.slug}`).toBe(200);
      }
      for (const email of kb.members) {
        if (state.members.some((m) => m.email === email)) continue;
        const add = await api.post(`/api/kbs/${kb.slug}/members`, { data: { email } });
        expect(add.status(), `adding ${email} to ${kb.slug}`).toBe(200);
      }
      if (state.visibility !== kb.visibility) {
        const patch = await api.patch(`/api/kbs/${kb.slug}`, { data: { visibility: kb.visibility } });
        expect(patch.status(), `making ${kb.slug} ${kb.visibility}`).toBe(200);
      }
    }
  } finally {
    await api.dispose();
  }
}

test.afterEach(async () => {
  await restoreDemoAccess();
});

/** Resolves with the API answer to the next `method` request whose path is exactly `path`. */
function apiResponse(page: Page, method: string, path: string): Promise<Response> {
  return page.waitForResponse((r) => r.request().method() === method && new URL(r.url()).pathname === path);
}

/** From the list of knowledge bases, opens one by clicking its link. */
async function openKbFromList(page: Page, kb: { slug: string; name: string }): Promise<void> {
  await page.goto('/');
  await page.getByTestId('kb-list').getByRole('link', { name: kb.name }).click();
  await expect(page).toHaveURL(new RegExp(`/kb/${kb.slug}$`));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(kb.name);
}

/** The access panel, once its data is loaded (the members list is rendered by the client after the fetch). */
async function accessPanel(page: Page): Promise<{ panel: Locator; members: Locator }> {
  const panel = page.getByTestId('kb-access');
  await expect(panel).toBeVisible();
  await expect(panel.getByRole('heading', { name: 'Access', exact: true })).toBeVisible();
  const members = panel.getByRole('list', { name: 'Members' });
  await expect(members).toBeVisible();
  await waitForHydration(panel.getByRole('button', { name: 'Add member' }));
  return { panel, members };
}

/** The KB page has fully rendered (so a missing access panel is really missing, not still loading). */
async function expectKbPageWithoutPanel(page: Page, kb: { name: string }): Promise<void> {
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(kb.name);
  await expect(page.getByTestId('entity-list').getByRole('link').first()).toBeVisible();
  await expect(page.getByTestId('kb-access')).toHaveCount(0);
  await expect(page.getByLabel('Visibility')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Add member' })).toHaveCount(0);
}

const membersPath = (slug: string) => `/api/kbs/${slug}/members`;

test('an admin adds the annotator to the private knowledge base, who then sees it until removed again', async ({ page, browser }) => {
  await signIn(page, ADMIN);
  await openKbFromList(page, PRIVATE_KB);
  const { panel, members } = await accessPanel(page);
  await expect(panel.getByLabel('Visibility')).toHaveValue('PRIVATE');
  await expect(members.getByRole('listitem')).toHaveCount(1);
  await expect(members.getByRole('listitem').first()).toContainText(CURATOR);
  await expect(members.getByRole('listitem').first()).toContainText(/curator/i);
  await expect(members.getByRole('button', { name: `Remove ${CURATOR}` })).toBeVisible();
  await expect(members.getByRole('button', { name: `Remove ${ANNOTATOR}` })).toHaveCount(0);

  // Add the annotator through the form.
  const emailInput = panel.getByLabel('Member email');
  await emailInput.fill(ANNOTATOR);
  const added = apiResponse(page, 'POST', membersPath(PRIVATE_KB.slug));
  await panel.getByRole('button', { name: 'Add member' }).click();
  expect((await added).status()).toBe(200);
  const annotatorRow = members.getByRole('listitem').filter({ hasText: ANNOTATOR });
  await expect(annotatorRow).toBeVisible();
  await expect(annotatorRow).toContainText(/annotator/i);
  await expect(members.getByRole('listitem')).toHaveCount(2);
  await expect(emailInput).toHaveValue('');
  await expect(panel.getByRole('alert')).toHaveCount(0);

  // Stored, not only shown.
  await page.reload();
  await expect((await accessPanel(page)).members.getByRole('listitem').filter({ hasText: ANNOTATOR })).toBeVisible();

  const context = await browser.newContext();
  try {
    const annotatorPage = await context.newPage();
    await signIn(annotatorPage, ANNOTATOR);
    // The annotator now lists and opens the private knowledge base, without managing it.
    await openKbFromList(annotatorPage, PRIVATE_KB);
    await expectKbPageWithoutPanel(annotatorPage, PRIVATE_KB);

    // The admin removes the annotator with its Remove button.
    // (the user id is in the URL and not known up front: match the DELETE by prefix)
    const deleted = page.waitForResponse(
      (r) => r.request().method() === 'DELETE' && new URL(r.url()).pathname.startsWith(`${membersPath(PRIVATE_KB.slug)}/`),
    );
    await page.getByTestId('kb-access').getByRole('button', { name: `Remove ${ANNOTATOR}` }).click();
    expect((await deleted).status()).toBe(200);
    const membersAfter = page.getByTestId('kb-access').getByRole('list', { name: 'Members' });
    await expect(membersAfter.getByRole('listitem').filter({ hasText: ANNOTATOR })).toHaveCount(0);
    await expect(membersAfter.getByRole('listitem')).toHaveCount(1);
    await expect(membersAfter).toContainText(CURATOR);
    await expect(page.getByTestId('kb-access').getByRole('alert')).toHaveCount(0);

    // The annotator has lost access: the 404 page, and the knowledge base is gone from their list.
    const response = await annotatorPage.goto(`/kb/${PRIVATE_KB.slug}`);
    expect(response?.status()).toBe(404);
    await expect(annotatorPage.getByRole('heading', { name: '404 · Not found' })).toBeVisible();
    await expect(annotatorPage.getByText(PRIVATE_KB.name)).toHaveCount(0);
    await annotatorPage.goto('/');
    await expect(annotatorPage.getByTestId('kb-list').getByRole('link', { name: PUBLIC_KB.name })).toBeVisible();
    await expect(annotatorPage.getByTestId('kb-list').getByRole('link', { name: PRIVATE_KB.name })).toHaveCount(0);
  } finally {
    await context.close();
  }

  // Back to the demo state, as the server stores it.
  const stored = (await (await page.request.get(membersPath(PRIVATE_KB.slug))).json()) as AccessState;
  expect(stored.members.map((m) => m.email)).toEqual([CURATOR]);
});

test('adding an unknown email shows an error in the panel and changes nothing', async ({ page }) => {
  // The browser logs the refused request; the panel's message is what the test checks.
  expectConsole(/Failed to load resource: the server responded with a status of 404/);
  const nobody = uniqueEmail('nobody');
  await signIn(page, ADMIN);
  await openKbFromList(page, PRIVATE_KB);
  const { panel, members } = await accessPanel(page);
  await expect(members.getByRole('listitem')).toHaveCount(1);

  await panel.getByLabel('Member email').fill(nobody);
  const added = apiResponse(page, 'POST', membersPath(PRIVATE_KB.slug));
  await panel.getByRole('button', { name: 'Add member' }).click();
  expect((await added).status()).toBe(404);

  const alert = panel.getByRole('alert');
  await expect(alert).toBeVisible();
  await expect(alert).toHaveText(`No user with email ${nobody}`);
  // Nothing changed: same single member, same visibility, and the typed email is kept for correcting.
  await expect(members.getByRole('listitem')).toHaveCount(1);
  await expect(members).toContainText(CURATOR);
  await expect(members).not.toContainText(nobody);
  await expect(panel.getByLabel('Visibility')).toHaveValue('PRIVATE');
  await expect(panel.getByLabel('Member email')).toHaveValue(nobody);

  // Also as stored.
  const stored = (await (await page.request.get(membersPath(PRIVATE_KB.slug))).json()) as AccessState;
  expect(stored).toMatchObject({ visibility: 'PRIVATE' });
  expect(stored.members.map((m) => m.email)).toEqual([CURATOR]);
  await page.reload();
  const reloaded = await accessPanel(page);
  await expect(reloaded.members.getByRole('listitem')).toHaveCount(1);
  await expect(reloaded.panel.getByRole('alert')).toHaveCount(0);
});

test('an admin makes the private knowledge base public for a while, then private again', async ({ page, browser }) => {
  await signIn(page, ADMIN);
  await openKbFromList(page, PRIVATE_KB);
  const { panel } = await accessPanel(page);
  const select = panel.getByLabel('Visibility');
  await expect(select).toHaveValue('PRIVATE');

  // Public: saved immediately.
  const madePublic = apiResponse(page, 'PATCH', `/api/kbs/${PRIVATE_KB.slug}`);
  await select.selectOption('PUBLIC');
  expect((await madePublic).status()).toBe(200);
  await expect(select).toHaveValue('PUBLIC');
  await expect(select).toBeEnabled();
  await expect(panel.getByRole('alert')).toHaveCount(0);
  await page.reload();
  await expect((await accessPanel(page)).panel.getByLabel('Visibility')).toHaveValue('PUBLIC');

  const context = await browser.newContext();
  try {
    const raterPage = await context.newPage();
    await signIn(raterPage, RATER);
    const raterItem = raterPage.getByTestId('kb-list').getByRole('listitem').filter({ hasText: PRIVATE_KB.name });
    await expect(raterItem).toContainText('public');
    await openKbFromList(raterPage, PRIVATE_KB);
    await expectKbPageWithoutPanel(raterPage, PRIVATE_KB);

    // Private again.
    const select2 = page.getByTestId('kb-access').getByLabel('Visibility');
    const madePrivate = apiResponse(page, 'PATCH', `/api/kbs/${PRIVATE_KB.slug}`);
    await select2.selectOption('PRIVATE');
    expect((await madePrivate).status()).toBe(200);
    await expect(select2).toHaveValue('PRIVATE');
    await expect(select2).toBeEnabled();
    await expect(page.getByTestId('kb-access').getByRole('alert')).toHaveCount(0);

    // The rater no longer lists it, and gets the 404 page.
    await raterPage.goto('/');
    await expect(raterPage.getByTestId('kb-list').getByRole('link', { name: PUBLIC_KB.name })).toBeVisible();
    await expect(raterPage.getByTestId('kb-list').getByRole('link', { name: PRIVATE_KB.name })).toHaveCount(0);
    const response = await raterPage.goto(`/kb/${PRIVATE_KB.slug}`);
    expect(response?.status()).toBe(404);
    await expect(raterPage.getByRole('heading', { name: '404 · Not found' })).toBeVisible();
  } finally {
    await context.close();
  }

  await page.reload();
  await expect((await accessPanel(page)).panel.getByLabel('Visibility')).toHaveValue('PRIVATE');
});

test('only admins and member curators see the access panel and its API', async ({ page, browser, request }) => {
  // Anonymous: 401.
  expect((await request.get(membersPath(PUBLIC_KB.slug))).status()).toBe(401);

  // The annotator: no panel on the public catalogue, 403 from the API.
  await signIn(page, ANNOTATOR);
  await openKbFromList(page, PUBLIC_KB);
  await expectKbPageWithoutPanel(page, PUBLIC_KB);
  expect((await page.request.get(membersPath(PUBLIC_KB.slug))).status()).toBe(403);

  const context = await browser.newContext();
  try {
    const curatorPage = await context.newPage();
    await signIn(curatorPage, CURATOR);

    // The curator is not a member of the catalogue: no panel, 403 from the API, and may not change it.
    await openKbFromList(curatorPage, PUBLIC_KB);
    await expectKbPageWithoutPanel(curatorPage, PUBLIC_KB);
    expect((await curatorPage.request.get(membersPath(PUBLIC_KB.slug))).status()).toBe(403);
    expect((await curatorPage.request.post(membersPath(PUBLIC_KB.slug), { data: { email: ANNOTATOR } })).status()).toBe(403);
    expect((await curatorPage.request.patch(`/api/kbs/${PUBLIC_KB.slug}`, { data: { visibility: 'PRIVATE' } })).status()).toBe(403);

    // ... but is a member of the brand registry, so manages it.
    await openKbFromList(curatorPage, PRIVATE_KB);
    const { panel, members } = await accessPanel(curatorPage);
    await expect(panel.getByLabel('Visibility')).toHaveValue('PRIVATE');
    await expect(members.getByRole('listitem')).toHaveCount(1);
    await expect(members).toContainText(CURATOR);
    const res = await curatorPage.request.get(membersPath(PRIVATE_KB.slug));
    expect(res.status()).toBe(200);
    const state = (await res.json()) as AccessState;
    expect(state.visibility).toBe('PRIVATE');
    expect(state.members.map((m) => m.email)).toEqual([CURATOR]);
  } finally {
    await context.close();
  }

  // The catalogue is unchanged: still public, still without members, as the admin's panel shows.
  const adminContext = await browser.newContext();
  try {
    const adminPage = await adminContext.newPage();
    await signIn(adminPage, ADMIN);
    await openKbFromList(adminPage, PUBLIC_KB);
    const { panel, members } = await accessPanel(adminPage);
    await expect(panel.getByLabel('Visibility')).toHaveValue('PUBLIC');
    await expect(members.getByRole('listitem')).toHaveCount(1);
    await expect(members.getByRole('listitem')).toHaveText('No members yet.');
    await expect(members.getByRole('button')).toHaveCount(0);
    const state = (await (await adminPage.request.get(membersPath(PUBLIC_KB.slug))).json()) as AccessState;
    expect(state).toEqual({ visibility: 'PUBLIC', members: [] });
  } finally {
    await adminContext.close();
  }
});
