import { describe, expect, it } from 'vitest';
import { findLeaks } from '../../../lib/authoring/leak';

describe('findLeaks', () => {
  it('finds the name regardless of case, accents and apostrophes, with its place in the text', () => {
    const q = 'Which drugs treat crohns Disease in adults?';
    expect(findLeaks(q, ["Crohn's disease"])).toEqual([{ name: "Crohn's disease", start: 18, end: 32 }]);
    expect(q.slice(18, 32)).toBe('crohns Disease');
    expect(findLeaks('Éffets du café ?', ['cafe'])).toEqual([{ name: 'cafe', start: 10, end: 14 }]);
  });

  it('matches whole words only', () => {
    expect(findLeaks('Which proteins bind IL10RB?', ['IL10'])).toEqual([]);
    expect(findLeaks('Which proteins bind IL10 or IL-10?', ['IL10'])).toEqual([{ name: 'IL10', start: 20, end: 24 }]);
  });

  it('needs every word of a multi-word name, consecutively', () => {
    expect(findLeaks('A trail shoe for running', ['Trail running shoe'])).toEqual([]);
    expect(findLeaks('Is the trail-running shoe waterproof?', ['Trail running shoe'])).toEqual([{ name: 'Trail running shoe', start: 7, end: 25 }]);
  });

  it('checks aliases too, every occurrence, in text order; blank names never match', () => {
    const leaks = findLeaks('SMAD3 binds what? Ask about Mothers against decapentaplegic homolog 3 and smad3.', ['SMAD3', 'Mothers against decapentaplegic homolog 3', ' ', '']);
    expect(leaks.map((l) => [l.name, l.start])).toEqual([['SMAD3', 0], ['Mothers against decapentaplegic homolog 3', 28], ['SMAD3', 74]]);
  });
});
