import { describe, expect, it } from 'vitest';
import { pathInWords, requirementInWords } from '../../../lib/authoring/metapath-words';

const names = new Map([[7, 'Alpine Tent 2'], [9, 'Trailmark']]);
const options = { seedId: 7, nameOf: (id: number) => names.get(id) };

describe('pathInWords', () => {
  it('reads forward and backward steps from the seed, with articles', () => {
    const path = {
      start: { entity: 7 },
      steps: [
        { direction: 'out' as const, relation: 'has_brand', targetType: 'brand' },
        { direction: 'in' as const, relation: 'has_brand', targetType: 'item' },
      ],
    };
    expect(pathInWords(path, options)).toBe('From the seed (Alpine Tent 2), follow “has_brand” to a brand, then go back along “has_brand” to an item.');
  });

  it('names other start entities, or their id when the name is unknown, and reads type starts as "any"', () => {
    const step = { direction: 'out' as const, relation: 'in_category', targetType: 'category' };
    expect(pathInWords({ start: { entity: 9 }, steps: [step] }, options)).toBe('From “Trailmark”, follow “in_category” to a category.');
    expect(pathInWords({ start: { entity: 12 }, steps: [step] }, options)).toBe('From entity 12, follow “in_category” to a category.');
    expect(pathInWords({ start: { entity: 7 }, steps: [step] })).toBe('From entity 7, follow “in_category” to a category.');
    expect(pathInWords({ start: { entity: 7 }, steps: [step] }, { seedId: 7 })).toBe('From the seed, follow “in_category” to a category.');
    expect(pathInWords({ start: { type: 'product' }, steps: [step] })).toBe('From any product, follow “in_category” to a category.');
  });
});

describe('requirementInWords', () => {
  it('says which type the answers have and how many paths must reach them', () => {
    const one = requirementInWords({ paths: [{ start: { entity: 7 }, steps: [{ direction: 'out', relation: 'has_brand', targetType: 'brand' }] }] }, options);
    expect(one).toEqual({
      summary: 'Answers: the entities of type brand this path reaches.',
      paths: ['From the seed (Alpine Tent 2), follow “has_brand” to a brand.'],
    });
    const two = requirementInWords({
      paths: [
        { start: { entity: 7 }, steps: [{ direction: 'out', relation: 'has_brand', targetType: 'brand' }] },
        { start: { type: 'review' }, steps: [{ direction: 'out', relation: 'about_brand', targetType: 'brand' }] },
      ],
    }, options);
    expect(two?.summary).toBe('Answers: the entities of type brand that all 2 paths reach.');
    expect(two?.paths[1]).toBe('From any review, follow “about_brand” to a brand.');
  });

  it('is null without a requirement or when the stored value is not one', () => {
    expect(requirementInWords(null)).toBeNull();
    expect(requirementInWords({ paths: [] })).toBeNull();
    expect(requirementInWords({ paths: [{ start: { entity: 'x' }, steps: [] }] })).toBeNull();
    expect(requirementInWords({ paths: [{ start: { type: 'brand' }, steps: [{ direction: 'sideways', relation: 'r', targetType: 't' }] }] })).toBeNull();
    expect(requirementInWords('has_brand')).toBeNull();
  });
});
