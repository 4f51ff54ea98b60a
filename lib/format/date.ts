/**
 * The one way dates are written: day, abbreviated month name and year ("25 Nov 2026"), so no reader mistakes
 * the day for the month, and times of day in UTC, said so. Written by hand rather than with Intl: the server's
 * and the browser's ICU data differ ("Sep" or "Sept"), and the text the server renders must be the text the
 * browser hydrates.
 */
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

type DateInput = string | number | Date;

const asDate = (d: DateInput) => (d instanceof Date ? d : new Date(d));
const twoDigits = (n: number) => String(n).padStart(2, '0');

/** "25 Nov 2026": a day, where the time of day does not matter. */
export function formatDay(d: DateInput): string {
  const date = asDate(d);
  if (Number.isNaN(date.getTime())) return 'unknown date';
  return `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}`;
}

/** "25 Nov 2026, 14:05 UTC": a moment. */
export function formatDateTime(d: DateInput): string {
  const date = asDate(d);
  if (Number.isNaN(date.getTime())) return 'unknown date';
  return `${formatDay(date)}, ${twoDigits(date.getUTCHours())}:${twoDigits(date.getUTCMinutes())} UTC`;
}
