import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../../lib/random';
import { scoreAll, topScores, type QueryTerms, type Scored, type Work } from '../../../lib/retrieval/bm25-top';

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

  it('adds every posting when the bound never falls below the best scores, and handles empty queries', () => {
    const { work, norm } = collection(2);
    const rng = mulberry32(7);
    const common = [term(rng, 0.95, false), term(rng, 1, false)];
    const got = topScores(common, work, norm, 100);
    expect(got.added).toBe(common.reduce((a, t) => a + t.p.entities.length, 0));
    expect(got.top).toEqual(fullTop(common, work, norm, 100));
    expect(topScores([], work, norm, 10)).toEqual({ top: [], added: 0 });
  });
});
