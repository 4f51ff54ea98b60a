import { describe, expect, it } from 'vitest';
import { idf, termWeight } from '../../../lib/retrieval/bm25';
import { analyse, STOP_WORDS, tokenise } from '../../../lib/retrieval/tokenise';

describe('tokenise', () => {
  it('keeps lower-cased runs of Unicode letters and digits', () => {
    expect(tokenise('TNF-alpha binds IL10RB; Crohn’s disease (37784)')).toEqual(['tnf', 'alpha', 'binds', 'il10rb', 'crohn', 's', 'disease', '37784']);
    expect(tokenise('Sjögren syndrome — ÉTUDE_2')).toEqual(['sjögren', 'syndrome', 'étude', '2']);
    expect(tokenise(' -- ')).toEqual([]);
  });

  it('by default analyses text into exactly its tokens', () => {
    const text = 'The genes of the Inflammatory Bowel Diseases, and their signalling';
    expect(analyse(text)).toEqual(tokenise(text));
    expect(analyse(text, { stopWords: false, stemming: false })).toEqual(tokenise(text));
  });

  it("drops Lucene's English stop words when asked, and only those", () => {
    expect(STOP_WORDS.size).toBe(33);
    expect(analyse('The genes of the bowel AND their signalling; not this one', { stopWords: true, stemming: false }))
      .toEqual(['genes', 'bowel', 'signalling', 'one']);
  });

  it('reduces words with the Porter stemmer when asked', () => {
    expect(analyse('Diseases disease inflammatory inflammation running runs relational', { stopWords: false, stemming: true }))
      .toEqual(['diseas', 'diseas', 'inflammatori', 'inflamm', 'run', 'run', 'relat']);
    // Stop words are matched before stemming ("this" would stem to "thi").
    expect(analyse('this is the caring', { stopWords: true, stemming: true })).toEqual(['care']);
    // Numbers and identifiers pass through.
    expect(analyse('IL10RB 37784', { stopWords: true, stemming: true })).toEqual(['il10rb', '37784']);
  });

});

describe('BM25 on three documents, computed by hand', () => {
  // d1 "gene gene disease" (3 tokens), d2 "disease drug" (2), d3 "drug" (1); average length 2.
  // Query "gene disease", k1 1.2, b 0.75.
  //   idf(gene)    = ln(1 + (3 - 1 + 0.5) / 1.5) = ln(8/3)  = 0.980829
  //   idf(disease) = ln(1 + (3 - 2 + 0.5) / 2.5) = ln(1.6)  = 0.470004
  //   d1: norm = 1.2 (0.25 + 0.75 * 3/2) = 1.65
  //       gene    0.980829 * 2 * 2.2 / (2 + 1.65) = 1.182369
  //       disease 0.470004 * 1 * 2.2 / (1 + 1.65) = 0.390192   total 1.572561
  //   d2: norm = 1.2 (0.25 + 0.75 * 2/2) = 1.2
  //       disease 0.470004 * 2.2 / 2.2 = 0.470004
  const p = { k1: 1.2, b: 0.75 };
  const counts = (words: string[]) => new Map(words.map((w) => [w, words.filter((x) => x === w).length]));
  const doc1 = counts(tokenise('Gene gene DISEASE'));
  const doc2 = counts(tokenise('disease drug'));

  it('gives the idf of the formula', () => {
    expect(idf(3, 1)).toBeCloseTo(0.980829, 6);
    expect(idf(3, 2)).toBeCloseTo(0.470004, 6);
  });

  it('scores the documents as by hand', () => {
    const d1 = termWeight(p, { docs: 3, df: 1, tf: doc1.get('gene')!, length: 3, avgLength: 2 })
      + termWeight(p, { docs: 3, df: 2, tf: doc1.get('disease')!, length: 3, avgLength: 2 });
    const d2 = termWeight(p, { docs: 3, df: 2, tf: doc2.get('disease')!, length: 2, avgLength: 2 });
    expect(d1).toBeCloseTo(1.572561, 5);
    expect(d2).toBeCloseTo(0.470004, 6);
  });

  it('ignores length with b 0 and saturates at once with k1 0', () => {
    expect(termWeight({ k1: 1.2, b: 0 }, { docs: 3, df: 1, tf: 2, length: 30, avgLength: 2 })).toBeCloseTo(0.980829 * 2 * 2.2 / 3.2, 6);
    expect(termWeight({ k1: 0, b: 0.75 }, { docs: 3, df: 1, tf: 5, length: 3, avgLength: 2 })).toBeCloseTo(0.980829, 6);
  });
});
