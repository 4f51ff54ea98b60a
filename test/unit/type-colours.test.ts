import { describe, expect, it } from 'vitest';
import { TYPE_PALETTE, typeColour, UNLISTED_TYPE_COLOUR } from '@/lib/kb/type-colours';

describe('typeColour', () => {
  const kbTypes = ['product', 'brand', 'category', 'review'];

  it('ranks a type in the sorted list, whatever order the list comes in', () => {
    expect(typeColour(kbTypes, 'brand')).toBe(TYPE_PALETTE[0]);
    expect(typeColour(kbTypes, 'product')).toBe(TYPE_PALETTE[2]);
    expect(typeColour([...kbTypes].reverse(), 'product')).toBe(TYPE_PALETTE[2]);
  });

  it('gives distinct types distinct colours up to the palette size', () => {
    const many = Array.from({ length: TYPE_PALETTE.length }, (_, i) => `type${String(i).padStart(2, '0')}`);
    expect(new Set(many.map((t) => typeColour(many, t))).size).toBe(TYPE_PALETTE.length);
  });

  it('gives a type missing from the list a neutral colour that no listed type has', () => {
    expect(typeColour(kbTypes, 'gene')).toBe(UNLISTED_TYPE_COLOUR);
    expect(TYPE_PALETTE).not.toContain(UNLISTED_TYPE_COLOUR);
  });
});
