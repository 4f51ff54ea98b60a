/**
 * Confidence intervals for a proportion. The Wilson score interval (Wilson 1927) stays inside [0, 1] and keeps
 * close to its nominal coverage for small samples and proportions near 0 or 1, where the normal approximation
 * (p ± z·√(p(1−p)/n)) collapses to a zero-width interval at 0 errors found (Newcombe 1998, "Two-sided
 * confidence intervals for the single proportion").
 */

/** z for a two-sided 95% interval. */
export const Z_95 = 1.959963984540054;

export interface ProportionInterval {
  /** successes / n; null when n is 0. */
  rate: number | null;
  low: number | null;
  high: number | null;
}

/** The Wilson score interval of `successes` out of `n` at the given z (95% by default). */
export function wilsonInterval(successes: number, n: number, z = Z_95): ProportionInterval {
  if (!Number.isInteger(successes) || !Number.isInteger(n) || successes < 0 || n < 0 || successes > n) {
    throw new RangeError(`wilsonInterval: need integers 0 <= successes <= n (got ${successes} of ${n})`);
  }
  if (n === 0) return { rate: null, low: null, high: null };
  const p = successes / n;
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denominator;
  const half = (z / denominator) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  // At 0 and n the bound is exactly 0 or 1; rounding must not put it a hair outside.
  return {
    rate: p,
    low: successes === 0 ? 0 : Math.max(0, centre - half),
    high: successes === n ? 1 : Math.min(1, centre + half),
  };
}
