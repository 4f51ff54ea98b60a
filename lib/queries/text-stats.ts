/**
 * Lexical measures of a set of query texts, as the STaRK paper describes its query sets (Table 4): Shannon
 * entropy and type-token ratio of the words. The tokenisation is documented in docs/evaluation.md.
 */

// A word: letters, digits and combining marks, with single inner apostrophes or hyphens ("don't", "x-ray").
const WORD = /[\p{L}\p{M}\p{N}]+(?:['\u2019\-\u2010][\p{L}\p{M}\p{N}]+)*/gu;
// Typographic apostrophe and hyphen spell the same word as their ASCII forms.
const SAME_AS_ASCII = /[\u2019\u2010]/g;

/** The words of a text: NFKC-normalised, lower-cased, maximal runs of letters and digits as above. */
export function tokenize(text: string): string[] {
  const words = text.normalize('NFKC').toLowerCase().match(WORD) ?? [];
  return words.map((w) => w.replace(SAME_AS_ASCII, (c) => (c === '\u2019' ? "'" : '-')));
}

export interface LexicalDiversity {
  /** Words in all texts. */
  tokens: number;
  /** Distinct words in all texts. */
  types: number;
  /** Shannon entropy, in bits, of the frequency distribution of words over all texts; 0 when there are none. */
  entropyBits: number;
  /** types / tokens over all texts; 0 when there are no words. */
  typeTokenRatio: number;
}

/** Word frequencies, fed one text at a time so large sets need not be held in memory. */
export class WordFrequencies {
  private readonly counts = new Map<string, number>();
  private total = 0;

  /** Adds the words of one text, as `tokenize` gives them. */
  add(words: readonly string[]): void {
    for (const w of words) this.counts.set(w, (this.counts.get(w) ?? 0) + 1);
    this.total += words.length;
  }

  result(): LexicalDiversity {
    let entropy = 0;
    for (const n of this.counts.values()) {
      const p = n / this.total;
      entropy -= p * Math.log2(p);
    }
    return {
      tokens: this.total,
      types: this.counts.size,
      entropyBits: entropy,
      typeTokenRatio: this.total === 0 ? 0 : this.counts.size / this.total,
    };
  }
}

export function lexicalDiversity(texts: Iterable<string>): LexicalDiversity {
  const freq = new WordFrequencies();
  for (const t of texts) freq.add(tokenize(t));
  return freq.result();
}
