import type { Page } from '@playwright/test';
import { formatDateTime } from '../lib/format/date';
import { CURATOR, PUBLIC_KB, expect, signIn, test, waitForHydration } from './fixtures';

/**
 * Dates in the reader's locale and time zone: the server writes them in UTC, the browser rewrites them once
 * hydrated (without a hydration warning, which the fixture's console check would report), the UTC text staying
 * as their title. Checked on the demo query sets' "Updated" column.
 */

/** The first query set's "Updated" date, hydrated, with the moment it stands for. */
async function updatedDate(page: Page) {
  await signIn(page, CURATOR);
  await page.goto(`/kb/${PUBLIC_KB.slug}/queries`);
  const time = page.getByTestId('query-set-list').locator('tbody tr').first().locator('time');
  await waitForHydration(time);
  const iso = await time.getAttribute('datetime');
  expect(iso).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  return { time, at: new Date(iso!) };
}

/** The day, hour and minute of a moment in a time zone, as numbers a locale writes in its own pattern. */
function partsIn(at: Date, timeZone: string) {
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone, day: 'numeric', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
    .formatToParts(at);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)!.value;
  return { day: part('day'), year: part('year'), time: `${part('hour')}:${part('minute')}` };
}

test.describe('in German, in Berlin', () => {
  test.use({ locale: 'de-DE', timezoneId: 'Europe/Berlin' });

  test('a date is written the German way, in Berlin time with its zone named, its UTC text the title', async ({ page }) => {
    const { time, at } = await updatedDate(page);
    const { day, year, time: hm } = partsIn(at, 'Europe/Berlin');
    // "27. Nov. 2026, 23:43 MEZ": the day with a full stop, the month as a word, the 24-hour clock.
    await expect(time).toHaveText(new RegExp(`^${day}\\. [^\\d\\s]+ ${year}, ${hm} (MEZ|MESZ)$`));
    await expect(time).toHaveAttribute('title', formatDateTime(at));
  });
});

test.describe('in British English, in UTC', () => {
  test.use({ locale: 'en-GB', timezoneId: 'UTC' });

  test('a date is written with the month as a word and the time in UTC, said so', async ({ page }) => {
    const { time, at } = await updatedDate(page);
    const { day, year, time: hm } = partsIn(at, 'UTC');
    await expect(time).toHaveText(new RegExp(`^${day} [^\\d\\s]+ ${year}, ${hm} UTC$`));
    await expect(time).toHaveAttribute('title', formatDateTime(at));
  });
});
