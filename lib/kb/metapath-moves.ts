// What the metapath builder computes in the browser as well: no database or server-only imports here.
import type { Direction } from './entity';

/** One (source type, relation, target type) combination the knowledge base has, with its edge count. */
export interface SchemaTriple {
  sourceType: string;
  relation: string;
  targetType: string;
  edgeCount: number;
}

/** A step a metapath can take from an entity of some type: an edge walked forwards (out) or backwards (in). */
export interface MetapathMove {
  relation: string;
  direction: Direction;
  targetType: string;
  edgeCount: number;
}

export const MAX_STEPS = 4;

/** The moves that exist from entities of `type`: its outgoing triples forwards, its incoming ones backwards. */
export function movesFrom(triples: SchemaTriple[], type: string): MetapathMove[] {
  const moves: MetapathMove[] = [];
  for (const t of triples) {
    if (t.sourceType === type) moves.push({ relation: t.relation, direction: 'out', targetType: t.targetType, edgeCount: t.edgeCount });
    if (t.targetType === type) moves.push({ relation: t.relation, direction: 'in', targetType: t.sourceType, edgeCount: t.edgeCount });
  }
  return moves.sort((a, b) => a.relation.localeCompare(b.relation) || a.direction.localeCompare(b.direction) || a.targetType.localeCompare(b.targetType));
}
