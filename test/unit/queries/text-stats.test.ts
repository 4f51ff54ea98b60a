import { describe, expect, it } from 'vitest';
import { lexicalDiversity, tokenize } from '../../../lib/queries/text-stats';

describe('tokenize', () => {
  it('splits on anything but letters and digits, keeping inner apostrophes and hyphens', () => {
    expect(tokenize("Don't stop—the X-ray's at 3.5 GHz!")).toEqual(["don't", 'stop', 'the', "x-ray's", 'at', '3', '5', 'ghz']);
    expect(tokenize("rock'n'roll -edge- a--b 'quoted' e.g. snake_case")).toEqual(["rock'n'roll", 'edge', 'a', 'b', 'quoted', 'e', 'g', 'snake', 'case']);
  });

  it('normalises with NFKC, lower-cases, and spells typographic apostrophes and hyphens the ASCII way', () => {
    // U+FB01 ligature, full-width letters, e + combining acute, right single quote, U+2011 non-breaking hyphen.
    expect(tokenize('ﬁle ＡＢＣ Cafe\u0301 it\u2019s anti\u2011TNF')).toEqual(['file', 'abc', 'café', "it's", 'anti-tnf']);
    expect(tokenize("it's")).toEqual(tokenize('it\u2019s'));
  });

  it('keeps letters of any script and gives nothing for punctuation only', () => {
    expect(tokenize('Протеин 蛋白质 αβ-2')).toEqual(['протеин', '蛋白质', 'αβ-2']);
    expect(tokenize(' ... -- !! ')).toEqual([]);
  });
});

describe('lexicalDiversity', () => {
  it('gives the entropy and type-token ratio over the whole set', () => {
    // a ×3, b, c: H = −(0.6 log2 0.6 + 2 × 0.2 log2 0.2) = 1.3709506 bits; TTR = 3 / 5.
    const got = lexicalDiversity(['A b a.', 'c, a']);
    expect(got.tokens).toBe(5);
    expect(got.types).toBe(3);
    expect(got.entropyBits).toBeCloseTo(1.3709506, 7);
    expect(got.typeTokenRatio).toBe(0.6);
  });

  it('gives 2 bits for four equally frequent words and 0 for one word', () => {
    expect(lexicalDiversity(['w x', 'y z', 'z y x w'])).toEqual({ tokens: 8, types: 4, entropyBits: 2, typeTokenRatio: 0.5 });
    expect(lexicalDiversity(['same same', 'SAME'])).toEqual({ tokens: 3, types: 1, entropyBits: 0, typeTokenRatio: 1 / 3 });
  });

  it('gives zeros for no words', () => {
    expect(lexicalDiversity([])).toEqual({ tokens: 0, types: 0, entropyBits: 0, typeTokenRatio: 0 });
    expect(lexicalDiversity(['?!'])).toEqual({ tokens: 0, types: 0, entropyBits: 0, typeTokenRatio: 0 });
  });
});
