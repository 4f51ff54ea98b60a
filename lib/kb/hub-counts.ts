import type pg from 'pg';
import type { Direction } from './entity';

type Queryable = Pick<pg.Pool, 'query'>;

/**
 * Entities with at least this many edges have their edge counts per relation and direction stored at
 * import (table hub_relation_count). Counting a hub's 100k edges, even index-only, costs tens of
 * milliseconds on every page that shows it; below this degree a live count reads at most this many index
 * entries, well under a millisecond.
 */
export const HUB_DEGREE = 1000;

export interface HubCount {
  entityId: number;
  typeId: number;
  direction: Direction;
  count: number;
}

/**
 * SQL for the per-relation counts of every entity of degree >= $2 in an entity/edge table pair of knowledge
 * base $1 (staging or live: both carry the same indexes). The edge indexes lead with kb_id: without it in
 * the predicates no index matches `source_id = h.id`, and each hub scans the whole edge table (minutes at
 * Prime size). With it, each hub reads only its own index entries, index-only once the tables are vacuumed.
 */
export function hubCountsSql(tables: { entity: string; edge: string }): string {
  return `SELECT h.id AS "entityId", c.type_id AS "typeId", c.direction, c.n AS count
            FROM ${tables.entity} h CROSS JOIN LATERAL (
                   SELECT type_id, 'out' AS direction, count(*) AS n FROM ${tables.edge} WHERE kb_id = $1 AND source_id = h.id GROUP BY type_id
                   UNION ALL
                   SELECT type_id, 'in', count(*) FROM ${tables.edge} WHERE kb_id = $1 AND target_id = h.id GROUP BY type_id) c
           WHERE h.kb_id = $1 AND h.degree >= $2`;
}

/** The per-relation counts of every entity of degree >= `hubDegree` in a (staging) entity/edge table pair. */
export async function countHubRelations(db: Queryable, tables: { entity: string; edge: string }, kbId: number, hubDegree: number): Promise<HubCount[]> {
  const { rows } = await db.query<{ entityId: number; typeId: number; direction: Direction; count: string }>(hubCountsSql(tables), [kbId, hubDegree]);
  return rows.map((r) => ({ ...r, count: Number(r.count) }));
}

/** Replaces a knowledge base's stored hub counts; run inside the transaction that publishes its edges. */
export async function replaceHubCounts(db: Queryable, kbId: number, counts: HubCount[]): Promise<void> {
  await db.query('DELETE FROM hub_relation_count WHERE kb_id = $1', [kbId]);
  await db.query(
    `INSERT INTO hub_relation_count (kb_id, entity_id, type_id, direction, count)
     SELECT $1, e, t, d, n FROM unnest($2::int[], $3::int[], $4::text[], $5::int[]) AS u(e, t, d, n)`,
    [kbId, counts.map((c) => c.entityId), counts.map((c) => c.typeId), counts.map((c) => c.direction), counts.map((c) => c.count)],
  );
}

/**
 * SQL for edge counts of the entities `$2::int[]` per relation and direction, limited to the relations
 * `$3::int[]` (NULL = all) and the directions asked for: stored rows for hubs, a live index-only count for
 * the rest. Columns: node, "typeId", direction, count. Parameter $1 is the knowledge base.
 */
export function groupCountsSql(directions: Direction[]): string {
  // The hubs are taken out of the id list before the index scan: as a row filter they would still be
  // scanned, all 100k edges of them.
  const live = (d: Direction) => {
    const self = d === 'out' ? 'source_id' : 'target_id';
    return `SELECT ${self} AS node, type_id AS "typeId", '${d}' AS direction, count(*)::int AS count FROM edge
             WHERE kb_id = $1 AND ($3::int[] IS NULL OR type_id = ANY($3::int[]))
               AND ${self} = ANY(ARRAY(SELECT unnest($2::int[])
                                       EXCEPT SELECT entity_id FROM hub_relation_count WHERE kb_id = $1 AND entity_id = ANY($2::int[])))
             GROUP BY ${self}, type_id`;
  };
  const stored = `SELECT entity_id AS node, type_id AS "typeId", direction, count FROM hub_relation_count
                   WHERE kb_id = $1 AND entity_id = ANY($2::int[]) AND ($3::int[] IS NULL OR type_id = ANY($3::int[]))
                     AND direction = ANY('{${directions.join(',')}}'::text[])`;
  return [stored, ...directions.map(live)].join('\nUNION ALL\n');
}

/** SQL for the distinct other ends of entity `$2`'s edges in table `edge` (itself not counted); $1 is the knowledge base. */
const distinctNeighboursOf = (edge: string, entity: string) =>
  `(SELECT count(*) FROM (SELECT target_id AS other FROM ${edge} WHERE kb_id = $1 AND source_id = ${entity}
                          UNION SELECT source_id FROM ${edge} WHERE kb_id = $1 AND target_id = ${entity}) n
     WHERE n.other <> ${entity})::int`;

export interface HubNeighbours { entityId: number; neighbours: number }

/**
 * The distinct neighbours of every entity of degree >= `hubDegree` in a (staging) entity/edge table pair: each
 * hub reads its own entries of the two edge indexes, as for its relation counts.
 */
export async function countHubNeighbours(db: Queryable, tables: { entity: string; edge: string }, kbId: number, hubDegree: number): Promise<HubNeighbours[]> {
  const { rows } = await db.query<HubNeighbours>(
    `SELECT h.id AS "entityId", ${distinctNeighboursOf(tables.edge, 'h.id')} AS neighbours
       FROM ${tables.entity} h WHERE h.kb_id = $1 AND h.degree >= $2`,
    [kbId, hubDegree],
  );
  return rows;
}

/** Replaces a knowledge base's stored hub neighbour counts; run inside the transaction that publishes its edges. */
export async function replaceHubNeighbours(db: Queryable, kbId: number, counts: HubNeighbours[]): Promise<void> {
  await db.query('DELETE FROM hub_neighbour_count WHERE kb_id = $1', [kbId]);
  await db.query(
    `INSERT INTO hub_neighbour_count (kb_id, entity_id, neighbours)
     SELECT $1, e, n FROM unnest($2::int[], $3::int[]) AS u(e, n)`,
    [kbId, counts.map((c) => c.entityId), counts.map((c) => c.neighbours)],
  );
}

/**
 * How many distinct entities an entity is linked to, either way and by any relation (itself not counted):
 * stored for hubs, else counted from the two edge indexes (under a millisecond below the hub degree).
 */
export async function distinctNeighbourCount(db: Queryable, kbId: number, entityId: number): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `SELECT coalesce((SELECT neighbours FROM hub_neighbour_count WHERE kb_id = $1 AND entity_id = $2),
                     ${distinctNeighboursOf('edge', '$2::int')}) AS n`,
    [kbId, entityId],
  );
  return rows[0]!.n;
}
