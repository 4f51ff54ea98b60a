import { describe, expect, it } from 'vitest';
import { phraseTest } from '../../../lib/retrieval/phrase';
import { tokenise } from '../../../lib/retrieval/tokenise';

/** The definition: the words are consecutive tokens of the text. */
const holds = (text: string, words: string[]) => ` ${tokenise(text).join(' ')} `.includes(` ${words.join(' ')} `);

describe('phraseTest', () => {
  it('finds words next to each other whatever stands between them, in any case', () => {
    const test = phraseTest(['tnf', 'alpha']);
    expect(test('Binds TNF-alpha.')).toBe(true);
    expect(test('tnf\n\t -- (ALPHA)')).toBe(true);
    expect(test('tnf beta alpha')).toBe(false);
    expect(test('alpha tnf')).toBe(false);
  });

  it('matches whole words only, at the start and end of the text too', () => {
    const test = phraseTest(['trail', 'run']);
    expect(test('trail run')).toBe(true);
    expect(test('trail running')).toBe(false);
    expect(test('mountaintrail run')).toBe(false);
    expect(test('trail2 run')).toBe(false);
    expect(test('a trail run3')).toBe(false);
    expect(test('mountaintrail run, then a trail run')).toBe(true);
  });

  it('reads letters and digits of any script as tokenise does', () => {
    expect(phraseTest(['crème', 'brûlée'])('CRÈME BRÛLÉE')).toBe(true);
    expect(phraseTest(['brûlée'])('crèmebrûlée')).toBe(false);
    expect(phraseTest(['λεξη', '٣٤'])('Ελληνικά ΛΕΞΗ—٣٤')).toBe(true);
    expect(phraseTest(['kelvin'])('\u212Aelvin')).toBe(true);
    // A lower-cased "İ" is "i" and a combining dot, which is no letter: "istanbul" is two words.
    expect(phraseTest(['i', 'stanbul'])('İstanbul')).toBe(true);
    expect(phraseTest(['istanbul'])('İstanbul')).toBe(false);
  });

  // Each phrase compiles a pattern (about a millisecond): a few hundred texts, with room for a busy machine.
  it('agrees with the tokeniser on random texts', { timeout: 30_000 }, () => {
    const pieces = ['a', 'ab', 'B', 'é', 'É', 'ß', '1', '٣', ' ', '-', '.', '\n', '\u0301', '_', 'İ', 'ﬁ'];
    let seed = 7;
    // The generator's high bits: its low ones repeat in short cycles.
    const random = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), Math.floor((seed / 2 ** 31) * n));
    let matched = 0;
    for (let i = 0; i < 800; i++) {
      const text = Array.from({ length: 1 + random(24) }, () => pieces[random(pieces.length)]).join('');
      const tokens = tokenise(text);
      // Half the time a phrase the text holds, half a random pair of its tokens, which it may not.
      const start = random(Math.max(1, tokens.length));
      const words = random(2) ? tokens.slice(start, start + 1 + random(3)) : [tokens[random(tokens.length)]!, tokens[random(tokens.length)]!];
      if (!words.length || words.some((w) => w === undefined)) continue;
      const want = holds(text, words);
      expect(phraseTest(words)(text), JSON.stringify({ text, words })).toBe(want);
      if (want) matched++;
    }
    expect(matched).toBeGreaterThan(150);
  });

  it('refuses an empty phrase', () => {
    expect(() => phraseTest([])).toThrow(/no words/);
  });
});
