import { describe, expect, it } from 'vitest';
import { nearDuplicates, setDiversity } from '@/lib/studies/diversity';
import { shuffle } from '@/lib/studies/participants';

describe('nearDuplicates', () => {
  const docs = [
    { key: 'a', text: 'Which drugs treat Crohn disease in adults?' },
    { key: 'b', text: 'Which drugs treat Crohn disease in children?' },
    { key: 'c', text: 'Find genes expressed in the colon' },
    { key: 'd', text: 'find genes expressed in the COLON.' },
  ];

  it('pairs texts whose word 3-grams overlap enough, most similar first', () => {
    // a and b share 4 of their 5 + 5 shingles: 4 / 6; c and d are the same words.
    expect(nearDuplicates(docs, 0.6)).toEqual([
      { a: 'c', b: 'd', similarity: 1 },
      { a: 'a', b: 'b', similarity: 4 / 6 },
    ]);
    expect(nearDuplicates(docs, 0.7).map((p) => [p.a, p.b])).toEqual([['c', 'd']]);
  });

  it('reports a set\'s lexical diversity with its near-duplicate pairs', () => {
    const d = setDiversity(docs.map((x) => ({ id: x.key, text: x.text })));
    expect(d).toMatchObject({ queries: 4, nearDuplicatePairs: 1, tokens: 26 });
    expect(d.typeTokenRatio).toBeCloseTo(d.types / 26);
  });
});

describe('shuffle', () => {
  it('is a permutation, the same for the same seed', () => {
    const xs = Array.from({ length: 20 }, (_, i) => i);
    expect(shuffle(xs, 7)).toEqual(shuffle(xs, 7));
    expect(shuffle(xs, 7)).not.toEqual(shuffle(xs, 8));
    expect([...shuffle(xs, 7)].sort((a, b) => a - b)).toEqual(xs);
  });
});
