'use client';

import { useQuery } from '@tanstack/react-query';
import { fetchJson } from '@/lib/client/fetch-json';
import type { EntityDetail, RelationCount } from '@/lib/kb/entity';

export type EntityWithRelations = EntityDetail & { relations: RelationCount[] };

/** An entity's document and edge counts, as the entity API gives them. */
export function useEntity(kbSlug: string, entityId: number) {
  return useQuery({
    queryKey: ['entity-detail', kbSlug, entityId],
    queryFn: () => fetchJson<EntityWithRelations>(`/api/kbs/${encodeURIComponent(kbSlug)}/entities/${entityId}`),
    staleTime: Infinity,
  });
}
