import type pg from 'pg';
import { badRequest, notFound } from '../errors';
import type { Direction } from './entity';
import type { Database } from '../db/transaction';
import { readTransaction } from './metapath';

type Queryable = Pick<pg.Pool, 'query'>;

export const MAX_PATH_HOPS = 3;
export const DEFAULT_PATH_CAP = 500;
/**
 * Edge reads (probes weighed as PROBE_COST reads) the exact 3-hop count may cost. Above it the paths are listed
 * up to the cap without counting them all.
 */
export const THREE_HOP_COUNT_BUDGET = 600_000;
/** Far ends of at most this degree have both neighbour sets looked up, so each x can pick read or probe. */
const WEIGHED_DEGREE_LIMIT = 10_000;
/** What one primary-key probe costs, in edges read by an index-only scan. */
const PROBE_COST = 8;

/**
 * How 3-hop paths join the near end's neighbours (x) to the far end's (y): `expand` reads every x's edges,
 * `probe` looks up each (x, relation, y) the schema allows, `weighed` picks per x. Chosen per query; forced only
 * to test each.
 */
export type ThreeHopStrategy = 'expand' | 'probe' | 'weighed';

/** Overrides of the automatic choices, for tests: the 3-hop strategy and the edge reads a 3-hop count may cost. */
export interface PathTuning {
  threeHop?: ThreeHopStrategy;
  countBudget?: number;
}

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

/** The edges between `node` and an endpoint (`end`, $2 or $3) by exact lookups; `fwd` when stored from `end`. */
const edgesToEnd = (end: '$2' | '$3', node: string) => `
  SELECT type_id, true AS fwd FROM edge
   WHERE kb_id = $1 AND source_id = ${end} AND type_id = ANY($4::int[]) AND target_id = ${node}
  UNION ALL
  SELECT type_id, false FROM edge
   WHERE kb_id = $1 AND source_id = ${node} AND type_id = ANY($4::int[]) AND target_id = ${end}`;

/** A path as stored edges: hop i joins nodes[i] and nodes[i+1]; `fwd` when stored in walking order. */
interface RawPath {
  nodes: number[];
  hops: { relationId: number; fwd: boolean }[];
}

/**
 * Every simple path (no entity twice) of 1 to maxHops edges between two entities, edges walked either way.
 * Bidirectional: 2-hop paths join the two endpoints' neighbour lists; 3-hop paths join the near (smaller
 * degree) end's neighbours x to the far end's neighbours y by reading x's edges or probing (x, y) pairs, see
 * ThreeHopStrategy. Hub-safe: a hub's neighbour list is read once, and the 3-hop count is exact only while its
 * cost stays under THREE_HOP_COUNT_BUDGET edge reads.
 */
export async function findPaths(db: Database, kbId: number, opts: PathOptions, tuning: PathTuning = {}): Promise<PathsResult> {
  if (!Number.isInteger(opts.maxHops) || opts.maxHops < 1 || opts.maxHops > MAX_PATH_HOPS) {
    throw badRequest(`hops: must be 1 to ${MAX_PATH_HOPS} (got ${opts.maxHops})`);
  }
  if (opts.from === opts.to) throw badRequest('to: must differ from from (a path joins two entities)');
  return readTransaction(db, (client) => searchPaths(client, kbId, opts, tuning));
}

async function searchPaths(db: Queryable, kbId: number, opts: PathOptions, tuning: PathTuning): Promise<PathsResult> {
  const cap = opts.cap ?? DEFAULT_PATH_CAP;
  // Joins here pair unsorted neighbour lists: hashing the smaller beats sorting both (twice as fast on hubs).
  await db.query('SET LOCAL enable_mergejoin = off');

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
  const [nearDegree, farDegree] = near === from.id ? [from.degree, to.degree] : [to.degree, from.degree];
  const params = [kbId, near, far, relationIds];
  // The 3-hop walk tests membership in the far end's neighbour list with a hashed subplan, which PostgreSQL
  // uses only while the list fits in work memory (else it rescans the list per row): size it by the degree.
  await db.query(`SET LOCAL work_mem = '${workMemMb(farDegree)}MB'`);

  // 1 hop: point lookups on the primary key, one per relation and direction.
  const { rows: direct } = await db.query<{ type_id: number; fwd: boolean }>(
    `SELECT type_id, true AS fwd FROM edge WHERE kb_id = $1 AND source_id = $2 AND type_id = ANY($4::int[]) AND target_id = $3
     UNION ALL
     SELECT type_id, false FROM edge WHERE kb_id = $1 AND source_id = $3 AND type_id = ANY($4::int[]) AND target_id = $2`, params);
  collect(1, direct.length, direct.map((r) => ({ nodes: [near, far], hops: [{ relationId: r.type_id, fwd: r.fwd }] })));

  if (opts.maxHops >= 2) {
    // Probing each neighbour of the near end for edges to the far end costs 2 index descents per relation;
    // reading the far end's whole neighbour list costs its degree. Pick the cheaper.
    const probe = nearDegree * 2 * relationIds.length <= farDegree;
    const { total, rows } = await pagedPaths<{ m: number; r1: number; f1: boolean; r2: number; f2: boolean }>(db, probe
      ? `a AS MATERIALIZED (${neighbours('$2')}),
         paths AS (SELECT a.node AS m, a.type_id AS r1, a.fwd AS f1, z.type_id AS r2, z.fwd AS f2
                     FROM a CROSS JOIN LATERAL (${edgesToEnd('$3', 'a.node')}) z WHERE a.node <> $2 AND a.node <> $3)`
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
    const strategy = tuning.threeHop ?? (farDegree <= WEIGHED_DEGREE_LIMIT ? 'weighed' : 'expand');
    const budget = tuning.countBudget ?? THREE_HOP_COUNT_BUDGET;
    const weigh = strategy !== 'expand' || nearDegree <= WEIGHED_DEGREE_LIMIT;
    const [ctes, args] = strategy === 'expand'
      ? [expandCtes(weigh), [...params, budget]]
      : [weighedCtes(strategy === 'probe'), [...params, budget, PROBE_COST]];
    // Two big ends whose shorter paths already fill the cap: nothing to list and too costly to count.
    const { total, rows } = !weigh && raw.length >= cap ? { total: null, rows: [] } : await pagedPaths<{ a: number; b: number; r1: number; f1: boolean; r2: number; f2: boolean; r3: number; f3: boolean }>(db,
      ctes, args, cap - raw.length, 'cost', 'page');
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

/** Work memory for a neighbour list of `degree` rows hashed twice (about 100 bytes a row), 32 to 512 MB. */
export function workMemMb(degree: number): number {
  return Math.min(512, Math.max(32, Math.ceil((degree * 100) / 2 ** 20)));
}

function reverse(p: RawPath): RawPath {
  return { nodes: [...p.nodes].reverse(), hops: [...p.hops].reverse().map((h) => ({ relationId: h.relationId, fwd: !h.fwd })) };
}

/**
 * Runs the `paths` CTE: up to `limit` rows and their number. `count` is true (always count), false (never: LIMIT
 * stops the enumeration early and one extra row tells whether more exist) or 'cost': count only while the `cost`
 * CTE stays within $6 edge reads; the uncounted CTE is then read lazily, only as far as the page needs.
 */
async function pagedPaths<R>(db: Queryable, ctes: string, params: unknown[], limit: number, count: boolean | 'cost', page = 'paths'): Promise<{ total: number | null; rows: R[] }> {
  const counted = count === 'cost'
    ? 'CASE WHEN (SELECT cost FROM cost) <= $6 THEN (SELECT count(*) FROM paths) END'
    : count ? '(SELECT count(*) FROM paths)' : 'NULL';
  const { rows } = await db.query<{ total: string | null; rows: R[] }>(
    `WITH ${ctes}
     SELECT ${counted} AS total, (SELECT coalesce(json_agg(p), '[]') FROM (SELECT * FROM ${page} LIMIT $5) p) AS rows`,
    [...params.slice(0, 4), count === true ? limit : limit + 1, ...params.slice(4)]);
  const row = rows[0]!;
  // Uncounted, a page that came back short holds every path: the count is exact after all.
  const total = row.total !== null ? Number(row.total) : row.rows.length <= limit ? row.rows.length : null;
  return { total, rows: row.rows };
}

/**
 * 3 hops near–x–y–far, every x read: each near neighbour's edges (primary key out, edge_target_idx in, both
 * index-only) kept when they land in the far end's neighbour set (hashed once). Nested loops, so LIMIT stops
 * early. `cost` is the summed degree of the x, looked up only when `weigh` (a few thousand entities at most).
 */
function expandCtes(weigh: boolean): string {
  return `s AS MATERIALIZED (${neighbours('$2')}),
    o AS MATERIALIZED (${neighbours('$3')}),
    x AS MATERIALIZED (SELECT DISTINCT node AS id FROM s WHERE node <> $2 AND node <> $3),
    cost AS (SELECT ${weigh ? 'sum(e.degree) AS cost FROM entity e WHERE e.kb_id = $1 AND e.id IN (SELECT id FROM x)' : 'NULL::bigint AS cost'}),
    mid AS (
      SELECT x.id AS a, m.node AS b, m.type_id AS r2, m.fwd AS f2
        FROM x CROSS JOIN LATERAL (${neighbours('x.id')}) m
       WHERE m.node <> x.id AND m.node <> $2 AND m.node <> $3 AND (m.node IN (SELECT node FROM o)) IS TRUE),
    ${PATHS_FROM_MIDDLE}`;
}

/**
 * 3 hops near–x–y–far, both neighbour sets small enough to look up (entity primary key). Each x is joined to the
 * y by the cheaper of reading its edges (its degree) and probing the primary key for each (x, relation, y) the
 * schema allows between their types (PROBE_COST each); `probeAll` forces probing. `cost` sums the choices.
 */
function weighedCtes(probeAll: boolean): string {
  const probe = (src: string, dst: string, fwd: boolean, join: string) => `
      SELECT w.id AS a, y.id AS b, t.r AS r2, ${fwd} AS f2
        FROM w JOIN t ON ${join} = w.type_id JOIN y ON y.type_id = ${join === 't.st' ? 't.tt' : 't.st'}
       WHERE NOT w.reads AND y.id <> w.id
         AND EXISTS (SELECT FROM edge WHERE kb_id = $1 AND source_id = ${src} AND type_id = t.r AND target_id = ${dst})`;
  return `s AS MATERIALIZED (${neighbours('$2')}),
    o AS MATERIALIZED (${neighbours('$3')}),
    t AS MATERIALIZED (SELECT source_type_id AS st, edge_type_id AS r, target_type_id AS tt
                         FROM schema_triple WHERE kb_id = $1 AND edge_type_id = ANY($4::int[])),
    x AS MATERIALIZED (SELECT e.id, e.type_id, e.degree FROM entity e
                        WHERE e.kb_id = $1 AND e.id IN (SELECT node FROM s) AND e.id <> $2 AND e.id <> $3),
    y AS MATERIALIZED (SELECT e.id, e.type_id FROM entity e
                        WHERE e.kb_id = $1 AND e.id IN (SELECT node FROM o) AND e.id <> $2 AND e.id <> $3),
    yt AS MATERIALIZED (SELECT type_id, count(*) AS n FROM y GROUP BY type_id),
    -- Per x: the relations that can reach a y's type out and in, and the probes joining it to every y would take.
    v AS (SELECT x.*,
            ARRAY(SELECT DISTINCT t.r FROM t JOIN yt ON yt.type_id = t.tt WHERE t.st = x.type_id) AS outs,
            ARRAY(SELECT DISTINCT t.r FROM t JOIN yt ON yt.type_id = t.st WHERE t.tt = x.type_id) AS ins,
            (SELECT coalesce(sum(yt.n), 0) FROM t JOIN yt ON yt.type_id = t.tt WHERE t.st = x.type_id)
            + (SELECT coalesce(sum(yt.n), 0) FROM t JOIN yt ON yt.type_id = t.st WHERE t.tt = x.type_id) AS probes
          FROM x),
    w AS MATERIALIZED (SELECT v.*, ${probeAll ? 'false' : 'v.degree <= $7 * v.probes'} AS reads FROM v),
    cost AS (SELECT sum(CASE WHEN reads THEN degree ELSE $7 * probes END) AS cost FROM w),
    mid AS (
      SELECT w.id AS a, m.node AS b, m.type_id AS r2, m.fwd AS f2
        FROM w CROSS JOIN LATERAL (
          SELECT target_id AS node, type_id, true AS fwd FROM edge WHERE kb_id = $1 AND source_id = w.id AND type_id = ANY(w.outs)
          UNION ALL
          SELECT source_id, type_id, false FROM edge WHERE kb_id = $1 AND target_id = w.id AND type_id = ANY(w.ins)) m
       WHERE w.reads AND m.node <> w.id AND (m.node IN (SELECT id FROM y)) IS TRUE
      UNION ALL ${probe('w.id', 'y.id', true, 't.st')}
      UNION ALL ${probe('y.id', 'w.id', false, 't.tt')}),
    ${PATHS_FROM_MIDDLE}`;
}

/**
 * Middle edges (a–b, `f2` when stored a -> b) completed by the near end's edges to a and the far end's to b:
 * all of them (`paths`, only scanned to count, joined to the neighbour lists) and those of the first $5 middle
 * edges (`page`, at least $5 paths when more exist). The page looks its end edges up by key: joined to a hub's
 * neighbour list instead, the planner may loop over all of it once per middle edge (326,000 x 501 at MAG size).
 */
const PATHS_FROM_MIDDLE = `paths AS (
      SELECT m.a, m.b, s.type_id AS r1, s.fwd AS f1, m.r2, m.f2, o.type_id AS r3, o.fwd AS f3
        FROM mid m JOIN s ON s.node = m.a JOIN o ON o.node = m.b),
    page AS (
      SELECT m.a, m.b, s.type_id AS r1, s.fwd AS f1, m.r2, m.f2, o.type_id AS r3, o.fwd AS f3
        FROM (SELECT * FROM mid LIMIT $5) m
        CROSS JOIN LATERAL (${edgesToEnd('$2', 'm.a')}) s
        CROSS JOIN LATERAL (${edgesToEnd('$3', 'm.b')}) o)`;
