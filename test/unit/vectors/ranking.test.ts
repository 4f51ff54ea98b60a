import { describe, expect, it } from 'vitest';
import { fuseRankings } from '../../../lib/vectors/fusion';
import { ScoreKernel } from '../../../lib/vectors/kernel';
import { nearestRows, ranksOfEntities } from '../../../lib/vectors/memory-search';
import { TopK } from '../../../lib/retrieval/top-k';
import { mulberry32 } from '../../../lib/random';

describe('top-k heap', () => {
  it('keeps the k best of many, best first, equal scores by the lower id, whatever the order', () => {
    const rand = mulberry32(7);
    // Scores on a coarse grid, so there are many ties.
    const items = Array.from({ length: 2000 }, (_, i) => ({ score: Math.floor(rand() * 50), id: i + 1 }));
    const expected = [...items].sort((a, b) => b.score - a.score || a.id - b.id).slice(0, 25).map((x) => x.id);
    for (const order of [items, [...items].reverse()]) {
      const top = new TopK(25);
      order.forEach((x) => top.push(x.score, x.id, x.id));
      expect(top.sorted().map((c) => c.id)).toEqual(expected);
    }
  });
});

describe('exact cosine scan', () => {
  /** A matrix of random rows (odd dimension: rows are padded for the SIMD kernel) and its dot products done plainly. */
  function random(count: number, dimension: number, seed: number) {
    const rand = mulberry32(seed);
    const kernel = new ScoreKernel(count, dimension);
    const rows = Array.from({ length: count }, (_, row) => {
      const v = Array.from({ length: dimension }, () => rand() - 0.5);
      kernel.vectors.set(v, row * kernel.stride);
      return v;
    });
    const query = Float32Array.from({ length: dimension }, () => rand() - 0.5);
    const dots = rows.map((v) => v.reduce((sum, x, j) => sum + Math.fround(x) * query[j]!, 0));
    const entityIds = Int32Array.from({ length: count }, (_, i) => 1000 - i);
    return { matrix: { setId: 1, count, kernel, entityIds, externalIds: [] }, query, dots };
  }

  it('scores every row as its dot product with the query', () => {
    for (const dimension of [1, 7, 16, 40]) {
      const { matrix, query, dots } = random(50, dimension, dimension);
      const scores = matrix.kernel.score(query);
      dots.forEach((d, row) => expect(scores[row]).toBeCloseTo(d, 5));
    }
  });

  it('agrees with sorting every dot product, and ranks chosen entities as that order does', () => {
    const { matrix, query, dots } = random(300, 7, 3);
    const order = dots.map((s, row) => ({ row, s })).sort((a, b) => b.s - a.s).map((d) => d.row);
    expect(nearestRows(matrix, query, 10).map((f) => f.row)).toEqual(order.slice(0, 10));
    const ranks = ranksOfEntities(matrix, query, [matrix.entityIds[order[0]!]!, matrix.entityIds[order[299]!]!, 5]);
    expect([...ranks.values()]).toEqual([1, 300, null]);
  });
});

describe('reciprocal-rank fusion', () => {
  it('sums 1 / (60 + rank) over the rankings, ties by the lower entity id', () => {
    const e = (id: string, entityId: number) => ({ id, entityId });
    const fused = fuseRankings([[e('a', 1), e('b', 2), e('c', 3)], [e('b', 2), e('a', 1), e('d', 4)]], 10);
    expect(fused.map((f) => f.id)).toEqual(['a', 'b', 'c', 'd']);
    expect(fused[0]!.score).toBe(1 / 61 + 1 / 62);
    expect(fused[1]!.score).toBe(fused[0]!.score);
    expect(fused[2]!.score).toBe(1 / 63);
    expect(fuseRankings([[e('a', 1), e('b', 2), e('c', 3)], [e('c', 3)]], 2).map((f) => f.id)).toEqual(['c', 'a']);
  });
});
