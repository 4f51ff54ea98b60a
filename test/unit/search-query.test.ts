import { describe, expect, it } from 'vitest';
import { parseSearchQuery } from '../../lib/retrieval/search-query';

describe('parseSearchQuery', () => {
  it('reads a plain query or question as its distinct words, any of which may match', () => {
    expect(parseSearchQuery('Which waterproof boots are best for hiking? Waterproof, please.')).toEqual({
      words: ['which', 'waterproof', 'boots', 'are', 'best', 'for', 'hiking', 'please'], strict: null,
    });
    // Lower-case and/or, inner hyphens and a lone dash are words and punctuation, not operators.
    expect(parseSearchQuery('salt and pepper or TNF-alpha - x').strict).toBeNull();
    expect(parseSearchQuery('?!').words).toEqual([]);
  });

  it('makes every word and phrase required once an operator appears', () => {
    expect(parseSearchQuery('waterproof "hiking boots"')).toEqual({
      words: ['waterproof', 'hiking', 'boots'], strict: { required: [[['waterproof']], [['hiking', 'boots']]], excluded: [] },
    });
    expect(parseSearchQuery('tent AND stove').strict).toEqual({ required: [[['tent']], [['stove']]], excluded: [] });
  });

  it('joins the clauses on either side of OR into one group', () => {
    expect(parseSearchQuery('tent OR "bivy sack" stove').strict).toEqual({ required: [[['tent'], ['bivy', 'sack']], [['stove']]], excluded: [] });
    // A dangling OR joins nothing.
    expect(parseSearchQuery('OR tent OR').strict).toEqual({ required: [[['tent']]], excluded: [] });
  });

  it('excludes -words and -"phrases", which are not among the words looked for', () => {
    expect(parseSearchQuery('boots -leather -"heavy duty"')).toEqual({
      words: ['boots'], strict: { required: [[['boots']]], excluded: [['leather'], ['heavy', 'duty']] },
    });
    // Only exclusions: nothing to look for.
    expect(parseSearchQuery('-leather').words).toEqual([]);
  });

  it('reads a word the tokeniser splits as a phrase of its parts, and an unclosed quote to the end', () => {
    expect(parseSearchQuery('TNF-alpha AND "bowel disease').strict).toEqual({ required: [[['tnf', 'alpha']], [['bowel', 'disease']]], excluded: [] });
  });
});
