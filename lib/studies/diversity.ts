import { lexicalDiversity, tokenize, type LexicalDiversity } from '../queries/text-stats';

export interface NearDuplicate<T> {
  a: T;
  b: T;
  /** Jaccard similarity of the two texts' word shingles. */
  similarity: number;
}

/** Word 3-grams of a text; texts of fewer than three words are their words. */
function shingles(text: string): Set<string> {
  const words = tokenize(text);
  if (words.length < 3) return new Set(words);
  const out = new Set<string>();
  for (let i = 0; i + 3 <= words.length; i++) out.add(words.slice(i, i + 3).join(' '));
  return out;
}

/** Shingles shared by more texts than this do not propose candidate pairs (they would propose nearly all). */
const COMMON_SHINGLE = 200;

/**
 * Pairs of texts whose word 3-gram sets overlap by at least `threshold` (Jaccard), most similar first.
 * Candidates come from an inverted index of shingles, so the work follows the overlaps, not all pairs.
 */
export function nearDuplicates<T>(docs: { key: T; text: string }[], threshold = 0.7): NearDuplicate<T>[] {
  const sets = docs.map((d) => shingles(d.text));
  const postings = new Map<string, number[]>();
  sets.forEach((set, i) => { for (const s of set) { const list = postings.get(s); if (list) list.push(i); else postings.set(s, [i]); } });
  const pairs: NearDuplicate<T>[] = [];
  for (let i = 0; i < sets.length; i++) {
    const shared = new Map<number, number>();
    for (const s of sets[i]!) {
      const list = postings.get(s)!;
      if (list.length > COMMON_SHINGLE) continue;
      for (const j of list) if (j > i) shared.set(j, (shared.get(j) ?? 0) + 1);
    }
    for (const [j, n] of shared) {
      const similarity = n / (sets[i]!.size + sets[j]!.size - n);
      if (similarity >= threshold) pairs.push({ a: docs[i]!.key, b: docs[j]!.key, similarity });
    }
  }
  return pairs.sort((x, y) => y.similarity - x.similarity);
}

export interface SetDiversity extends LexicalDiversity {
  queries: number;
  nearDuplicatePairs: number;
  /** The most similar pairs, for a look. */
  examples: NearDuplicate<{ id: string; text: string }>[];
}

/** Diversity is a property of a set: its words' entropy and type-token ratio, and its near-duplicate pairs. */
export function setDiversity(queries: { id: string; text: string }[], threshold = 0.7): SetDiversity {
  const pairs = nearDuplicates(queries.map((q) => ({ key: q, text: q.text })), threshold);
  return { queries: queries.length, ...lexicalDiversity(queries.map((q) => q.text)), nearDuplicatePairs: pairs.length, examples: pairs.slice(0, 10) };
}
