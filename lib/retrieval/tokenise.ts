/**
 * The BM25 baseline's tokeniser: lower-cased runs of Unicode letters and digits; everything else separates
 * words ("TNF-alpha" gives "tnf", "alpha"). No stop words, no stemming: every word counts as written.
 */
export function tokenise(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** Each token with the number of times it occurs. */
export function termCounts(tokens: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const t of tokens) counts.set(t, (counts.get(t) ?? 0) + 1);
  return counts;
}
