import type pg from 'pg';
import { badRequest, notFound } from '../errors';
import type { Direction } from './entity';
import { jitFreeRead, type Database } from './metapath';

type Queryable = Pick<pg.Pool, 'query'>;

export const MAX_PATH_HOPS = 3;
export const DEFAULT_PATH_CAP = 500;
/**
 * Edge reads the exact 3-hop count may cost: the summed degree of the smaller endpoint's neighbours. Above it
 * (two hubs) the paths are listed up to the cap without counting them all.
 */
export const THREE_HOP_COUNT_BUDGET = 600_000;

export interface PathOptions {
  from: number;
  to: number;
  maxHops: number;
  /** Relation names every edge of a path must have; none = all relations. */
  relations?: string[];
  /** Most paths returned, shortest first. */
  cap?: number;
}

export interface PathEntity {
  id: number;
  name: string;
  type: string;
}

/** An edge as stored (source -> target) and how the path walks it: `out` forwards, `in` backwards. */
export interface PathEdge {
  source: number;
  target: number;
  relation: string;
  direction: Direction;
}

export interface FoundPath {
  /** Entity ids from `from` to `to`. */
  nodes: number[];
  edges: PathEdge[];
}

export interface PathsResult {
  from: PathEntity;
  to: PathEntity;
  /** Paths per length; `total` is null when counting them all would be too costly (hub to hub, 3 hops). */
  counts: { hops: number; total: number | null }[];
  /** True when some paths were left out by the cap. */
  truncated: boolean;
  paths: FoundPath[];
  /** Every entity on a returned path. */
  entities: PathEntity[];
}

/** A neighbour row: `fwd` when the edge is stored from the expanded node to `node`. */
const neighbours = (node: string, relations = '$4') => `
  SELECT target_id AS node, type_id, true AS fwd FROM edge
   WHERE kb_id = $1 AND source_id = ${node} AND type_id = ANY(${relations}::int[])
  UNION ALL
  SELECT source_id, type_id, false FROM edge
   WHERE kb_id = $1 AND target_id = ${node} AND type_id = ANY(${relations}::int[])`;

/** The edges between `node` and the far end ($3) by exact lookups; `fwd` when stored from the far end. */
const edgesToFar = (node: string) => `
  SELECT type_id, true AS fwd FROM edge
   WHERE kb_id = $1 AND source_id = $3 AND type_id = ANY($4::int[]) AND target_id = ${node}
  UNION ALL
  SELECT type_id, false FROM edge
   WHERE kb_id = $1 AND source_id = ${node} AND type_id = ANY($4::int[]) AND target_id = $3`;

/** A path as stored edges: hop i joins nodes[i] and nodes[i+1]; `fwd` when stored in walking order. */
interface RawPath {
  nodes: number[];
  hops: { relationId: number; fwd: boolean }[];
}

/**
 * Every simple path (no entity twice) of 1 to maxHops edges between two entities, edges walked either way.
 * Bidirectional: 2-hop paths hash-join the two endpoints' neighbour lists; 3-hop paths expand the endpoint
 * of smaller degree, read each neighbour's edges (primary key out, edge_target_idx in, both index-only) and
 * keep those landing in the other endpoint's neighbour list. Hub-safe: a hub's neighbour list is read once,
 * and the 3-hop count is exact only while its cost stays under THREE_HOP_COUNT_BUDGET edge reads.
 */
export async function findPaths(db: Database, kbId: number, opts: PathOptions): Promise<PathsResult> {
  if (!Number.isInteger(opts.maxHops) || opts.maxHops < 1 || opts.maxHops > MAX_PATH_HOPS) {
    throw badRequest(`hops: must be 1 to ${MAX_PATH_HOPS} (got ${opts.maxHops})`);
  }
  if (opts.from === opts.to) throw badRequest('to: must differ from from (a path joins two entities)');
  return jitFreeRead(db, (client) => searchPaths(client, kbId, opts));
}

async function searchPaths(db: Queryable, kbId: number, opts: PathOptions): Promise<PathsResult> {
  const cap = opts.cap ?? DEFAULT_PATH_CAP;

  const { rows: ends } = await db.query<PathEntity & { degree: number }>(
    `SELECT e.id, e.name, t.name AS type, e.degree FROM entity e JOIN node_type t ON t.id = e.type_id
      WHERE e.kb_id = $1 AND e.id = ANY($2::int[])`, [kbId, [opts.from, opts.to]]);
  const from = ends.find((e) => e.id === opts.from);
  const to = ends.find((e) => e.id === opts.to);
  if (!from) throw notFound(`from: no entity ${opts.from} in this knowledge base`);
  if (!to) throw notFound(`to: no entity ${opts.to} in this knowledge base`);

  const { rows: relationRows } = await db.query<{ id: number; name: string }>(
    `SELECT id, name FROM edge_type WHERE kb_id = $1`, [kbId]);
  const relationName = new Map(relationRows.map((r) => [r.id, r.name]));
  let relationIds = relationRows.map((r) => r.id);
  if (opts.relations?.length) {
    const byName = new Map(relationRows.map((r) => [r.name, r.id]));
    relationIds = opts.relations.map((name) => {
      const id = byName.get(name);
      if (id === undefined) throw badRequest(`rel: unknown relation "${name}"`);
      return id;
    });
  }

  const counts: PathsResult['counts'] = [];
  const raw: RawPath[] = [];
  let truncated = false;
  const collect = (hops: number, total: number | null, found: RawPath[]) => {
    const room = cap - raw.length;
    raw.push(...found.slice(0, room));
    if (total === null || total > room || found.length > room) truncated = true;
    counts.push({ hops, total });
  };

  // Endpoints in walking order: the smaller-degree one expands first; paths are turned round afterwards.
  const [near, far] = from.degree <= to.degree ? [from.id, to.id] : [to.id, from.id];
  const params = [kbId, near, far, relationIds];

  // 1 hop: point lookups on the primary key, one per relation and direction.
  const { rows: direct } = await db.query<{ type_id: number; fwd: boolean }>(
    `SELECT type_id, true AS fwd FROM edge WHERE kb_id = $1 AND source_id = $2 AND type_id = ANY($4::int[]) AND target_id = $3
     UNION ALL
     SELECT type_id, false FROM edge WHERE kb_id = $1 AND source_id = $3 AND type_id = ANY($4::int[]) AND target_id = $2`, params);
  collect(1, direct.length, direct.map((r) => ({ nodes: [near, far], hops: [{ relationId: r.type_id, fwd: r.fwd }] })));

  if (opts.maxHops >= 2) {
    // Probing each neighbour of the near end for edges to the far end costs 2 index descents per relation;
    // reading the far end's whole neighbour list costs its degree. Pick the cheaper.
    const [nearDegree, farDegree] = near === from.id ? [from.degree, to.degree] : [to.degree, from.degree];
    const probe = nearDegree * 2 * relationIds.length <= farDegree;
    const { total, rows } = await pagedPaths<{ m: number; r1: number; f1: boolean; r2: number; f2: boolean }>(db, probe
      ? `a AS MATERIALIZED (${neighbours('$2')}),
         paths AS (SELECT a.node AS m, a.type_id AS r1, a.fwd AS f1, z.type_id AS r2, z.fwd AS f2
                     FROM a CROSS JOIN LATERAL (${edgesToFar('a.node')}) z WHERE a.node <> $2 AND a.node <> $3)`
      : `a AS (${neighbours('$2')}), b AS (${neighbours('$3')}),
         paths AS (SELECT a.node AS m, a.type_id AS r1, a.fwd AS f1, b.type_id AS r2, b.fwd AS f2
                     FROM a JOIN b ON b.node = a.node WHERE a.node <> $2 AND a.node <> $3)`,
      params, cap - raw.length, true);
    collect(2, total, rows.map((r) => ({
      nodes: [near, r.m, far],
      hops: [{ relationId: r.r1, fwd: r.f1 }, { relationId: r.r2, fwd: !r.f2 }],
    })));
  }

  if (opts.maxHops >= 3) {
    const nearDegree = near === from.id ? from.degree : to.degree;
    const exact = nearDegree <= THREE_HOP_COUNT_BUDGET && await threeHopCountAffordable(db, kbId, near, relationIds);
    // Nested loops all the way, so LIMIT can stop early: the near end's edges, each neighbour's edges, kept
    // when they land next to the far end (a hashed set, IS TRUE keeps it a per-row test), then the last
    // edge by point lookups on the two indexes.
    const { total, rows } = await pagedPaths<{ a: number; b: number; r1: number; f1: boolean; r2: number; f2: boolean; r3: number; f3: boolean }>(db,
      `s AS MATERIALIZED (${neighbours('$2')}),
       o AS MATERIALIZED (SELECT DISTINCT node FROM (${neighbours('$3')}) f),
       paths AS (
         SELECT s.node AS a, m.node AS b, s.type_id AS r1, s.fwd AS f1, m.type_id AS r2, m.fwd AS f2, z.type_id AS r3, z.fwd AS f3
           FROM s
           CROSS JOIN LATERAL (${neighbours('s.node')}) m
           CROSS JOIN LATERAL (${edgesToFar('m.node')}) z
          WHERE s.node <> $2 AND s.node <> $3 AND m.node <> $2 AND m.node <> $3 AND m.node <> s.node
            AND (m.node IN (SELECT node FROM o)) IS TRUE)`,
      params, cap - raw.length, exact);
    collect(3, total, rows.map((r) => ({
      nodes: [near, r.a, r.b, far],
      hops: [{ relationId: r.r1, fwd: r.f1 }, { relationId: r.r2, fwd: r.f2 }, { relationId: r.r3, fwd: !r.f3 }],
    })));
  }

  const oriented = near === from.id ? raw : raw.map(reverse);
  const ids = [...new Set(oriented.flatMap((p) => p.nodes))];
  const { rows: entities } = await db.query<PathEntity>(
    `SELECT e.id, e.name, t.name AS type FROM entity e JOIN node_type t ON t.id = e.type_id
      WHERE e.kb_id = $1 AND e.id = ANY($2::int[])`, [kbId, ids]);
  const byId = new Map(entities.map((e) => [e.id, e]));
  const key = (p: RawPath) => p.nodes.slice(1, -1).map((id) => byId.get(id)?.name ?? '').join('\u0000');
  oriented.sort((a, b) => a.nodes.length - b.nodes.length || key(a).localeCompare(key(b)));

  return {
    from: { id: from.id, name: from.name, type: from.type },
    to: { id: to.id, name: to.name, type: to.type },
    counts,
    truncated,
    paths: oriented.map((p) => ({
      nodes: p.nodes,
      edges: p.hops.map((h, i) => {
        const [a, b] = [p.nodes[i]!, p.nodes[i + 1]!];
        return h.fwd
          ? { source: a, target: b, relation: relationName.get(h.relationId)!, direction: 'out' as const }
          : { source: b, target: a, relation: relationName.get(h.relationId)!, direction: 'in' as const };
      }),
    })),
    entities,
  };
}

function reverse(p: RawPath): RawPath {
  return { nodes: [...p.nodes].reverse(), hops: [...p.hops].reverse().map((h) => ({ relationId: h.relationId, fwd: !h.fwd })) };
}

/**
 * Runs the `paths` CTE: up to `limit` rows, and their number when `count` (the CTE is then materialised once
 * for both). Without counting, LIMIT stops the enumeration early and one extra row tells whether more exist.
 */
async function pagedPaths<R>(db: Queryable, ctes: string, params: unknown[], limit: number, count: boolean): Promise<{ total: number | null; rows: R[] }> {
  const { rows } = await db.query<{ total: string | null; rows: R[] }>(
    `WITH ${ctes}
     SELECT ${count ? '(SELECT count(*) FROM paths)' : 'NULL'} AS total,
            (SELECT coalesce(json_agg(p), '[]') FROM (SELECT * FROM paths LIMIT $5) p) AS rows`,
    [...params, count ? limit : limit + 1]);
  const row = rows[0]!;
  return { total: row.total === null ? null : Number(row.total), rows: row.rows };
}

/** The edges a full 3-hop enumeration reads: the summed degree of the near endpoint's neighbours. */
async function threeHopCountAffordable(db: Queryable, kbId: number, near: number, relationIds: number[]): Promise<boolean> {
  const { rows } = await db.query<{ cost: string | null }>(
    `SELECT sum(x.degree) AS cost
       FROM (SELECT DISTINCT node FROM (${neighbours('$2', '$3')}) n) n
       JOIN entity x ON x.kb_id = $1 AND x.id = n.node`, [kbId, near, relationIds]);
  return Number(rows[0]?.cost ?? 0) <= THREE_HOP_COUNT_BUDGET;
}
