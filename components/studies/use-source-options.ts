'use client';

import { useQueries, useQuery } from '@tanstack/react-query';
import type { ReleaseSummary } from '@/lib/queries/releases';
import type { QuerySetSummary } from '@/lib/queries/sets';
import { requestJson, setApi } from '../queries/api';
import type { SourceDraft } from './study-draft';

export interface SourceOptions {
  sets: QuerySetSummary[];
  setsError: Error | null;
  /** The releases of each chosen set, newest first, once loaded. */
  releases: Map<string, ReleaseSummary[]>;
  /** How many items each source row would give, when its counts are known. */
  sizes: (number | null)[];
}

/** The knowledge base's query sets and the releases of the sets the rows chose, with each row's item count. */
export function useSourceOptions(slug: string, sources: SourceDraft[]): SourceOptions {
  const sets = useQuery({
    queryKey: ['query-sets', slug],
    queryFn: () => requestJson<{ items: QuerySetSummary[] }>(`/api/kbs/${encodeURIComponent(slug)}/query-sets`),
  });
  const chosen = [...new Set(sources.map((s) => s.querySet).filter(Boolean))];
  // The same key as the query-set pages' release list, so they share the cache.
  const releaseLists = useQueries({
    queries: chosen.map((name) => ({
      queryKey: ['query-set-releases', slug, name],
      queryFn: () => requestJson<{ items: ReleaseSummary[] }>(`${setApi(slug, name)}/releases`),
    })),
  });
  const releases = new Map<string, ReleaseSummary[]>();
  chosen.forEach((name, i) => { const data = releaseLists[i]?.data; if (data) releases.set(name, data.items); });
  const sizes = sources.map((s) => {
    const total = s.release
      ? releases.get(s.querySet)?.find((r) => r.number === Number(s.release))?.queryCount
      : sets.data?.items.find((x) => x.name === s.querySet)?.queries;
    if (total === undefined) return null;
    return s.sample && Number(s.sample) >= 1 ? Math.min(total, Number(s.sample)) : total;
  });
  return { sets: sets.data?.items ?? [], setsError: sets.error, releases, sizes };
}
