import { useQuery } from '@tanstack/react-query';
import type { MetapathSchema } from '@/lib/kb/metapath';
import { fetchJson } from './fetch-json';

/**
 * All entity type names of a knowledge base, fetched once per knowledge base (the schema query is shared with
 * the metapath builder and the paths view): the list `typeColour` ranks, so every view colours a type alike.
 * Undefined until loaded.
 */
export function useKbTypes(kbSlug: string): string[] | undefined {
  const { data } = useQuery({
    queryKey: ['metapath-schema', kbSlug],
    queryFn: () => fetchJson<MetapathSchema>(`/api/kbs/${encodeURIComponent(kbSlug)}/metapaths/schema`),
    staleTime: 10 * 60_000,
    select: (schema) => schema.types.map((t) => t.name),
  });
  return data;
}
