import { describe, expect, it } from 'vitest';
import { BLOCK_POSTINGS, BlockBuilder, blocksByTerm, int4ArrayLength, readInt4Array } from '../../lib/retrieval/bm25-blocks';

/** A page's postings grouped by term, terms rising, entity ids rising within each; adjacency a function of them. */
function page(postings: [term: number, entity: number, tf: number][]) {
  const sorted = [...postings].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  return { term: sorted.map((p) => p[0]), entity: sorted.map((p) => p[1]), tf: sorted.map((p) => p[2]), adjacent: sorted.map(adjacencyOf) };
}
const adjacencyOf = ([term, entity]: number[]) => ((term! * 256 + entity!) % 65_536);

describe('BlockBuilder', () => {
  it("cuts each term's postings across pages into blocks of entity ids rising, keyed by their last id", () => {
    const b = new BlockBuilder();
    b.add(page([[2, 10, 1], [1, 10, 3], [2, 11, 2]]));
    b.add(page([[1, 20, 1], [3, 21, 7]]));
    expect(b.size).toBe(5);
    const rows = b.cut();
    expect(rows.entities.reduce((n, e) => n + e.length, 0)).toBe(5);
    expect(rows.term).toEqual([1, 2, 3]);
    expect(rows.last).toEqual([20, 11, 21]);
    expect(rows.entities.map((e) => [...e])).toEqual([[10, 20], [10, 11], [21]]);
    expect(rows.tfs.map((t) => [...t])).toEqual([[3, 1], [1, 2], [7]]);
    expect(rows.adjacent.map((a) => [...a])).toEqual([[266, 276], [522, 523], [789]]);
    expect(b.size).toBe(0);
    expect(b.cut().term).toEqual([]);
  });

  it(`splits a term with more than ${BLOCK_POSTINGS} postings, no block larger`, () => {
    const b = new BlockBuilder();
    const n = 2 * BLOCK_POSTINGS + 3;
    const ids = Array.from({ length: n }, (_, i) => 5 + 2 * i);
    b.add(page(ids.slice(0, 700).map((id) => [4, id, 1])));
    b.add(page(ids.slice(700).map((id) => [4, id, 2])));
    const rows = b.cut();
    expect(rows.entities.map((e) => e.length)).toEqual([BLOCK_POSTINGS, BLOCK_POSTINGS, 3]);
    expect(rows.last).toEqual([ids[BLOCK_POSTINGS - 1], ids[2 * BLOCK_POSTINGS - 1], ids.at(-1)]);
    expect(rows.entities.flatMap((e) => [...e])).toEqual(ids);
    expect(rows.tfs.flatMap((t) => [...t])).toEqual(ids.map((_, i) => (i < 700 ? 1 : 2)));
    expect(rows.adjacent.flatMap((a) => [...a])).toEqual(ids.map((id) => adjacencyOf([4, id])));
  });
});

describe('blocksByTerm', () => {
  it("gives each term once with all its rows in order, one row alone too", () => {
    const rows = [{ id: 4, at: 0 }, { id: 4, at: 1 }, { id: 7, at: 2 }, { id: 9, at: 3 }, { id: 9, at: 4 }, { id: 9, at: 5 }];
    expect([...blocksByTerm(rows)].map(([id, rs]) => [id, rs.map((r) => r.at)])).toEqual([[4, [0, 1]], [7, [2]], [9, [3, 4, 5]]]);
    expect([...blocksByTerm([])]).toEqual([]);
  });
});

describe('readInt4Array', () => {
  /** An int4[] as array_send writes it. */
  function arraySend(values: number[]): Buffer {
    if (!values.length) return Buffer.from([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 23]);
    const buf = Buffer.alloc(20 + 8 * values.length);
    buf.writeInt32BE(1, 0);
    buf.writeInt32BE(0, 4);
    buf.writeInt32BE(23, 8);
    buf.writeInt32BE(values.length, 12);
    buf.writeInt32BE(1, 16);
    values.forEach((v, i) => { buf.writeInt32BE(4, 20 + 8 * i); buf.writeInt32BE(v, 24 + 8 * i); });
    return buf;
  }

  it('reads the elements into place and says how many', () => {
    const out = new Int32Array(5);
    expect(int4ArrayLength(arraySend([7, 300000, -2]))).toBe(3);
    expect(readInt4Array(arraySend([7, 300000, -2]), out, 1)).toBe(3);
    expect([...out]).toEqual([0, 7, 300000, -2, 0]);
    expect(int4ArrayLength(arraySend([]))).toBe(0);
    expect(readInt4Array(arraySend([]), out, 0)).toBe(0);
  });
});
