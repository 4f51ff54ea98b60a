import { describe, expect, it } from 'vitest';
import { fuseRankings } from '../../../lib/vectors/fusion';
import { nearestRows } from '../../../lib/vectors/memory-search';
import { TopK } from '../../../lib/vectors/topk';
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
  it('agrees with sorting every dot product (odd dimension, so the unrolled loop has a tail)', () => {
    const rand = mulberry32(3);
    const dimension = 7;
    const count = 300;
    const vectors = Float32Array.from({ length: count * dimension }, () => rand() - 0.5);
    const entityIds = Int32Array.from({ length: count }, (_, i) => 1000 - i);
    const query = Float32Array.from({ length: dimension }, () => rand() - 0.5);
    const dots = Array.from({ length: count }, (_, row) => {
      let s = 0;
      for (let j = 0; j < dimension; j++) s += vectors[row * dimension + j]! * query[j]!;
      return { row, s };
    });
    const expected = dots.sort((a, b) => b.s - a.s).slice(0, 10).map((d) => d.row);
    const found = nearestRows({ setId: 1, dimension, count, vectors, entityIds, externalIds: [] }, query, 10);
    expect(found.map((f) => f.row)).toEqual(expected);
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
