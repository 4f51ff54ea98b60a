'use client';

import { useQuery } from '@tanstack/react-query';
import type { EmbeddingSetRow } from '@/lib/vectors/sets';
import { requestJson, setApi } from './api';
import { fmtCount } from './format';

export interface SetEmbeddings {
  entities: EmbeddingSetRow[];
  queries: EmbeddingSetRow[];
  /** Names with both entity and query vectors of one dimension: what a vector baseline can rank by. */
  usable: string[];
}

export function useSetEmbeddings(slug: string, name: string) {
  return useQuery({ queryKey: ['query-set-embeddings', slug, name], queryFn: () => requestJson<SetEmbeddings>(`${setApi(slug, name)}/embeddings`) });
}

/** Which embeddings the knowledge base and the query set have, for the vector and hybrid baselines. */
export function EmbeddingsSummary({ slug, name }: { slug: string; name: string }) {
  const { data } = useSetEmbeddings(slug, name);
  if (!data) return null;
  const names = [...new Set([...data.entities, ...data.queries].map((s) => s.name))].sort();
  if (!names.length) {
    return <p className="text-xs text-slate-500" data-testid="embeddings-summary">No embeddings imported: the vector and hybrid baselines need entity and query vectors (<code>skb embeddings import</code>).</p>;
  }
  const describe = (s: EmbeddingSetRow | undefined, what: string) => (s ? `${fmtCount(s.count)} ${what} × ${s.dimension}` : `no ${what}`);
  return (
    <p className="text-xs text-slate-600" data-testid="embeddings-summary">
      Embeddings:{' '}
      {names.map((n, i) => (
        <span key={n}>
          {i > 0 && '; '}<strong>{n}</strong> ({describe(data.entities.find((s) => s.name === n), 'entities')}, {describe(data.queries.find((s) => s.name === n), 'queries')})
        </span>
      ))}
    </p>
  );
}
