import type { Database } from '../db/transaction';
import { fuseRankings, RRF_K } from './fusion';
import { vectorSearch } from './search';
import { embeddingPair, vectorsOf } from './sets';

type Ranker = (batch: { id: string; text: string }[]) => Promise<string[][]>;

export const vectorRunName = (name: string) => `Vector (${name}, exact cosine)`;
export const hybridRunName = (name: string, bm25: string) => `Hybrid: ${bm25} + vector (${name}), reciprocal-rank fusion k ${RRF_K}`;

/**
 * Ranks queries by their embeddings: the exact cosine top `depth` among the knowledge base's entity vectors
 * of the named set. With `bm25`, the hybrid: BM25's and the vectors' rankings fused by reciprocal rank.
 * Queries the set has no vector for rank nothing (hybrid: BM25 alone); `missing()` counts them.
 * Refuses (400) a name the knowledge base or query set has no embeddings of before anything runs.
 */
export async function embeddingRanker(db: Database, kbId: number, querySetId: number, name: string, depth: number, bm25?: Ranker): Promise<{ rank: Ranker; missing: () => number }> {
  const pair = await embeddingPair(db, kbId, querySetId, name);
  const search = await vectorSearch(db);
  let missing = 0;
  const rank: Ranker = async (batch) => {
    const vectors = await vectorsOf(db, pair.queries, batch.map((q) => q.id));
    const having = batch.filter((q) => vectors.has(q.id));
    missing += batch.length - having.length;
    const found = await search.nearest(pair.entities, having.map((q) => vectors.get(q.id)!), depth);
    const byQuery = new Map(having.map((q, i) => [q.id, found[i]!]));
    if (!bm25) return batch.map((q) => byQuery.get(q.id)?.map((e) => e.id) ?? []);
    const lexical = await bm25(batch);
    const entityIds = await internalIds(db, kbId, lexical.flat());
    return batch.map((q, i) => fuseRankings([
      lexical[i]!.map((id) => ({ id, entityId: entityIds.get(id)! })),
      byQuery.get(q.id) ?? [],
    ], depth).map((e) => e.id));
  };
  return { rank, missing: () => missing };
}

async function internalIds(db: Database, kbId: number, ids: string[]): Promise<Map<string, number>> {
  const { rows } = await db.query<{ external_id: string; id: number }>(
    'SELECT external_id, id FROM entity WHERE kb_id = $1 AND external_id = ANY($2::text[])', [kbId, [...new Set(ids)]]);
  return new Map(rows.map((r) => [r.external_id, r.id]));
}

/** The run's warning when some queries had no vector in the set. */
export function missingWarning(name: string, missing: number, total: number, hybrid: boolean): { file: string; line: number; reason: string } {
  return { file: `query embeddings "${name}"`, line: 0,
    reason: `${missing.toLocaleString('en')} of ${total.toLocaleString('en')} queries have no embedding and ${hybrid ? 'are ranked by BM25 alone' : 'rank nothing'}` };
}
