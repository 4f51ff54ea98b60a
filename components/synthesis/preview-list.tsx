'use client';

import { useQueries, useQuery } from '@tanstack/react-query';
import type { EntityDetail } from '@/lib/kb/entity';
import type { EntitySummary } from '@/lib/kb/lookup';
import { requestJson } from '../queries/api';
import type { PreviewItem } from './api';
import { ProvenanceView, type EntityNames } from './provenance';

const enc = encodeURIComponent;
/** Answers looked up by name per attempt; more are shown by id (each is one request). */
const NAMED_ANSWERS = 25;

/** The attempts of a preview: each kept query, or where and why an attempt was dropped or failed. */
export function PreviewList({ slug, items }: { slug: string; items: PreviewItem[] }) {
  const kept = items.filter((i) => i.status === 'kept').length;
  return (
    <section aria-labelledby="preview-heading" className="space-y-3" data-testid="preview">
      <h2 id="preview-heading" className="text-lg font-medium">Preview</h2>
      <p className="text-slate-600" data-testid="preview-summary">
        {items.length} {items.length === 1 ? 'attempt' : 'attempts'}: {kept} kept, {items.length - kept} dropped or failed. Nothing was saved but the LLM calls.
      </p>
      {items.map((item) => <OutcomeCard key={item.position} slug={slug} item={item} />)}
    </section>
  );
}

const STATUS_CLASS = { kept: 'bg-green-50 text-green-800', dropped: 'bg-amber-50 text-amber-900', failed: 'bg-red-50 text-red-800' } as const;

function OutcomeCard({ slug, item }: { slug: string; item: PreviewItem }) {
  const p = item.provenance;
  const named = [...(p.seeds ?? []).map((s) => s.id), ...(p.propertySource ? [p.propertySource.id] : []), ...(p.relationalAnswers ?? []).slice(0, NAMED_ANSWERS)];
  const { entities, document } = useEntityNames(slug, named, p.propertySource?.id);
  return (
    <article aria-label={`Attempt ${item.position + 1}`} className="space-y-2 rounded-lg border border-slate-200 bg-white p-4 text-sm" data-testid="preview-item">
      <div className="flex flex-wrap items-center gap-2">
        <h3 className="font-medium">Attempt {item.position + 1}</h3>
        <span className={`rounded px-2 py-0.5 text-xs ${STATUS_CLASS[item.status]}`} data-testid="preview-status">
          {item.status === 'kept' ? 'kept' : `${item.status} at ${item.stage}`}
        </span>
      </div>
      {item.status === 'kept'
        ? <p className="text-base" data-testid="preview-query">{item.text}</p>
        : <p className="text-slate-700" data-testid="preview-reason">{item.reason}</p>}
      <ProvenanceView slug={slug} provenance={p} entities={entities} sourceDocument={document} canSeeCalls />
    </article>
  );
}

/**
 * Links for the entities an attempt names by external id (seeds, the property source, its first answers) and the
 * property source's document, for its quotes; looked up one by one, as a preview names only a few.
 */
function useEntityNames(slug: string, ids: string[], sourceId: string | undefined): { entities: EntityNames; document: Record<string, unknown> | null } {
  const lookups = useQueries({
    queries: [...new Set(ids)].map((id) => ({
      queryKey: ['entity-lookup', slug, id],
      queryFn: () => requestJson<EntitySummary>(`/api/kbs/${enc(slug)}/lookup?id=${enc(id)}`),
      staleTime: Infinity,
    })),
  });
  const entities: EntityNames = {};
  // A numeric key may name an internal id first: only an entity with that external id is this one.
  for (const { data } of lookups) if (data) entities[data.externalId] = { entityId: data.id, name: data.name };
  const sourceEntityId = sourceId === undefined ? undefined : entities[sourceId]?.entityId;
  const source = useQuery({
    queryKey: ['entity', slug, sourceEntityId],
    queryFn: () => requestJson<EntityDetail>(`/api/kbs/${enc(slug)}/entities/${sourceEntityId}`),
    enabled: typeof sourceEntityId === 'number',
    staleTime: Infinity,
  });
  return { entities, document: source.data?.document ?? null };
}
