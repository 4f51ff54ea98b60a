import type { Direction } from './entity';

/**
 * The groups a person means: a symmetric relation's incoming group is its outgoing one again (every edge is
 * stored both ways), so only the outgoing one stays; it stands for the relation in both directions.
 */
export function onceEach<T extends { direction: Direction; symmetric: boolean }>(groups: readonly T[]): T[] {
  return groups.filter((g) => !(g.symmetric && g.direction === 'in'));
}

/** How a relation group reads: `r →`, `← r`, or `r ↔` for a symmetric relation. */
export function groupLabel(g: { relation: string; direction: Direction; symmetric: boolean }): string {
  if (g.symmetric) return `${g.relation} ↔`;
  return g.direction === 'out' ? `${g.relation} →` : `← ${g.relation}`;
}
