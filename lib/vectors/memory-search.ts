import type { EntityMatrix } from './cache';
import { TopK } from './topk';

/**
 * The dot product of the unit query with every unit row, i.e. the cosine similarities, into `out` (four
 * running sums let the loop pipeline).
 */
function scoreAll(m: EntityMatrix, query: Float32Array, out: Float64Array): void {
  const { vectors, dimension: d } = m;
  const tail = d - (d % 4);
  for (let row = 0, off = 0; row < m.count; row++, off += d) {
    let s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    let j = 0;
    for (; j < tail; j += 4) {
      s0 += vectors[off + j]! * query[j]!;
      s1 += vectors[off + j + 1]! * query[j + 1]!;
      s2 += vectors[off + j + 2]! * query[j + 2]!;
      s3 += vectors[off + j + 3]! * query[j + 3]!;
    }
    for (; j < d; j++) s0 += vectors[off + j]! * query[j]!;
    out[row] = s0 + s1 + s2 + s3;
  }
}

/** Exact cosine top-k by brute force, kept in a top-k heap. Returns rows of the matrix, best first. */
export function nearestRows(m: EntityMatrix, query: Float32Array, k: number): { row: number; score: number }[] {
  const scores = new Float64Array(m.count);
  scoreAll(m, query, scores);
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
  const scores = new Float64Array(m.count);
  scoreAll(m, query, scores);
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
