import { describe, expect, it } from 'vitest';
import { AppError } from '@/lib/errors';
import type { MetapathSchema } from '@/lib/kb/metapath';
import { enumerateTemplates, templatesByKey } from '@/lib/synthesis/templates';

/**
 * A small hand-written schema: drugs target genes (stored one way only), genes are associated with diseases
 * (stored both ways, as PrimeKG stores every edge), and genes interact with genes.
 */
const schema: MetapathSchema = {
  types: [{ name: 'disease', entityCount: 5 }, { name: 'drug', entityCount: 4 }, { name: 'gene', entityCount: 10 }],
  relations: ['associated_with', 'interacts_with', 'target'],
  triples: [
    { sourceType: 'disease', relation: 'associated_with', targetType: 'gene', edgeCount: 12 },
    { sourceType: 'drug', relation: 'target', targetType: 'gene', edgeCount: 7 },
    { sourceType: 'gene', relation: 'associated_with', targetType: 'disease', edgeCount: 12 },
    { sourceType: 'gene', relation: 'interacts_with', targetType: 'gene', edgeCount: 20 },
  ],
};

const keys = (maxSteps: number) => enumerateTemplates(schema, maxSteps).map((t) => t.key);

describe('enumerateTemplates', () => {
  it('takes mirrored relations forwards only, one-way ones and relations within a type both ways', () => {
    expect(keys(1)).toEqual([
      'disease -[associated_with]-> gene',
      'drug -[target]-> gene',
      'gene -[associated_with]-> disease',
      'gene -[interacts_with]-> gene',
      'gene -[interacts_with]<- gene',
      'gene -[target]<- drug',
    ]);
  });

  it('extends paths to two steps without walking straight back, and pairs one-step branches meeting at a type', () => {
    const two = enumerateTemplates(schema, 2).filter((t) => t.steps === 2);
    const single = two.filter((t) => t.branches.length === 1).map((t) => t.key);
    // From disease to a gene, then on along every move a gene has but back to disease by the mirrored relation.
    expect(single.filter((k) => k.startsWith('disease '))).toEqual([
      'disease -[associated_with]-> gene -[interacts_with]-> gene',
      'disease -[associated_with]-> gene -[interacts_with]<- gene',
      'disease -[associated_with]-> gene -[target]<- drug',
    ]);
    // Back along the edge just walked: the seed would be among its own answers.
    expect(single).not.toContain('drug -[target]-> gene -[target]<- drug');
    expect(single).not.toContain('gene -[interacts_with]-> gene -[interacts_with]<- gene');
    // Twice the same way along a relation that may be one-way is a real chain (cites a paper that cites …).
    expect(single).toContain('gene -[interacts_with]-> gene -[interacts_with]-> gene');
    expect(single).toHaveLength(12);
    expect(two.filter((t) => t.branches.length === 2).map((t) => t.key)).toEqual([
      'disease -[associated_with]-> gene & drug -[target]-> gene',
      'disease -[associated_with]-> gene & gene -[interacts_with]-> gene',
      'disease -[associated_with]-> gene & gene -[interacts_with]<- gene',
      'drug -[target]-> gene & gene -[interacts_with]-> gene',
      'drug -[target]-> gene & gene -[interacts_with]<- gene',
      'gene -[interacts_with]-> gene & gene -[interacts_with]<- gene',
    ]);
  });

  it('counts three-step templates, two-path ones included, with at most three steps over both paths', () => {
    const templates = enumerateTemplates(schema);
    expect(templates.every((t) => t.steps <= 3 && t.steps === t.branches.reduce((n, b) => n + b.steps.length, 0))).toBe(true);
    const counts: Record<number, number> = { 1: 0, 2: 0, 3: 0 };
    for (const t of templates) counts[t.steps]! += 1;
    // 3 steps: 18 single paths; pairs of a one-step and a two-step branch: 4 x 6 at gene, 1 x 3 at disease and at drug.
    expect(counts).toEqual({ 1: 6, 2: 18, 3: 48 });
    const pairs = templates.filter((t) => t.steps === 3 && t.branches.length === 2);
    expect(pairs).toHaveLength(30);
    expect(pairs.every((t) => t.branches[0]!.steps.length === 1 && t.branches[1]!.steps.length === 2)).toBe(true);
    expect(new Set(templates.map((t) => t.key)).size).toBe(templates.length);
    expect(templates.map((t) => t.steps)).toEqual([...templates.map((t) => t.steps)].sort());
  });

  it('gives each template its answer type and words', () => {
    const [t] = templatesByKey(schema, ['disease -[associated_with]-> gene -[target]<- drug']);
    expect(t).toMatchObject({ answerType: 'drug', steps: 2, words: 'a drug that targets a gene associated with {seed 1}' });
    const [pair] = templatesByKey(schema, ['disease -[associated_with]-> gene & drug -[target]-> gene']);
    expect(pair!.words).toBe('a gene associated with {seed 1} and targeted by {seed 2}');
  });

  it('refuses a maximum outside 1 to 3 steps', () => {
    expect(() => enumerateTemplates(schema, 4)).toThrow(/1 to 3 steps/);
  });
});

describe('templatesByKey', () => {
  const refusal = (keysGiven: string[]) => {
    try {
      templatesByKey(schema, keysGiven);
    } catch (err) {
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).status).toBe(400);
      return (err as AppError).message;
    }
    throw new Error('expected a refusal');
  };

  it('reads a key back to its template, spacing normalised, even one the enumeration leaves out', () => {
    const [t] = templatesByKey(schema, ['gene  -[interacts_with]->  gene -[interacts_with]-> gene']);
    expect(t!.key).toBe('gene -[interacts_with]-> gene -[interacts_with]-> gene');
    expect(t!.branches[0]!.steps).toEqual([
      { relation: 'interacts_with', direction: 'out', targetType: 'gene' },
      { relation: 'interacts_with', direction: 'out', targetType: 'gene' },
    ]);
  });

  it('names every unknown key and why: types, relations, missing edges, shape', () => {
    const message = refusal([
      'drug -[target]-> gene',
      'virus -[infects]-> gene',
      'drug -[target]-> disease',
      'disease -[associated_with]-> gene & drug -[target]-> gene -[interacts_with]-> gene -[interacts_with]-> gene',
      'disease -[associated_with]-> gene & gene -[associated_with]-> disease',
      'just words',
    ]);
    expect(message).toMatch(/^templates: unknown templates: /);
    expect(message).toContain('"virus -[infects]-> gene": unknown entity type "virus", unknown relation "infects"');
    expect(message).toContain('"drug -[target]-> disease": no "target" edges lead from drug to disease');
    expect(message).toContain('at most 3 steps over all its paths (this has 4)');
    expect(message).toContain('its paths end at different types (gene, disease)');
    expect(message).toContain('"just words": "just words" is not a path');
    expect(message).not.toContain('"drug -[target]-> gene"');
  });

  it('checks a backwards step against the edge it walks', () => {
    expect(templatesByKey(schema, ['gene -[target]<- drug'])[0]!.answerType).toBe('drug');
    expect(refusal(['drug -[target]<- gene'])).toContain('no "target" edges lead from gene to drug');
  });
});
