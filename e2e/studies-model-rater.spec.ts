import { expect, type Locator } from '@playwright/test';
import { CURATOR, PUBLIC_KB, signIn, test } from './fixtures';

/**
 * A model rater beside the people: a study over the demo set, rated by two people through personal links; a
 * curator adds the configured model as a rater on the study page (the e2e app talks to the fake LLM server),
 * follows its progress, and finds its ratings on the results page in a section of their own, with its
 * agreement with the human median, the human figures unchanged. On a phone-sized screen.
 */

const ITEMS = 4;

test.use({ viewport: { width: 390, height: 844 } });

test('a curator adds a model rater to a study with human ratings and reads its agreement with the people', async ({ page, playwright }) => {
  await signIn(page, CURATOR);
  const name = `model-rater-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
  const created = await page.request.post(`/api/kbs/${PUBLIC_KB.slug}/studies`, {
    data: { name, sources: [{ querySet: 'demo-catalogue-questions', sample: ITEMS }], itemsPerParticipant: ITEMS, participantsPerItem: 2, open: true, studyLink: false },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: number };

  // Two people rate every item: naturalness 2 and 4 on the first items, so the human median is known.
  const { tokens } = (await (await page.request.post(`/api/studies/${id}/links`, { data: { count: 2 } })).json()) as { tokens: string[] };
  const anonymous = await playwright.request.newContext({ baseURL: new URL(page.url()).origin });
  for (const [n, token] of tokens.entries()) {
    const { items } = (await (await anonymous.post(`/api/participate/${token}/start`)).json()) as { items: { itemId: number }[] };
    expect(items).toHaveLength(ITEMS);
    for (const [k, item] of items.entries()) {
      for (const dimension of ['naturalness', 'diversity', 'practicality']) {
        const put = await anonymous.put(`/api/participate/${token}/ratings`, { data: { itemId: item.itemId, dimension, value: 1 + ((k + 2 * n) % 5) } });
        expect(put.status(), await put.text()).toBe(200);
      }
    }
  }
  await anonymous.dispose();
  const before = (await (await page.request.get(`/api/studies/${id}/results`)).json()) as Record<string, unknown>;

  await page.goto(`/kb/${PUBLIC_KB.slug}/studies/${id}`);
  const panel = page.getByTestId('model-raters');
  const add = panel.getByRole('button', { name: 'Add a model rater' });
  await expect(add).toBeEnabled();
  const configured = await panel.getByTestId('configured-model').textContent();
  expect(configured).toBeTruthy();
  await expect(panel.getByLabel(/^Model/)).toHaveAttribute('placeholder', configured!);
  await add.click();
  const rater = panel.getByTestId('model-rater');
  await expect(rater).toContainText(configured!);
  await expect(rater.getByTestId('model-rater-status')).toHaveText('succeeded', { timeout: 30_000 });
  await expect(rater.getByTestId('model-rater-progress')).toHaveText(`${ITEMS} of ${ITEMS} rated`);
  await fitsTheScreen(panel);

  await page.getByRole('link', { name: 'Results' }).click();
  const section = page.getByTestId('model-rater-results');
  await expect(section.getByRole('heading', { name: 'Model raters' })).toBeVisible();
  await expect(section).toContainText('not included in the human figures');
  const result = section.getByTestId('model-rater-result');
  await expect(result).toHaveCount(1);
  await expect(result.getByRole('heading', { level: 3 })).toHaveText(configured!);
  await expect(result.getByTestId('model-rater-counts')).toHaveText(`${3 * ITEMS} ratings over ${ITEMS} of ${ITEMS} items`);
  const naturalness = result.getByTestId('model-dimension-naturalness');
  await expect(naturalness.getByTestId('model-mean')).toHaveText(/^\d\.\d\d$/);
  await expect(naturalness.getByTestId('model-agreement')).toHaveText(new RegExp(`^Agreement with the human median: α = (-?\\d\\.\\d{3}|—), n = ${ITEMS}$`));
  await expect(naturalness.getByRole('img', { name: /share of ratings per point/ })).toBeVisible();
  // The human figures are what they were before the model rated.
  await expect(page.getByTestId('results-totals')).toHaveText(`2 participants, ${2 * 3 * ITEMS} ratings`);
  const after = (await (await page.request.get(`/api/studies/${id}/results`)).json()) as Record<string, unknown>;
  expect((after.modelRaters as unknown[]).length).toBe(1);
  expect({ ...after, modelRaters: [] }).toEqual(before);
  await fitsTheScreen(section);
});

/** Nothing of it runs off a phone-sized screen sideways. */
async function fitsTheScreen(locator: Locator) {
  const box = await locator.boundingBox();
  expect(box).not.toBeNull();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(390);
  expect(await locator.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
}
