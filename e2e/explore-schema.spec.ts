import { expect } from '@playwright/test';
import { ANNOTATOR, PUBLIC_KB, signIn, test } from './fixtures';

test('the overview shows the schema: type map, legend, degree chart and hubs that lead to the explorer', async ({ page }) => {
  await signIn(page, ANNOTATOR);
  await page.goto(`/kb/${PUBLIC_KB.slug}`);
  await expect(page.getByRole('navigation', { name: 'Explorer' }).getByRole('link', { name: 'Overview' })).toHaveAttribute('aria-current', 'page');

  // One map node per entity type and one edge per typed triple, as the tables list them.
  const typeNames = (await page.getByRole('heading', { name: 'Entity types' }).locator('..').locator('tbody tr td:first-child').allTextContents()).map((t) => t.trim());
  const tripleRows = await page.getByTestId('triple-table').locator('tbody tr').count();
  expect(typeNames.length).toBeGreaterThanOrEqual(4);
  expect(tripleRows).toBeGreaterThanOrEqual(5);
  const map = page.getByTestId('schema-map');
  await expect(map).toHaveAttribute('data-elements', String(typeNames.length + tripleRows));
  await expect(page.getByTestId('schema-map-caption')).toHaveText(new RegExp(`^${typeNames.length} entity types, ${tripleRows} typed relations`));
  const legend = page.getByTestId('graph-legend');
  for (const name of typeNames) await expect(legend.getByText(name, { exact: true })).toBeVisible();

  // A second layout redraws the same elements.
  await page.getByLabel('Layout').selectOption('concentric');
  await expect(map).toHaveAttribute('aria-busy', 'false');
  await expect(map).toHaveAttribute('data-elements', String(typeNames.length + tripleRows));

  await expect(page.getByTestId('degree-chart').locator('.recharts-bar-rectangle').first()).toBeVisible();
  const hub = page.getByTestId('entity-list').getByRole('link').first();
  const hubName = (await hub.textContent())!.trim();
  await hub.click();
  await expect(page.getByTestId('entity-name')).toHaveText(hubName);
});
