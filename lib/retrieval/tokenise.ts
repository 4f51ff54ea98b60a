import { stemmer } from 'stemmer';

/**
 * How text becomes terms, for documents and queries alike: both options are off by default, so every word
 * counts as written. `stopWords` drops Lucene's classic English stop words (the list Pyserini's default
 * analyzer uses); `stemming` reduces each word with the Porter stemmer ("diseases" and "disease" give "diseas").
 */
export interface Analyzer {
  stopWords: boolean;
  stemming: boolean;
}

export const DEFAULT_ANALYZER: Analyzer = { stopWords: false, stemming: false };

/** Lucene's `EnglishAnalyzer.ENGLISH_STOP_WORDS_SET`. */
export const STOP_WORDS: ReadonlySet<string> = new Set([
  'a', 'an', 'and', 'are', 'as', 'at', 'be', 'but', 'by', 'for', 'if', 'in', 'into', 'is', 'it', 'no', 'not',
  'of', 'on', 'or', 'such', 'that', 'the', 'their', 'then', 'there', 'these', 'they', 'this', 'to', 'was',
  'will', 'with',
]);

/**
 * The BM25 baseline's tokeniser: lower-cased runs of Unicode letters and digits; everything else separates
 * words ("TNF-alpha" gives "tnf", "alpha").
 */
export function tokenise(text: string): string[] {
  const lower = text.toLowerCase();
  // On ASCII text, the common case, the plain pattern finds the same words in half the time.
  return lower.match(ASCII.test(lower) ? /[a-z0-9]+/g : /[\p{L}\p{N}]+/gu) ?? [];
}

const ASCII = /^[\x00-\x7f]*$/;

// Stems of words seen recently: an index build stems the same few thousand words millions of times.
const stems = new Map<string, string>();
const STEM_CACHE = 100_000;

function stem(word: string): string {
  let s = stems.get(word);
  if (s === undefined) {
    if (stems.size >= STEM_CACHE) stems.clear();
    s = stemmer(word);
    stems.set(word, s);
  }
  return s;
}

/** The terms of a text under an analyzer: `tokenise`, then stop words dropped and words stemmed as asked. */
export function analyse(text: string, analyzer: Analyzer = DEFAULT_ANALYZER): string[] {
  let words = tokenise(text);
  if (analyzer.stopWords) words = words.filter((w) => !STOP_WORDS.has(w));
  if (analyzer.stemming) words = words.map(stem);
  return words;
}
