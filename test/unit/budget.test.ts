import { describe, expect, it } from 'vitest';
import { allocateBudget, ELEMENTS_PER_NEIGHBOUR, ELEMENTS_PER_STUB, levelAllowance, MIN_NEW_NEIGHBOURS, planLevel } from '../../lib/kb/budget';

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

describe('levelAllowance', () => {
  it('lets the last level spend everything and earlier ones an even share of the levels to come', () => {
    expect(levelAllowance(499, 1, 1)).toBe(499);
    expect(levelAllowance(499, 1, 2)).toBe(249);
    expect(levelAllowance(300, 2, 2)).toBe(300);
    expect(levelAllowance(499, 1, 3)).toBe(166);
    expect(levelAllowance(333, 2, 3)).toBe(166);
    expect(levelAllowance(-5, 1, 2)).toBe(0);
  });
});

describe('planLevel', () => {
  const costOf = (groups: number[][], plan: ReturnType<typeof planLevel>) =>
    groups.reduce((total, g, i) => total + (plan.expanded[i]
      ? g.reduce((s, r, j) => s + ELEMENTS_PER_NEIGHBOUR * plan.shares[i]![j]! + (plan.shares[i]![j]! < r ? ELEMENTS_PER_STUB : 0), 0)
      : 0), 0);

  it('shows everything when it fits, with no stubs', () => {
    const groups = [[3, 1], [2]];
    const plan = planLevel(groups, 100);
    expect(plan.expanded).toEqual([true, true]);
    expect(plan.shares).toEqual(groups);
    expect(costOf(groups, plan)).toBe(12);
  });

  it('never plans more than the allowance, counting a stub for every cut group', () => {
    const cases: [number[][], number][] = [
      [[[100, 100, 5]], 60], [[[1000], [3, 3], [7, 1, 1, 1]], 25], [[[9, 9, 9], [9, 9, 9], [9, 9, 9]], 7],
      [[[50], [50], [50], [50]], 41], [[[2, 2, 2, 2, 2, 2]], 13], [[[1], [1], [1]], 5],
    ];
    for (const [groups, allowance] of cases) {
      const plan = planLevel(groups, allowance);
      expect(costOf(groups, plan)).toBeLessThanOrEqual(allowance);
      expect(plan.cost).toBeGreaterThanOrEqual(costOf(groups, plan));
      expect(plan.cost).toBeLessThanOrEqual(allowance);
      plan.shares.forEach((s, i) => s.forEach((x, j) => expect(x).toBeLessThanOrEqual(groups[i]![j]!)));
    }
  });

  it('shares max-min fairly between nodes, then between a node\'s groups', () => {
    const groups = [[100], [100, 100], [4]];
    const plan = planLevel(groups, 2 * (1 + 2 + 1) + 2 * 40);
    expect(plan.expanded).toEqual([true, true, true]);
    // Node 2 takes its 3 further neighbours whole; nodes 0 and 1 split the other 37 (18 and 19, ties to the first).
    expect(plan.shares[2]).toEqual([4]);
    expect(plan.shares[0]![0]! + plan.shares[1]![0]! + plan.shares[1]![1]!).toBe(37);
    expect(Math.abs(plan.shares[0]![0]! - (plan.shares[1]![0]! + plan.shares[1]![1]!))).toBeLessThanOrEqual(1);
    expect(Math.abs(plan.shares[1]![0]! - plan.shares[1]![1]!)).toBeLessThanOrEqual(1);
  });

  it('expands fewer nodes rather than turning them all into stubs, cheapest first', () => {
    const groups = [[9, 9, 9], [9], [9, 9]];
    const plan = planLevel(groups, 2 * 1 + 2 * MIN_NEW_NEIGHBOURS + 2 * 2 + 2 * MIN_NEW_NEIGHBOURS);
    expect(plan.expanded).toEqual([false, true, true]);
    plan.shares.forEach((s, i) => { if (plan.expanded[i]) expect(s.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(MIN_NEW_NEIGHBOURS); });
  });

  it('always expands the nodes it must, before any others', () => {
    const plan = planLevel([[5, 5, 5], [1]], 6, 1);
    expect(plan.expanded).toEqual([true, false]);
    expect(plan.shares[0]).toEqual([0, 0, 0]);
    expect(plan.cost).toBe(6);
  });
});
