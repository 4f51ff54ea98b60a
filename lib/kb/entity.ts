import type pg from 'pg';
import { notFound } from '../errors';
import { groupCountsSql } from './hub-counts';

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
  /** Every edge of the relation has its reverse, so its 'in' group holds the same entities as its 'out' group. */
  symmetric: boolean;
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

/**
 * Edge counts per relation and direction: stored for hubs, else index-only scans of the two edge indexes.
 * A symmetric relation has both groups here (as STaRK's documents list them); `onceEach` keeps one.
 */
export async function relationCounts(db: Queryable, kbId: number, entityId: number): Promise<RelationCount[]> {
  const { rows } = await db.query<RelationCount>(
    `SELECT c."typeId" AS "relationId", r.name AS relation, c.direction, c.count, r.is_symmetric AS symmetric
       FROM (${groupCountsSql(['out', 'in'])}) c
       JOIN edge_type r ON r.id = c."typeId"
      ORDER BY r.name, c.direction DESC`,
    [kbId, [entityId], null],
  );
  return rows;
}

