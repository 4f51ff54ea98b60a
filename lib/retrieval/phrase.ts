/** A letter or digit: what `tokenise` keeps in a word; everything else separates words. */
const WORD_CHAR = '[\\p{L}\\p{N}]';
const GAP = '[^\\p{L}\\p{N}]+';

/**
 * A test of whether a text holds these words next to each other, read exactly as `tokenise` reads it: the text
 * lower-cased, each word a whole run of letters and digits, only other characters between them ("TNF-alpha"
 * holds "tnf alpha"; "running" does not hold "run"). Words are as `tokenise` gives them (lower case).
 *
 * The pattern starts with the first word's letters, so the engine skips through the text to it; the lookbehind
 * after it checks that no letter or digit came just before.
 */
export function phraseTest(words: string[]): (text: string) => boolean {
  if (!words.length) throw new Error('phraseTest: no words');
  const [first, ...rest] = words.map((w) => w.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'));
  const pattern = new RegExp(`${first}(?<!${WORD_CHAR}${first})${rest.map((w) => `${GAP}${w}`).join('')}(?!${WORD_CHAR})`, 'u');
  return (text) => pattern.test(text.toLowerCase());
}
