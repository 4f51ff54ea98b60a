import { describe, it, expect } from 'vitest';
import { flattenDocument } from '../../lib/kb/document-text';

describe('flattenDocument', () => {
  it('renders a header, scalars, scalar lists and lists of objects in document order', () => {
    const text = flattenDocument('Trailmark Ridgeline 2-Person Tent', 'product', {
      title: 'Ridgeline 2-Person Tent',
      price: 189.99,
      in_stock: true,
      features: ['Two vestibules', 'Taped rainfly'],
      reviews: [
        { reviewer: 'Mara T.', rating: 5, summary: 'Great tent', text: 'Dry all night.' },
        { reviewer: 'Ben K.', rating: 2, summary: 'Flimsy' },
      ],
    });
    expect(text).toBe(
      [
        '- name: Trailmark Ridgeline 2-Person Tent',
        '- type: product',
        '- title: Ridgeline 2-Person Tent',
        '- price: 189.99',
        '- in stock: true',
        '- features: Two vestibules, Taped rainfly',
        '- reviews:',
        '  1. reviewer: Mara T.; rating: 5; summary: Great tent; text: Dry all night.',
        '  2. reviewer: Ben K.; rating: 2; summary: Flimsy',
      ].join('\n'),
    );
  });

  it('indents nested objects recursively', () => {
    const text = flattenDocument('Aspirin', 'drug', {
      dosage: { adult: { min_mg: 300, max_mg: 1000 }, child: 'not advised' },
      year: 1899,
    });
    expect(text).toBe(
      [
        '- name: Aspirin',
        '- type: drug',
        '- dosage:',
        '  - adult:',
        '    - min mg: 300',
        '    - max mg: 1000',
        '  - child: not advised',
        '- year: 1899',
      ].join('\n'),
    );
  });

  it('skips null, undefined, empty strings, empty lists and empty objects', () => {
    const text = flattenDocument('Empty-ish', 'thing', {
      a: null,
      b: undefined,
      c: '   ',
      d: [],
      e: {},
      f: { g: null, h: [] },
      i: [null, ''],
      j: [{}, { k: null }],
      kept: 0,
      also_kept: false,
    });
    expect(text).toBe(['- name: Empty-ish', '- type: thing', '- kept: 0', '- also kept: false'].join('\n'));
  });

  it('renders arrays of arrays and nested containers inside list items with brackets', () => {
    const text = flattenDocument('Matrix', 'table', {
      rows: [[1, 2], [3]],
      items: [{ tags: ['a', 'b'], meta: { x: 1 } }, 'plain'],
    });
    expect(text).toBe(
      [
        '- name: Matrix',
        '- type: table',
        '- rows:',
        '  1. 1, 2',
        '  2. 3',
        '- items:',
        '  1. tags: [a, b]; meta: (x: 1)',
        '  2. plain',
      ].join('\n'),
    );
  });

  it('keeps each field on one line and does not repeat the header', () => {
    const text = flattenDocument('Widget', 'product', { name: 'Widget', type: 'gadget', note: 'line one\n  line two\t end' });
    expect(text).toBe(['- name: Widget', '- type: product', '- type: gadget', '- note: line one line two end'].join('\n'));
  });

  it('does not throw on odd input', () => {
    let deep: unknown = 'bottom';
    for (let i = 0; i < 10_000; i++) deep = i % 2 ? [deep] : { level: deep };
    const cyclic: Record<string, unknown> = { label: 'loop' };
    cyclic.self = cyclic;
    cyclic.list = [cyclic, 1];
    const hostile = Object.defineProperty({}, 'boom', {
      enumerable: true,
      get() {
        throw new Error('getter');
      },
    });
    const revoked = Proxy.revocable({}, {});
    revoked.revoke();

    const odd: Array<Record<string, unknown>> = [
      { deep },
      cyclic,
      { hostile, ok: 1 },
      { revoked: revoked.proxy },
      { nan: Number.NaN, inf: Infinity, big: 10n, fn: () => 1, sym: Symbol('s'), when: new Date(0), bad: new Date('x') },
      null as unknown as Record<string, unknown>,
      ['not', 'an', 'object'] as unknown as Record<string, unknown>,
    ];
    for (const doc of odd) expect(() => flattenDocument('odd', 'test', doc)).not.toThrow();

    expect(flattenDocument('odd', 'test', cyclic)).toBe(
      ['- name: odd', '- type: test', '- label: loop', '- list:', '  1. 1'].join('\n'),
    );
    expect(flattenDocument('odd', 'test', odd[4] as Record<string, unknown>)).toBe(
      ['- name: odd', '- type: test', '- big: 10', '- when: 1970-01-01T00:00:00.000Z'].join('\n'),
    );
    expect(flattenDocument('odd', 'test', { hostile, ok: 1 })).toBe(['- name: odd', '- type: test', '- ok: 1'].join('\n'));
    expect(flattenDocument(undefined as unknown as string, 42 as unknown as string, {})).toBe('- name: \n- type: 42');
  });
});
