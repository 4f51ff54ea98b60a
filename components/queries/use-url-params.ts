'use client';

import { usePathname, useSearchParams } from 'next/navigation';

type Patch = Record<string, string | number | null | undefined>;

/**
 * The page's query parameters and a setter that merges a patch into them (null, undefined or "" removes a
 * key). The view state lives in the URL, so a link or a reload shows the same view; the native history API
 * updates the URL, and useSearchParams, without a server round trip.
 */
export function useUrlParams(): [URLSearchParams, (patch: Patch) => void] {
  const pathname = usePathname();
  const params = new URLSearchParams(useSearchParams().toString());
  const update = (patch: Patch) => {
    // Merged into the URL as it is now: two changes before a re-render must not lose the first.
    const next = new URLSearchParams(window.location.search);
    for (const [key, value] of Object.entries(patch)) {
      if (value === null || value === undefined || value === '') next.delete(key);
      else next.set(key, String(value));
    }
    const query = next.toString();
    window.history.pushState(null, '', query ? `${pathname}?${query}` : pathname);
  };
  return [params, update];
}

/** A positive integer parameter, or `fallback`. */
export function intParam(params: URLSearchParams, key: string, fallback: number): number {
  const n = Number(params.get(key));
  return Number.isInteger(n) && n >= 1 ? n : fallback;
}
