/**
 * The explorer's bound on a metapath step's walk: edges read, and members of the previous set walked (each an
 * index descent). A hub's 2-hop metapath (a paper cited 32,000 times and the papers citing those) reads
 * millions of edges to count exactly; within this many per step it stays within 250 ms at MAG size, and every
 * set reached within it is counted exactly.
 */
export const WALK_EDGE_BUDGET = 10_000;

export interface StepCount {
  /** Distinct entities reached after the step. */
  reached: number;
  /** Set when a bounded walk stopped early: `reached` is then a lower bound ("at least"). */
  atLeast?: true;
}

/**
 * A metapath count as the explorer shows it: exact ("1,204"), or a lower bound from a bounded walk ("10,001+",
 * read "at least").
 */
export function countLabel(n: number, atLeast?: boolean): string {
  return `${n.toLocaleString('en')}${atLeast ? '+' : ''}`;
}
