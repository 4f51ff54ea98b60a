import { describe, expect, it } from 'vitest';
import { tokenise } from '../../lib/retrieval/tokenise';

describe('tokenise', () => {
  it('splits ASCII text into lower-cased runs of letters and digits', () => {
    expect(tokenise('TNF-alpha binds IL-6 (3.5 mm), see example.com_x')).toEqual(['tnf', 'alpha', 'binds', 'il', '6', '3', '5', 'mm', 'see', 'example', 'com', 'x']);
  });

  it('keeps letters and digits of any script together, and lower-cases them', () => {
    expect(tokenise('Crème brûlée, Ελληνικά ΛΕΞΗ and ٣٤ Straße')).toEqual(['crème', 'brûlée', 'ελληνικά', 'λεξη', 'and', '٣٤', 'straße']);
    // The Kelvin sign lower-cases to an ASCII "k"; the combining dot of a lower-cased "İ" is no letter.
    expect(tokenise('\u212Aelvin İstanbul')).toEqual(['kelvin', 'i', 'stanbul']);
  });

  it('gives nothing for text without letters or digits', () => {
    expect(tokenise(' -- ... !? ')).toEqual([]);
  });
});
