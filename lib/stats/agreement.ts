/**
 * Inter-annotator agreement: Jaccard similarity of sets, and Krippendorff's alpha, which handles any
 * number of coders, missing values and nominal, ordinal, interval or ratio data (Krippendorff 2011,
 * "Computing Krippendorff's Alpha-Reliability").
 */

/** |A ∩ B| / |A ∪ B|; two empty sets agree fully (1). */
export function jaccard<T>(a: Iterable<T>, b: Iterable<T>): number {
  const left = new Set(a);
  const right = new Set(b);
  if (!left.size && !right.size) return 1;
  let shared = 0;
  for (const x of left) if (right.has(x)) shared++;
  return shared / (left.size + right.size - shared);
}

export type AlphaMetric = 'nominal' | 'ordinal' | 'interval' | 'ratio';

export interface AlphaResult {
  /** Null when no unit has two values, or when every value is the same (no variation to agree on). */
  alpha: number | null;
  /** Units with at least two values: the ones that count. */
  units: number;
  /** Values in those units. */
  values: number;
}

/**
 * Krippendorff's alpha over units, each the values its coders gave (missing ones left out). Values are
 * compared as given for nominal data; ordinal, interval and ratio data need numbers.
 */
export function krippendorffAlpha(units: readonly (readonly (string | number)[])[], metric: AlphaMetric = 'nominal'): AlphaResult {
  const pairable = units.filter((u) => u.length >= 2);
  const categories = [...new Set(pairable.flat())];
  if (metric !== 'nominal' && categories.some((c) => typeof c !== 'number')) throw new Error(`${metric} alpha needs numeric values`);
  categories.sort((x, y) => (typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y))));
  const index = new Map(categories.map((c, i) => [c, i]));
  const size = categories.length;

  // Coincidence matrix: every ordered pair of values within a unit, weighted 1 / (m_u - 1).
  const coincidence = Array.from({ length: size }, () => new Array<number>(size).fill(0));
  for (const unit of pairable) {
    const weight = 1 / (unit.length - 1);
    for (let i = 0; i < unit.length; i++) {
      for (let j = 0; j < unit.length; j++) {
        if (i !== j) coincidence[index.get(unit[i]!)!]![index.get(unit[j]!)!]! += weight;
      }
    }
  }
  const marginals = coincidence.map((row) => row.reduce((s, x) => s + x, 0));
  const n = marginals.reduce((s, x) => s + x, 0);
  const values = pairable.reduce((s, u) => s + u.length, 0);
  if (size < 2) return { alpha: null, units: pairable.length, values };

  const delta = distance(metric, categories as number[], marginals);
  let observed = 0;
  let expected = 0;
  for (let c = 0; c < size; c++) {
    for (let k = 0; k < size; k++) {
      const d = delta(c, k);
      observed += coincidence[c]![k]! * d;
      expected += marginals[c]! * marginals[k]! * d;
    }
  }
  return { alpha: 1 - ((n - 1) * observed) / expected, units: pairable.length, values };
}

/** The squared difference between categories c and k (by index into the sorted categories). */
function distance(metric: AlphaMetric, categories: number[], marginals: number[]): (c: number, k: number) => number {
  switch (metric) {
    case 'nominal':
      return (c, k) => (c === k ? 0 : 1);
    case 'interval':
      return (c, k) => (categories[c]! - categories[k]!) ** 2;
    case 'ratio':
      return (c, k) => {
        const sum = categories[c]! + categories[k]!;
        return sum === 0 ? 0 : ((categories[c]! - categories[k]!) / sum) ** 2;
      };
    case 'ordinal':
      return (c, k) => {
        const [lo, hi] = c <= k ? [c, k] : [k, c];
        let between = 0;
        for (let g = lo; g <= hi; g++) between += marginals[g]!;
        return (between - (marginals[c]! + marginals[k]!) / 2) ** 2;
      };
  }
}
