import type { EntityMatrix } from './cache';
import { TopK } from '../retrieval/top-k';

/**
 * Exact cosine top-k by brute force: every row's similarity (see `ScoreKernel`), the best kept in a top-k
 * heap. Returns rows of the matrix, best first.
 */
export function nearestRows(m: EntityMatrix, query: Float32Array, k: number): { row: number; score: number }[] {
  const scores = m.kernel.score(query, m.count);
  const top = new TopK(Math.min(k, m.count));
  for (let row = 0; row < m.count; row++) {
    if (top.admits(scores[row]!, m.entityIds[row]!)) top.push(scores[row]!, m.entityIds[row]!, row);
  }
  return top.sorted().map((c) => ({ row: c.slot, score: c.score }));
}

/**
 * Where the given entities would rank in the full cosine ranking (1 = first; ties to the lower entity id, as
 * `nearestRows` orders them); null for an entity the set has no vector for.
 */
export function ranksOfEntities(m: EntityMatrix, query: Float32Array, entityIds: number[]): Map<number, number | null> {
  const scores = m.kernel.score(query, m.count);
  const rowOf = new Map<number, number>();
  const wanted = new Set(entityIds);
  for (let row = 0; row < m.count; row++) if (wanted.has(m.entityIds[row]!)) rowOf.set(m.entityIds[row]!, row);
  const ranks = new Map<number, number | null>();
  for (const id of entityIds) {
    const row = rowOf.get(id);
    if (row === undefined) { ranks.set(id, null); continue; }
    const s = scores[row]!;
    let ahead = 0;
    for (let r = 0; r < m.count; r++) if (scores[r]! > s || (scores[r] === s && m.entityIds[r]! < id)) ahead++;
    ranks.set(id, ahead + 1);
  }
  return ranks;
}
