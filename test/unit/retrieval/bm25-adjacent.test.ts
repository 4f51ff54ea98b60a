import { describe, expect, it } from 'vitest';
import { addAdjacency, adjacencyBit, adjacencyHex, mayFollow } from '../../../lib/retrieval/bm25-adjacent';

/** A small seeded generator (mulberry32), so that the documents are the same on every run. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A document's adjacency per term id, as an index build computes it. */
function adjacencyOf(doc: number[]): Uint16Array {
  const into = new Uint16Array(Math.max(...doc) + 1);
  addAdjacency(Int32Array.from(doc), doc.length, into);
  return into;
}

describe('adjacency', () => {
  it('spreads term ids over the eight bits', () => {
    const counts = new Array<number>(8).fill(0);
    for (let id = 1; id <= 8_000; id++) counts[Math.log2(adjacencyBit(id))]! += 1;
    for (const c of counts) expect(c).toBeGreaterThan(800);
  });

  it('records the terms before and after each occurrence', () => {
    const [a, b, c] = [3, 7, 12];
    const of = adjacencyOf([a, b, a, c]);
    expect(of[a]).toBe(((adjacencyBit(b)) << 8) | adjacencyBit(b) | adjacencyBit(c));
    expect(of[b]).toBe((adjacencyBit(a) << 8) | adjacencyBit(a));
    expect(of[c]).toBe(adjacencyBit(a) << 8);
  });

  it('never rules out two terms that stand together, and rules out most that do not', () => {
    const next = random(15);
    let apart = 0;
    let ruledOut = 0;
    for (let d = 0; d < 300; d++) {
      const doc = Array.from({ length: 5 + Math.floor(next() * 60) }, () => 1 + Math.floor(next() * 400));
      const of = adjacencyOf(doc);
      const together = new Set(doc.slice(1).map((b, i) => `${doc[i]} ${b}`));
      for (const a of new Set(doc)) {
        for (const b of new Set(doc)) {
          const follows = mayFollow(a, of[a], b, of[b]);
          if (together.has(`${a} ${b}`)) expect(follows, `${a} ${b}`).toBe(true);
          else {
            apart += 1;
            if (!follows) ruledOut += 1;
          }
        }
      }
    }
    // Words found once or twice in a document: each side passes a wrong neighbour about one time in eight.
    expect(ruledOut / apart).toBeGreaterThan(0.9);
  });

  it('rules out nothing it does not know', () => {
    expect(mayFollow(3, undefined, 7, undefined)).toBe(true);
    expect(mayFollow(3, 0, 7, undefined)).toBe(false);
    expect(mayFollow(3, undefined, 7, 0)).toBe(false);
  });

  it('writes two bytes per posting, high byte first', () => {
    expect(adjacencyHex(Uint16Array.from([0x0102, 0xff00, 0x0080]))).toBe('0102ff000080');
  });
});
