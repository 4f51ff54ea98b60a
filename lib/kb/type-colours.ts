/**
 * The one palette for entity types. A type's colour is picked by its rank in the knowledge base's sorted list of
 * entity types, so every view of the same knowledge base (graph page, entity page, paths, type map, legends,
 * badges) colours a type alike, whichever types it happens to show. Up to ten types get distinct colours.
 */
export const TYPE_PALETTE: readonly string[] = [
  '#2563eb', '#16a34a', '#d97706', '#9333ea', '#dc2626', '#0891b2', '#65a30d', '#db2777', '#4b5563', '#7c3aed',
];

/** A type the knowledge base does not list (not expected; a slip should look neutral, not borrow a colour). */
export const UNLISTED_TYPE_COLOUR = '#94a3b8';

/**
 * The colour of `type` in a knowledge base whose entity types are `kbTypes` (in any order). Ranks compare
 * names as `Array.prototype.sort` does, so the same list gives the same colours in every view.
 */
export function typeColour(kbTypes: readonly string[], type: string): string {
  if (!kbTypes.includes(type)) return UNLISTED_TYPE_COLOUR;
  const rank = new Set(kbTypes.filter((t) => t < type)).size;
  return TYPE_PALETTE[rank % TYPE_PALETTE.length]!;
}
