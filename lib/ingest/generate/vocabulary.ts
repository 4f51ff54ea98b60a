import { aliasTable } from './graph';
import { list, type Rng } from './random';

/**
 * Words with a frequency distribution like real text: the two regimes of word frequencies in large
 * corpora (Ferrer i Cancho & Solé 2001): Zipf-Mandelbrot (rank + 2.7)^-1 over the first CORE ranks,
 * then a steeper tail ~ rank^-2, unbounded, so the vocabulary keeps growing with the text as Heaps'
 * law says (about as the square root of the number of words). The top ranks are real English
 * function words, then the shape's own words; every rank after those is an invented word spelled
 * from consonant-vowel syllables (short for frequent ranks, longer for rare ones, as in real text).
 */

const CORE = 8_192;
const MANDELBROT_Q = 2.7;

/** The most frequent English words, most frequent first. */
export const FUNCTION_WORDS = list(
  'the|of|and|to|a|in|is|for|that|with|on|as|by|this|are|be|was|from|it|an|at|which|or|we|not|have|has|can|these|their|' +
  'its|been|were|but|also|more|than|between|all|one|two|our|such|other|into|both|used|when|may|using|new|based|' +
  'different|most|high|only|each|two|well|how|three|first|they|there|after|while|however|under|over|through|use|' +
  'results|show|about|some|time|where|during|found|any|will|no|would|should|very|so|because|many|them|then|same|' +
  'than|like|up|out|if|what|do|just|who|my|you|your|i',
);

const CONSONANTS = 'bcdfgklmnprstvz';
const VOWELS = 'aeiou';
const SYLLABLES: string[] = [];
for (const c of CONSONANTS) for (const v of VOWELS) SYLLABLES.push(c + v);

/** The invented word of a rank past the real ones: a bijective base-75 numeral in syllables, so ranks never share a spelling. */
function inventedWord(n: number): string {
  let s = '';
  let k = n + 1 + SYLLABLES.length; // at least two syllables
  while (k > 0) {
    k -= 1;
    s += SYLLABLES[k % SYLLABLES.length];
    k = Math.floor(k / SYLLABLES.length);
  }
  return s;
}

export interface Vocabulary {
  /** One word drawn by frequency. */
  word(rng: Rng): string;
  /** `words` words in sentences of 8 to 30 words, each capitalised and ended with a full stop. */
  text(rng: Rng, words: number): string;
  /** `words` words drawn by frequency, space-separated, lower case (a title, a phrase). */
  phrase(rng: Rng, words: number): string;
}

/** A vocabulary whose most frequent words are English function words, then `own` (a shape's words, most frequent first). */
export function zipfVocabulary(own: readonly string[]): Vocabulary {
  const real = [...new Set([...FUNCTION_WORDS, ...own])];
  const core: string[] = real.slice(0, CORE);
  for (let r = core.length; r < CORE; r++) core.push(inventedWord(r - real.length));
  const { prob, alias } = aliasTable(CORE, (r) => 1 / (r + 1 + MANDELBROT_Q));
  // The tail continues the core's density at rank CORE with slope -2: its mass is w(CORE) * CORE.
  let coreMass = 0;
  for (let r = 0; r < CORE; r++) coreMass += 1 / (r + 1 + MANDELBROT_Q);
  const tailMass = CORE / (CORE + MANDELBROT_Q);
  const tailShare = tailMass / (coreMass + tailMass);

  const word = (rng: Rng): string => {
    const u = rng();
    if (u < tailShare) {
      // Pareto with density ~ x^-2 on [CORE, inf): x = CORE / (1 - v).
      const rank = Math.floor(CORE / (1 - u / tailShare));
      return inventedWord(Math.min(rank, 2 ** 30) - real.length);
    }
    const x = ((u - tailShare) / (1 - tailShare)) * CORE;
    const r = Math.floor(x);
    return core[x - r < prob[r]! ? r : alias[r]!]!;
  };

  const phrase = (rng: Rng, words: number): string => {
    let s = '';
    for (let i = 0; i < words; i++) s += i === 0 ? word(rng) : ` ${word(rng)}`;
    return s;
  };

  const text = (rng: Rng, words: number): string => {
    let s = '';
    let left = words;
    while (left > 0) {
      const n = Math.min(left, 8 + Math.floor(rng() * 23));
      const first = word(rng);
      s += `${s ? ' ' : ''}${first.charAt(0).toUpperCase()}${first.slice(1)}`;
      for (let i = 1; i < n; i++) s += i === n >> 1 && rng() < 0.3 ? `, ${word(rng)}` : ` ${word(rng)}`;
      s += '.';
      left -= n;
    }
    return s;
  };

  return { word, text, phrase };
}
