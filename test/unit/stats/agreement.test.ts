import { describe, expect, it } from 'vitest';
import { jaccard, krippendorffAlpha } from '@/lib/stats/agreement';

/**
 * The worked example of Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability": four observers,
 * twelve units, missing values; the paper reports alpha = 0.743 (nominal), 0.815 (ordinal), 0.849 (interval)
 * and 0.797 (ratio).
 */
const OBSERVERS: (number | null)[][] = [
  [1, 2, 3, 3, 2, 1, 4, 1, 2, null, null, null],
  [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, null, 3],
  [null, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, null],
  [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, null],
];
const UNITS = OBSERVERS[0]!.map((_, u) => OBSERVERS.map((o) => o[u]).filter((v): v is number => v !== null));

describe('krippendorffAlpha', () => {
  it.each([
    ['nominal', 0.743],
    ['ordinal', 0.815],
    ['interval', 0.849],
    ['ratio', 0.797],
  ] as const)('matches the published %s value', (metric, expected) => {
    const result = krippendorffAlpha(UNITS, metric);
    expect(result.alpha).toBeCloseTo(expected, 3);
    // Unit 12 has a single value and does not count.
    expect(result.units).toBe(11);
    expect(result.values).toBe(40);
  });

  it('is 1 for perfect agreement with variation, and near 0 at chance level', () => {
    expect(krippendorffAlpha([['a', 'a'], ['b', 'b'], ['a', 'a']]).alpha).toBe(1);
    const chance = krippendorffAlpha([['a', 'b'], ['b', 'a'], ['a', 'a'], ['b', 'b']]);
    expect(chance.alpha).toBeCloseTo(0.125, 3);
  });

  it('is undefined without two values in a unit or without variation', () => {
    expect(krippendorffAlpha([['a'], ['b']]).alpha).toBeNull();
    expect(krippendorffAlpha([['a', 'a'], ['a', 'a', 'a']]).alpha).toBeNull();
  });

  it('refuses labels for a numeric metric', () => {
    expect(() => krippendorffAlpha([['a', 'b']], 'interval')).toThrow(/numeric/);
  });
});

describe('jaccard', () => {
  it('is the shared share of the union', () => {
    expect(jaccard([1, 2, 3], [2, 3, 4])).toBeCloseTo(0.5);
    expect(jaccard([1], [2])).toBe(0);
    expect(jaccard([], [])).toBe(1);
    expect(jaccard([1, 1, 2], [2, 1])).toBe(1);
  });
});
