import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../../lib/random';
import { countsAt, denseCounts, scoreAll, topScores, type QueryTerms, type Scored, type Work } from '../../../lib/retrieval/bm25-top';

const DOCS = 5000;
const FIRST = 1001;

/** Documents with lengths of 20-200 words; work arrays over them. */
function collection(seed: number): { work: Work; norm: Float64Array } {
  const rng = mulberry32(seed);
  const lengths = Array.from({ length: DOCS }, () => 20 + Math.floor(rng() * 180));
  const avg = lengths.reduce((a, b) => a + b, 0) / DOCS;
  return {
    work: { first: FIRST, scores: new Float64Array(DOCS), touched: new Int32Array(DOCS) },
    norm: Float64Array.from(lengths, (l) => 1.2 * (0.25 + (0.75 * l) / avg)),
  };
}

/** A term in `share` of the documents (at random), with counts of 1-3, or all 1 when `flat` (many equal scores). */
function term(rng: () => number, share: number, flat: boolean): QueryTerms[number] {
  const entities: number[] = [];
  for (let d = 0; d < DOCS; d++) if (rng() < share) entities.push(d + FIRST);
  const df = Math.max(1, entities.length);
  return {
    w: Math.log(1 + (DOCS - df + 0.5) / (df + 0.5)) * 2.2,
    p: { entities: Int32Array.from(entities), tfs: Uint8Array.from(entities, () => (flat ? 1 : 1 + Math.floor(rng() * 3))) },
  };
}

/** The reference: every posting added, the whole ranking sorted. */
function fullTop(terms: QueryTerms, work: Work, norm: Float64Array, depth: number): Scored[] {
  return scoreAll(terms, work, norm, (scores, touched, count, first) => {
    const all: Scored[] = [];
    for (let k = 0; k < count; k++) all.push({ entityId: touched[k]! + first, score: scores[touched[k]!]! });
    return all.sort((a, b) => b.score - a.score || a.entityId - b.entityId).slice(0, depth);
  });
}

describe('BM25 top-k without every posting', () => {
  it('ranks exactly as the full sum, to the last bit, with common words, rare words and ties', { timeout: 60_000 }, () => {
    const { work, norm } = collection(1);
    let pruned = 0;
    for (let q = 0; q < 120; q++) {
      const rng = mulberry32(100 + q);
      // Words in every document, in most, in some, in few: a pasted question's mix.
      const shares = [1, 0.9, 0.6, 0.3, 0.1, 0.02, 0.005, 0.001].filter(() => rng() < 0.7);
      const terms = shares.map((share) => term(rng, share, q % 5 === 0)).sort((a, b) => a.p.entities.length - b.p.entities.length);
      const depth = [1, 10, 100][q % 3]!;
      const got = topScores(terms, work, norm, depth);
      expect(got.top).toEqual(fullTop(terms, work, norm, depth));
      if (got.added < terms.reduce((a, t) => a + t.p.entities.length, 0)) pruned += 1;
      // The work arrays are left cleared for the next query.
      expect(work.scores.every((s) => s === 0)).toBe(true);
    }
    // Most of these queries were answered without adding up their commonest words.
    expect(pruned).toBeGreaterThan(60);
  });

  it('leaves out a word in every document, sums a lone word in full, and handles empty queries', () => {
    const { work, norm } = collection(2);
    const rng = mulberry32(7);
    const common = [term(rng, 0.95, false), term(rng, 1, false)];
    const got = topScores(common, work, norm, 100);
    // The word in every document weighs next to nothing: its bound is below the 100th best, so it is only looked up.
    expect(got.added).toBe(common[0]!.p.entities.length);
    expect(got.top).toEqual(fullTop(common, work, norm, 100));
    const lone = [term(rng, 0.5, false)];
    expect(topScores(lone, work, norm, 10)).toEqual({ top: fullTop(lone, work, norm, 10), added: lone[0]!.p.entities.length });
    expect(topScores([], work, norm, 10)).toEqual({ top: [], added: 0 });
    expect(work.scores.every((s) => s === 0)).toBe(true);
  });

  it('reads counts along rising slots, and a dense count of 255 or more from the postings', () => {
    const p = { entities: Int32Array.from([1003, 1010, 1500, 4999]), tfs: Int32Array.from([2, 300, 1, 7]) };
    const out = new Int32Array(6);
    countsAt(p, Int32Array.from([0, 2, 9, 10, 499, 3998]), FIRST, out);
    expect([...out]).toEqual([0, 2, 300, 0, 1, 7]);
    // The same from the term's byte per document once made (300 kept as 255, so read from the postings).
    const made = { entities: p.entities, tfs: p.tfs };
    expect(denseCounts(made, FIRST, 5_000)[1010 - FIRST]).toBe(255);
    const fromBytes = new Int32Array(6);
    countsAt(made, Int32Array.from([0, 2, 9, 10, 499, 3998]), FIRST, fromBytes);
    expect([...fromBytes]).toEqual([0, 2, 300, 0, 1, 7]);
    // A word in most documents, looked up through its bytes, once 300 times: ranked as the full sum ranks it.
    const { work, norm } = collection(3);
    const rng = mulberry32(11);
    const [rare, some, common] = [term(rng, 0.01, false), term(rng, 0.05, false), term(rng, 0.8, false)];
    // In a document the rarer words reach, so that it is looked up.
    const at = common.p.entities.findIndex((e) => some.p.entities.includes(e));
    const tfs = Int32Array.from(common.p.tfs);
    tfs[at] = 300;
    const terms = [rare, some, { w: common.w, p: { entities: common.p.entities, tfs } }];
    const got = topScores(terms, work, norm, 200);
    expect(got.top.map((t) => t.entityId)).toContain(common.p.entities[at]);
    expect(got.added).toBe(rare.p.entities.length + some.p.entities.length);
    expect(got.top).toEqual(fullTop(terms, work, norm, 200));
  });
});
