'use client';

import { useSyncExternalStore } from 'react';
import { formatDateTime, formatDay, formatLocalDateTime } from '@/lib/format/date';

/** The browser's languages change rarely; it says so with `languagechange`. Its time zone has no event. */
function subscribe(onChange: () => void): () => void {
  window.addEventListener('languagechange', onChange);
  return () => window.removeEventListener('languagechange', onChange);
}

/** The reader's locales: the browser's languages, else the default locale (undefined). */
const readerLocales = (): readonly string[] | undefined => (navigator.languages?.length ? navigator.languages : undefined);

/**
 * A day or a moment: in UTC ("25 Nov 2026, 14:05 UTC") in the server's render and while React hydrates it, so
 * the two agree, then in the reader's locale and time zone ("25. Nov. 2026, 15:05 MEZ"); the UTC text stays as
 * its title, the moment itself as its `dateTime`.
 */
export function When({ at, day = false }: { at: string | number | Date; day?: boolean }) {
  const date = at instanceof Date ? at : new Date(at);
  const valid = !Number.isNaN(date.getTime());
  const utc = day ? formatDay(date) : formatDateTime(date);
  const text = useSyncExternalStore(
    subscribe,
    // Without a time zone Intl takes the browser's.
    () => formatLocalDateTime(date, { locale: readerLocales(), day }),
    () => utc,
  );
  if (!valid) return <>{utc}</>;
  return <time dateTime={date.toISOString()} title={utc}>{text}</time>;
}
