import { describe, expect, it } from 'vitest';
import type { Dimension } from '@/lib/studies/dimensions';
import { studyResults, type RatedItem, type RatingRow } from '@/lib/studies/results';

const DIMS: Dimension[] = [
  { kind: 'scale', key: 'naturalness', label: 'Naturalness', question: '', min: 1, max: 5, anchors: {}, required: true },
  { kind: 'binary', key: 'authentic', label: 'Authentic', question: '', anchors: {}, required: true },
  { kind: 'text', key: 'comment', label: 'Comment', question: '', required: false },
];
const ITEMS: RatedItem[] = [
  { id: 1, source: 'synthesized', queryExternalId: 'q1', text: 'one', attention: null },
  { id: 2, source: 'synthesized', queryExternalId: 'q2', text: 'two', attention: null },
  { id: 3, source: 'human', queryExternalId: 'h1', text: 'three', attention: null },
  { id: 4, source: 'attention check', queryExternalId: null, text: 'Please choose 1', attention: { dimension: 'naturalness', accept: [1] } },
];
const r = (participantId: number, itemId: number, dimension: string, value: number | null, text: string | null = null): RatingRow => ({ participantId, itemId, dimension, value, text });
const RATINGS: RatingRow[] = [
  r(1, 1, 'naturalness', 5), r(1, 2, 'naturalness', 4), r(1, 3, 'naturalness', 2), r(1, 4, 'naturalness', 1),
  r(2, 1, 'naturalness', 4), r(2, 2, 'naturalness', 2), r(2, 3, 'naturalness', 3), r(2, 4, 'naturalness', 5),
  r(1, 1, 'authentic', 1), r(2, 1, 'authentic', 1), r(1, 2, 'authentic', 0), r(2, 2, 'authentic', 1),
  r(2, 3, 'comment', null, 'odd wording'),
];

describe('studyResults', () => {
  const results = studyResults(DIMS, ITEMS, RATINGS, { bootstrapSamples: 200 });
  const naturalness = results.dimensions.find((d) => d.key === 'naturalness')!;

  it('reports positive (4-5) and non-negative (3-5) rates per source and overall, attention checks left out', () => {
    expect(naturalness.bySource).toEqual([
      { source: 'human', n: 2, mean: 2.5, distribution: { 1: 0, 2: 1, 3: 1, 4: 0, 5: 0 }, positive: 0, nonNegative: 0.5 },
      { source: 'synthesized', n: 4, mean: 3.75, distribution: { 1: 0, 2: 1, 3: 0, 4: 2, 5: 1 }, positive: 0.75, nonNegative: 0.75 },
    ]);
    expect(naturalness.overall).toMatchObject({ n: 6, positive: 0.5, nonNegative: 4 / 6 });
    expect(results.dimensions.map((d) => d.key)).toEqual(['naturalness', 'authentic']);
  });

  it('computes ordinal alpha, agreement within one point and exact agreement by hand', () => {
    // Units (5,4), (4,2), (2,3): D_o = 27 and D_e = 198 from the ordinal distances; alpha = 1 - 5 * 27 / 198.
    expect(naturalness.agreement.alpha).toBeCloseTo(1 - (5 * 27) / 198, 10);
    expect(naturalness.agreement).toMatchObject({ units: 3, pairs: 3, withinOne: 2 / 3, exact: 0 });
    const [lo, hi] = naturalness.agreement.ci!;
    expect(lo).toBeLessThanOrEqual(hi);
    expect(lo).toBeGreaterThanOrEqual(-1);
  });

  it('rates a binary dimension by its share of 1s, with nominal agreement', () => {
    const authentic = results.dimensions.find((d) => d.key === 'authentic')!;
    expect(authentic.overall).toMatchObject({ n: 4, positive: 0.75, nonNegative: null });
    expect(authentic.agreement).toMatchObject({ pairs: 2, exact: 0.5, withinOne: null });
  });

  it('lists per-item means and disagreement', () => {
    const item2 = results.items.find((i) => i.itemId === 2)!;
    expect(item2.raters).toBe(2);
    expect(item2.dimensions.naturalness).toEqual({ n: 2, mean: 3, sd: 1, min: 2, max: 4 });
    expect(item2.disagreement).toBe(1);
    expect(results.items.map((i) => i.itemId)).toEqual([1, 2, 3]);
  });

  it('finds participants who failed an attention check, and leaves them out on request', () => {
    expect(results.attention.failed).toEqual([{ participantId: 2, failures: [{ itemId: 4, text: 'Please choose 1', dimension: 'naturalness', given: 5, accept: [1] }] }]);
    const kept = studyResults(DIMS, ITEMS, RATINGS, { excludeFailed: true, bootstrapSamples: 10 });
    expect(kept.participants).toBe(1);
    const n = kept.dimensions.find((d) => d.key === 'naturalness')!;
    expect(n.overall).toMatchObject({ n: 3, positive: 2 / 3 });
    expect(n.agreement).toMatchObject({ alpha: null, ci: null, pairs: 0, withinOne: null });
  });
});
