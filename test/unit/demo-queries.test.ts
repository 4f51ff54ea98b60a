import { describe, expect, it } from 'vitest';
import { buildDemoCatalogue } from '../../lib/demo/catalogue';
import { demoQueries } from '../../lib/demo/queries';

describe('the demo query set', () => {
  const kb = buildDemoCatalogue();
  const queries = demoQueries(kb);
  const targets = (product: string, relation: string) => kb.edges.filter((e) => e.source === product && e.relation === relation).map((e) => e.target);
  const nameOf = new Map(kb.entities.map((e) => [e.externalId, e.name]));

  it('has 40 queries in train, val and test, 60/20/20', () => {
    expect(queries).toHaveLength(40);
    const count = (s: string) => queries.filter((q) => q.split === s).length;
    expect([count('train'), count('val'), count('test')]).toEqual([24, 8, 8]);
    expect(new Set(queries.map((q) => q.id)).size).toBe(40);
  });

  it('answers each question with exactly the products that have both named relations', () => {
    for (const q of queries) {
      const products = kb.entities.filter((e) => e.type === 'product').map((e) => e.externalId);
      const expected = products.filter((p) => {
        const brandColour = /^Which (.+) products does (.+) sell\?$/.exec(q.text);
        if (brandColour) return targets(p, 'has_color').some((c) => nameOf.get(c)!.toLowerCase() === brandColour[1]) && targets(p, 'has_brand').some((b) => nameOf.get(b) === brandColour[2]);
        const categoryMaterial = /^Which products in the (.+) category are made of (.+)\?$/.exec(q.text)!;
        return targets(p, 'has_category').some((c) => nameOf.get(c) === categoryMaterial[1]) && targets(p, 'made_of').some((m) => nameOf.get(m)!.toLowerCase() === categoryMaterial[2]);
      });
      expect([...q.answers].sort(), q.text).toEqual(expected.sort());
      expect(q.answers.length).toBeGreaterThan(0);
    }
  });
});
