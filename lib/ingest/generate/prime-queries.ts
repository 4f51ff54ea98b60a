import type { GraphPlan } from './graph';
import { pick, type Rng } from './random';
import { fill, narrow, type GeneratedQuery, type OutLists } from './stark-queries';

/** How a question says "source -relation-> target" of the Prime shape's relations (plural subject). */
export const PRIME_RELATION_PHRASES: Record<string, string> = {
  interacts_with: 'interact with',
  associated_with_gene: 'are associated with the gene',
  targets: 'target',
  indicated_for: 'are indicated for',
  presents_phenotype: 'present the phenotype',
  expresses: 'express',
  involves_gene: 'involve the gene',
  synergizes_with: 'act in synergy with',
  has_side_effect: 'have the side effect',
  phenotype_of_gene: 'are phenotypes of the gene',
  performed_by: 'are performed by',
  contains_gene_product: 'contain the product of',
  includes_gene: 'include the gene',
  contraindicated_for: 'are contraindicated for',
  lacks_expression: 'lack expression of',
  metabolized_by: 'are metabolized by',
  subtype_of: 'are subtypes of',
  linked_to: 'are linked to',
};

const relationPhrase = (relation: string): string => PRIME_RELATION_PHRASES[relation] ?? `are linked by ${relation} to`;
export const plural = (noun: string): string => (noun.endsWith('s') ? `${noun}es` : `${noun}s`);

/** `{nouns}` is the plural of the sources' type, `{first}` and `{second}` relation phrases, `{x}` and `{y}` names. */
export const PRIME_QUERY_PHRASINGS = [
  'Which {nouns} {first} {x} and also {second} {y}? Please list all of them.',
  'I need the {nouns} that {first} {x} and {second} {y}; which ones are known?',
  'List the {nouns} in this knowledge base that {first} {x} and that {second} {y}.',
] as const;

/** Pools larger than this (sources sharing one very popular target) are not narrowed. */
const MAX_POOL = 5_000;
const MAX_ANSWERS = 20;

/**
 * Questions joining two relations from one source type: the sources with relation A to X and relation
 * B to Y, X and Y taken from the graph so that 1..20 sources answer. `lists` are each relation's
 * out-lists; `nouns` the plural noun of each type.
 */
export function primeQueries(plan: GraphPlan, lists: OutLists[], names: string[], nouns: string[], count: number, rng: Rng): GeneratedQuery[] {
  // Sources by target, per relation (the inverse of `lists`).
  const inverse = lists.map((l, ri) => {
    const target = plan.types[plan.relations[ri]!.target]!;
    const offsets = new Int32Array(target.count + 1);
    for (const t of l.targets) offsets[t - target.start + 1]!++;
    for (let i = 0; i < target.count; i++) offsets[i + 1]! += offsets[i]!;
    const fillAt = offsets.slice(0, target.count);
    const sources = new Int32Array(l.targets.length);
    for (let local = 0; local + 1 < l.offsets.length; local++) {
      for (let j = l.offsets[local]!; j < l.offsets[local + 1]!; j++) sources[fillAt[l.targets[j]! - target.start]!++] = l.base + local;
    }
    return { offsets, sources, base: target.start };
  });
  const pairs: [number, number][] = [];
  plan.relations.forEach((a, ai) => plan.relations.forEach((b, bi) => {
    if (ai !== bi && a.source === b.source && lists[ai]!.targets.length > 0 && lists[bi]!.targets.length > 0) pairs.push([ai, bi]);
  }));
  const out: GeneratedQuery[] = [];
  const asked = new Set<string>();
  for (let attempt = 0; out.length < count && pairs.length > 0 && attempt < count * 20; attempt++) {
    const [ai, bi] = pick(rng, pairs);
    const a = lists[ai]!;
    const edge = Math.floor(rng() * a.targets.length);
    const x = a.targets[edge]!;
    const inv = inverse[ai]!;
    const from = inv.offsets[x - inv.base]!;
    const to = inv.offsets[x - inv.base + 1]!;
    if (to - from > MAX_POOL) continue;
    const hit = narrow(Array.from(inv.sources.subarray(from, to)), lists[bi]!, rng, MAX_ANSWERS);
    if (!hit || asked.has(`${ai} ${x} ${bi} ${hit.value}`)) continue;
    asked.add(`${ai} ${x} ${bi} ${hit.value}`);
    const text = fill(pick(rng, PRIME_QUERY_PHRASINGS), {
      nouns: nouns[plan.relations[ai]!.source]!,
      first: relationPhrase(plan.relations[ai]!.name),
      x: names[x]!,
      second: relationPhrase(plan.relations[bi]!.name),
      y: names[hit.value]!,
    });
    out.push({ text, answers: hit.answers });
  }
  return out;
}
