/** Okapi BM25's parameters: k1 saturates term frequency, b scales length normalisation. */
export interface Bm25Params {
  k1: number;
  b: number;
}

export const BM25_DEFAULTS: Bm25Params = { k1: 1.2, b: 0.75 };

/** Inverse document frequency of a term found in `n` of `docs` documents; always positive. */
export function idf(docs: number, n: number): number {
  return Math.log(1 + (docs - n + 0.5) / (n + 0.5));
}

/** One query term's contribution to a document's score (the SQL scorer computes the same expression). */
export function termWeight(p: Bm25Params, stats: { docs: number; df: number; tf: number; length: number; avgLength: number }): number {
  const norm = p.k1 * (1 - p.b + (p.b * stats.length) / stats.avgLength);
  return (idf(stats.docs, stats.df) * stats.tf * (p.k1 + 1)) / (stats.tf + norm);
}
