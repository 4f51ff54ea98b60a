import { describe, it, expect } from 'vitest';
import { buildDemoCatalogue, type SeedKnowledgeBase } from '../../lib/demo/catalogue';

const kb = buildDemoCatalogue();
const products = kb.entities.filter((e) => e.type === 'product');

function countBy<T>(items: T[], key: (item: T) => string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return counts;
}

describe('buildDemoCatalogue', () => {
  it('describes the knowledge base', () => {
    expect(kb.slug).toBe('demo-catalogue');
    expect(kb.name).toBe('Demo product catalogue');
    expect(kb.source).toBe('Written for SKB Studio (synthetic)');
    expect(kb.license).toBe('CC0-1.0');
    expect(kb.description.length).toBeGreaterThan(100);
  });

  it('is deterministic for a seed and varies across seeds', () => {
    expect(buildDemoCatalogue()).toEqual(kb);
    expect(buildDemoCatalogue(42)).toEqual(buildDemoCatalogue(42));
    const other: SeedKnowledgeBase = buildDemoCatalogue(42);
    expect(other).not.toEqual(kb);
    expect(other.entities.filter((e) => e.type === 'product').map((e) => e.name)).not.toEqual(products.map((e) => e.name));
  });

  it('has a few hundred entities over the five types, mostly products', () => {
    expect(kb.entities.length).toBeGreaterThanOrEqual(300);
    expect(kb.entities.length).toBeLessThanOrEqual(450);
    const types = countBy(kb.entities, (e) => e.type);
    expect([...types.keys()].sort()).toEqual(['brand', 'category', 'color', 'material', 'product']);
    expect(types.get('product')).toBeGreaterThanOrEqual(200);
    expect(types.get('brand')).toBeGreaterThanOrEqual(6);
    expect(types.get('brand')).toBeLessThanOrEqual(12);
    expect(types.get('color')).toBeGreaterThanOrEqual(10);
    expect(types.get('material')).toBeGreaterThanOrEqual(6);
    expect(types.get('category')).toBeGreaterThanOrEqual(20);
    expect(types.get('category')).toBeLessThanOrEqual(30);
  });

  it('uses the documented external id formats, uniquely', () => {
    const formats: Record<string, RegExp> = {
      product: /^P\d{4}$/, brand: /^B\d{2}$/, category: /^C\d{2}$/, color: /^COL\d{2}$/, material: /^M\d{2}$/,
    };
    for (const e of kb.entities) expect(e.externalId).toMatch(formats[e.type] as RegExp);
    expect(new Set(kb.entities.map((e) => e.externalId)).size).toBe(kb.entities.length);
  });

  it('keeps names unique within each type', () => {
    for (const [type, count] of countBy(kb.entities, (e) => e.type)) {
      const names = new Set(kb.entities.filter((e) => e.type === type).map((e) => e.name));
      expect(names.size, type).toBe(count);
    }
  });

  it('has at least six relation types with valid, unique, non-looping edges', () => {
    const relations = countBy(kb.edges, (e) => e.relation);
    expect(relations.size).toBeGreaterThanOrEqual(6);
    const ids = new Set(kb.entities.map((e) => e.externalId));
    const keys = new Set<string>();
    for (const edge of kb.edges) {
      expect(ids.has(edge.source), edge.source).toBe(true);
      expect(ids.has(edge.target), edge.target).toBe(true);
      expect(edge.source).not.toBe(edge.target);
      keys.add(`${edge.source}|${edge.relation}|${edge.target}`);
    }
    expect(keys.size).toBe(kb.edges.length);
  });

  it('types each relation consistently', () => {
    const typeOf = new Map(kb.entities.map((e) => [e.externalId, e.type]));
    const expected: Record<string, [string, string]> = {
      has_brand: ['product', 'brand'],
      has_category: ['product', 'category'],
      has_color: ['product', 'color'],
      made_of: ['product', 'material'],
      also_bought: ['product', 'product'],
      also_viewed: ['product', 'product'],
      subcategory_of: ['category', 'category'],
    };
    expect(new Set(kb.edges.map((e) => e.relation))).toEqual(new Set(Object.keys(expected)));
    for (const edge of kb.edges) {
      expect([typeOf.get(edge.source), typeOf.get(edge.target)], edge.relation).toEqual(expected[edge.relation]);
    }
  });

  it('gives every product exactly one brand and category, and a colour and material', () => {
    for (const relation of ['has_brand', 'has_category']) {
      const perProduct = countBy(kb.edges.filter((e) => e.relation === relation), (e) => e.source);
      expect(perProduct.size, relation).toBe(products.length);
      expect([...perProduct.values()].every((n) => n === 1), relation).toBe(true);
    }
    for (const relation of ['has_color', 'made_of']) {
      expect(new Set(kb.edges.filter((e) => e.relation === relation).map((e) => e.source)).size, relation).toBe(products.length);
    }
  });

  it('forms a category hierarchy: each category has at most one parent and the roots are few', () => {
    const categories = kb.entities.filter((e) => e.type === 'category');
    const parents = countBy(kb.edges.filter((e) => e.relation === 'subcategory_of'), (e) => e.source);
    expect([...parents.values()].every((n) => n === 1)).toBe(true);
    const roots = categories.filter((c) => !parents.has(c.externalId));
    expect(roots.length).toBeGreaterThanOrEqual(2);
    expect(roots.length).toBeLessThanOrEqual(6);
    const tents = categories.find((c) => c.name === 'Tents');
    expect(tents?.document.path).toBe('Outdoor > Camping > Tents');
  });

  it('writes shop-style product documents', () => {
    for (const p of products) {
      const doc = p.document;
      expect(doc.title).toBe(p.name);
      expect(typeof doc.brand).toBe('string');
      expect(typeof doc.price).toBe('number');
      expect(doc.price as number).toBeGreaterThan(0);
      const sentences = (doc.description as string).split(/(?<=\.)\s+/);
      expect(sentences.length, p.name).toBeGreaterThanOrEqual(2);
      expect(sentences.length, p.name).toBeLessThanOrEqual(4);
      expect((doc.description as string).includes('{'), p.name).toBe(false);
      expect((doc.features as string[]).length).toBeGreaterThanOrEqual(3);
      const reviews = doc.reviews as Array<Record<string, unknown>>;
      expect(Array.isArray(reviews)).toBe(true);
      for (const r of reviews) {
        expect(Number.isInteger(r.rating) && (r.rating as number) >= 1 && (r.rating as number) <= 5, p.name).toBe(true);
        expect(typeof r.reviewer).toBe('string');
        expect((r.summary as string).length).toBeGreaterThan(0);
        expect((r.text as string).length).toBeGreaterThan(0);
      }
      const qa = doc.qa as Array<Record<string, string>>;
      expect(qa.length).toBeLessThanOrEqual(4);
      for (const item of qa) expect(item.answer?.includes('{')).toBe(false);
    }
  });

  it('varies documents: distinct descriptions, review counts from none to many, some aliases', () => {
    expect(new Set(products.map((p) => p.document.description)).size).toBeGreaterThan(products.length * 0.9);
    const reviewCounts = products.map((p) => (p.document.reviews as unknown[]).length);
    expect(Math.min(...reviewCounts)).toBe(0);
    expect(Math.max(...reviewCounts)).toBeGreaterThan(6);
    const ratings = new Set(products.flatMap((p) => (p.document.reviews as Array<{ rating: number }>).map((r) => r.rating)));
    expect([...ratings].sort()).toEqual([1, 2, 3, 4, 5]);
    const withAliases = products.filter((p) => p.aliases.length > 0);
    expect(withAliases.length).toBeGreaterThan(products.length * 0.2);
    for (const p of withAliases) expect(p.aliases).not.toContain(p.name);
  });

  it('keeps each product document consistent with its brand edge', () => {
    const nameOf = new Map(kb.entities.map((e) => [e.externalId, e.name]));
    const byId = new Map(products.map((p) => [p.externalId, p]));
    for (const edge of kb.edges.filter((e) => e.relation === 'has_brand')) {
      const product = byId.get(edge.source);
      expect(product?.document.brand).toBe(nameOf.get(edge.target));
      expect(product?.name.startsWith(nameOf.get(edge.target) as string)).toBe(true);
    }
  });
});
