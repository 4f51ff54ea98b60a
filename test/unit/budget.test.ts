import { describe, expect, it } from 'vitest';
import { allocateBudget } from '../../lib/kb/budget';

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

describe('allocateBudget', () => {
  it('shows everything when it fits', () => {
    expect(allocateBudget([3, 1, 4], 10)).toEqual([3, 1, 4]);
  });

  it('gives small groups all they have and splits the rest among large ones', () => {
    expect(allocateBudget([2, 100, 100], 20)).toEqual([2, 9, 9]);
    expect(allocateBudget([1, 1, 50, 1000], 30)).toEqual([1, 1, 14, 14]);
  });

  it('never exceeds the budget, even with more groups than slots', () => {
    expect(allocateBudget([5, 5, 5, 5, 5, 5, 5, 5], 5)).toEqual([1, 1, 1, 1, 1, 0, 0, 0]);
    expect(allocateBudget([7, 3], 0)).toEqual([0, 0]);
    expect(allocateBudget([], 10)).toEqual([]);
  });

  it('uses the whole budget when there is enough to show', () => {
    for (const [sizes, budget] of [[[10, 20, 30], 25], [[1, 2, 3, 100000], 150], [[9, 9, 9], 10]] as [number[], number][]) {
      const shares = allocateBudget(sizes, budget);
      expect(sum(shares)).toBe(Math.min(budget, sum(sizes)));
      shares.forEach((s, i) => expect(s).toBeLessThanOrEqual(sizes[i]!));
    }
  });
});
