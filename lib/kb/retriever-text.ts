import type pg from 'pg';
import { getEntity, relationCounts } from './entity';
import { listNeighbours } from './neighbours';

type Queryable = Pick<pg.Pool, 'query'>;

export const DEFAULT_MAX_PER_RELATION = 20;

/**
 * The text a retriever sees for an entity, as STaRK's `get_doc_info` builds it: the flattened document,
 * then one line per relation and direction naming the neighbours, e.g.
 *
 *   - relation: interacts with (out, 120): ABCA1, ABCB1, ... (+100 more)
 *
 * Deterministic: relations by name (outgoing first), neighbours by name then id, at most
 * `maxPerRelation` names per line with the rest counted.
 */
export async function retrieverText(db: Queryable, kbId: number, entityId: number, opts: { maxPerRelation?: number } = {}): Promise<string> {
  const max = opts.maxPerRelation ?? DEFAULT_MAX_PER_RELATION;
  const entity = await getEntity(db, kbId, entityId);
  const groups = await relationCounts(db, kbId, entityId);
  const lines: string[] = [];
  for (const g of groups) {
    const page = await listNeighbours(db, kbId, entityId, { relation: g.relationId, direction: g.direction, sort: 'name', order: 'asc', limit: max });
    const names = page.items.map((n) => n.name).join(', ');
    const rest = g.count - page.items.length;
    lines.push(`- relation: ${g.relation} (${g.direction}, ${g.count}): ${names}${rest > 0 ? ` (+${rest} more)` : ''}`);
  }
  return [entity.text, ...lines].join('\n');
}
