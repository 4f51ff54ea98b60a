import type { EntityMatrix } from './cache';
import { TopK } from './topk';

/**
 * Exact cosine top-k by brute force: the dot product of the unit query with every unit row (four running
 * sums let the loop pipeline), kept in a top-k heap. Returns rows of the matrix, best first.
 */
export function nearestRows(m: EntityMatrix, query: Float32Array, k: number): { row: number; score: number }[] {
  const top = new TopK(Math.min(k, m.count));
  const { vectors, entityIds, dimension: d } = m;
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
    const score = s0 + s1 + s2 + s3;
    if (top.admits(score, entityIds[row]!)) top.push(score, entityIds[row]!, row);
  }
  return top.sorted().map((c) => ({ row: c.slot, score: c.score }));
}
