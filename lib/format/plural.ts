/** English plural rules, so "1 entity" and "2 entities" read right (and "0 entities"). */
const RULES = new Intl.PluralRules('en');
const NUMBER = new Intl.NumberFormat('en');

/** Words whose plural is not the singular plus "s"; anything else is taken as regular. */
const IRREGULAR: Record<string, string> = {
  entity: 'entities', query: 'queries', property: 'properties', category: 'categories', study: 'studies',
  reply: 'replies', copy: 'copies', analysis: 'analyses', index: 'indexes', match: 'matches', batch: 'batches',
  child: 'children', person: 'people', hit: 'hits',
};

/** The plural of an English noun: "entity" -> "entities", "edge" -> "edges". */
export function pluralOf(noun: string): string {
  if (IRREGULAR[noun]) return IRREGULAR[noun];
  if (/[^aeiou]y$/.test(noun)) return `${noun.slice(0, -1)}ies`;
  if (/(s|x|z|ch|sh)$/.test(noun)) return `${noun}es`;
  return `${noun}s`;
}

/** The noun as the count needs it: noun(1, 'edge') = "edge", noun(2, 'edge') = "edges"; an explicit plural wins. */
export function noun(count: number | bigint, singular: string, plural?: string): string {
  return RULES.select(Number(count)) === 'one' ? singular : (plural ?? pluralOf(singular));
}

/** A count with its noun, the number grouped: plural(1, 'entity') = "1 entity", plural(12000, 'edge') = "12,000 edges". */
export function plural(count: number | bigint, singular: string, plural?: string): string {
  return `${NUMBER.format(count)} ${noun(count, singular, plural)}`;
}
