/**
 * The one way dates are written: day, the month as a word and year ("25 Nov 2026"), so no reader mistakes the
 * day for the month, and a time of day with its time zone named. `formatDay` and `formatDateTime` write them in
 * UTC, by hand rather than with Intl: the server's and the browser's ICU data differ ("Sep" or "Sept"), and the
 * text the server renders must be the text the browser hydrates; they are also the text of the command line,
 * CSV and text outputs. `formatLocalDateTime` writes them in a reader's locale and time zone, which the pages
 * show once they have hydrated (`components/when.tsx`).
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

export interface LocalDateOptions {
  /** The reader's locales, most wanted first (the browser's `navigator.languages`); the default locale without. */
  locale?: string | readonly string[];
  /** An IANA time zone ("Europe/Berlin"); the default time zone without. */
  timeZone?: string;
  /** A day, without the time of day. */
  day?: boolean;
}

const DAY_PARTS: Intl.DateTimeFormatOptions = { day: 'numeric', month: 'short', year: 'numeric' };
const MOMENT_PARTS: Intl.DateTimeFormatOptions = { ...DAY_PARTS, hour: '2-digit', minute: '2-digit', timeZoneName: 'short' };

/** Formatters made, by locale, time zone and kind: making one costs far more than using it. */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor({ locale, timeZone, day = false }: LocalDateOptions): Intl.DateTimeFormat {
  const locales = locale === undefined ? undefined : typeof locale === 'string' ? [locale] : [...locale];
  const key = JSON.stringify([locales, timeZone, day]);
  let made = formatters.get(key);
  if (!made) {
    made = new Intl.DateTimeFormat(locales, { ...(day ? DAY_PARTS : MOMENT_PARTS), timeZone });
    formatters.set(key, made);
  }
  return made;
}

/**
 * A day ("25. Nov. 2026") or a moment with its time zone named ("25 Nov 2026, 14:05 UTC", "Nov 25, 2026, 09:05 AM
 * EST") in the reader's locale and time zone, the month as a word where the locale has one. A locale or time
 * zone Intl does not know gives the UTC text of `formatDay`/`formatDateTime` instead.
 */
export function formatLocalDateTime(d: DateInput, options: LocalDateOptions = {}): string {
  const date = asDate(d);
  if (Number.isNaN(date.getTime())) return 'unknown date';
  try {
    return formatterFor(options).format(date);
  } catch (err) {
    if (!(err instanceof RangeError)) throw err;
    return options.day ? formatDay(date) : formatDateTime(date);
  }
}
