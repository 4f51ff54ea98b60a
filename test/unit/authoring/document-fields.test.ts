import { describe, expect, it } from 'vitest';
import { documentFields, segments, trimRange } from '@/lib/kb/document-fields';

describe('document fields for marking spans', () => {
  it('lists every text of a document by path, in field order; lists of plain values are one field', () => {
    const fields = documentFields({ title: 'Tent', features: ['light', 'waterproof'], reviews: [{ text: 'Great', stars: 5 }, { text: '' }], empty: null });
    expect(fields.map((f) => [f.path, f.label, f.text])).toEqual([
      ['title', 'title', 'Tent'],
      ['features', 'features', 'light, waterproof'],
      ['reviews[0].text', 'reviews 1 · text', 'Great'],
      ['reviews[0].stars', 'reviews 1 · stars', '5'],
    ]);
  });

  it('cuts a text where marked ranges start and end, overlapping ranges marking their union', () => {
    expect(segments('abcdefgh', [{ start: 1, end: 3 }, { start: 2, end: 5 }])).toEqual([
      { text: 'a', marked: false }, { text: 'b', marked: true }, { text: 'c', marked: true }, { text: 'de', marked: true }, { text: 'fgh', marked: false },
    ]);
    expect(segments('abc', [])).toEqual([{ text: 'abc', marked: false }]);
  });

  it('narrows a selection to leave out whitespace at its ends', () => {
    expect(trimRange('  light tent ', 0, 13)).toEqual({ start: 2, end: 12 });
    expect(trimRange('   ', 0, 3)).toBeNull();
  });
});
