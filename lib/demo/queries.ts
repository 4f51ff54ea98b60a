import type { SeedKnowledgeBase } from './catalogue';
import type { QueryRecord } from '../queries/types';

export const DEMO_QUERY_SET = 'demo-catalogue-questions';

/**
 * Questions over the demo catalogue in the style of STaRK's templates, each combining two relations
 * (brand and colour, or category and material), with every product that satisfies both as its answers.
 * Deterministic, like the catalogue; splits 60/20/20 in order.
 */
export function demoQueries(kb: SeedKnowledgeBase, max = 40): QueryRecord[] {
  const name = new Map(kb.entities.map((e) => [e.externalId, e.name]));
  const out = new Map<string, Map<string, string[]>>();
  for (const e of kb.edges) {
    if (!e.source.startsWith('P')) continue;
    const byRelation = out.get(e.source) ?? new Map<string, string[]>();
    byRelation.set(e.relation, [...(byRelation.get(e.relation) ?? []), e.target]);
    out.set(e.source, byRelation);
  }
  const templates: { a: string; b: string; text: (x: string, y: string) => string }[] = [
    { a: 'has_brand', b: 'has_color', text: (brand, color) => `Which ${color.toLowerCase()} products does ${brand} sell?` },
    { a: 'has_category', b: 'made_of', text: (category, material) => `Which products in the ${category} category are made of ${material.toLowerCase()}?` },
  ];
  const groups = new Map<string, { text: string; answers: string[] }>();
  for (const [product, rel] of [...out].sort(([x], [y]) => x.localeCompare(y))) {
    for (const [t, tpl] of templates.entries()) {
      for (const x of rel.get(tpl.a) ?? []) {
        for (const y of rel.get(tpl.b) ?? []) {
          const key = `${t}:${x}:${y}`;
          const g = groups.get(key) ?? { text: tpl.text(name.get(x)!, name.get(y)!), answers: [] };
          g.answers.push(product);
          groups.set(key, g);
        }
      }
    }
  }
  // Alternate the templates, so both kinds are in every split.
  const usable = [...groups].filter(([, g]) => g.answers.length <= 10);
  const byTemplate = templates.map((_, t) => usable.filter(([key]) => key.startsWith(`${t}:`)).map(([, g]) => g));
  const chosen = Array.from({ length: max }, (_, i) => byTemplate[i % byTemplate.length]![Math.floor(i / byTemplate.length)]).filter((g) => g !== undefined);
  return chosen.map((g, i) => ({
    id: String(i),
    text: g.text,
    answers: g.answers,
    seeds: [],
    split: i % 5 < 3 ? 'train' : i % 5 === 3 ? 'val' : 'test',
    metadata: { template: 'two-relation intersection', generator: 'demo' },
  }));
}
