import type pg from 'pg';
import { notFound } from '../errors';

type Queryable = Pick<pg.Pool, 'query'>;

export interface EntityDetail {
  id: number;
  externalId: string;
  name: string;
  type: string;
  aliases: string[];
  document: Record<string, unknown>;
  text: string;
  degree: number;
}

export type Direction = 'out' | 'in';

export interface RelationCount {
  relationId: number;
  relation: string;
  direction: Direction;
  count: number;
}

export async function getEntity(db: Queryable, kbId: number, entityId: number): Promise<EntityDetail> {
  const { rows } = await db.query<EntityDetail>(
    `SELECT e.id, e.external_id AS "externalId", e.name, t.name AS type, coalesce(e.aliases, '{}') AS aliases,
            e.document, e.text, e.degree
       FROM entity e JOIN node_type t ON t.id = e.type_id
      WHERE e.kb_id = $1 AND e.id = $2`,
    [kbId, entityId],
  );
  const entity = rows[0];
  if (!entity) throw notFound(`No entity ${entityId} in this knowledge base`);
  return entity;
}

/** Edge counts per relation and direction; both scans are index-only on the two edge indexes. */
export async function relationCounts(db: Queryable, kbId: number, entityId: number): Promise<RelationCount[]> {
  const { rows } = await db.query<{ relationId: number; relation: string; direction: Direction; count: string }>(
    `SELECT c.type_id AS "relationId", r.name AS relation, c.direction, c.n AS count
       FROM (SELECT type_id, 'out' AS direction, count(*) AS n FROM edge
              WHERE kb_id = $1 AND source_id = $2 GROUP BY type_id
             UNION ALL
             SELECT type_id, 'in', count(*) FROM edge
              WHERE kb_id = $1 AND target_id = $2 GROUP BY type_id) c
       JOIN edge_type r ON r.id = c.type_id
      ORDER BY r.name, c.direction DESC`,
    [kbId, entityId],
  );
  return rows.map((r) => ({ ...r, count: Number(r.count) }));
}
