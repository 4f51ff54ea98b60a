import { badRequest, notFound } from '../errors';
import { Params } from '../db/params';
import { inTransaction, type Database, type Queryable } from '../db/transaction';
import type { Direction } from './entity';
import { buildIndexInBackground, currentIndex, type Bm25Index } from '../retrieval/bm25-index';
import { MAX_STEPS, type SchemaTriple } from './metapath-moves';
import { inSet, SET_WORK_MEM } from './metapath-set-test';
import { textPage } from './metapath-text';
import { groupCountsSql } from './hub-counts';
import type { StepCount } from './metapath-count';

export { WALK_EDGE_BUDGET, type StepCount } from './metapath-count';
export { MAX_STEPS, movesFrom, type MetapathMove, type SchemaTriple } from './metapath-moves';

export interface MetapathSchema {
  types: { name: string; entityCount: number }[];
  relations: string[];
  triples: SchemaTriple[];
}

export interface MetapathStep {
  relation: string;
  direction: Direction;
  targetType: string;
}

/** Where a metapath starts: one entity, or every entity of a type. */
export type MetapathStart = { entity: number } | { type: string };

export interface Metapath {
  start: MetapathStart;
  steps: MetapathStep[];
}

export interface MetapathOptions {
  limit: number;
  offset: number;
  /**
   * Text filter on the final reachable set, read as explorer search reads a query (any word, or strict
   * syntax); ranks the set by BM25 as search does.
   */
  q?: string;
  /**
   * Orders the whole reachable set by BM25 over any of this text's words, then degree, without filtering:
   * how answer candidates are put before an author. Ignored with `q`.
   */
  relevance?: string;
  /** Entities to count in the final set (`among`), e.g. the candidates already judged. */
  countAmong?: number[];
  /** Entities left out of the final set, e.g. the seed the author's query is about, which is an answer by design. */
  exclude?: number[];
  /** Where a missing ranking index is built when `db` is a read replica, which cannot write: the primary. Default `db`. */
  primary?: Database;
  /**
   * Bounds the walk: each step reads at most this many edges (see WALK_EDGE_BUDGET). A step that stops early,
   * or follows one that did, reaches a subset of its true set, so its count is a lower bound (`atLeast`); the
   * page then lists entities of that subset. Without it every count is exact, at any cost.
   */
  walkBudget?: number;
}

export interface ReachableEntity {
  id: number;
  name: string;
  type: string;
  degree: number;
  /** Only with `q`: fragments of the text around the matches, between MATCH_START and MATCH_END. */
  snippet?: string;
  /** With `q` or `relevance`: the BM25 score (0 when no word occurs; ts_rank while the ranking index is built). */
  score?: number;
  /** With `q` or `relevance`: how many of the text's words the entity contains (not while the index is built). */
  covered?: number;
}

export interface BranchResult {
  /** Entities the branch starts from (1 for an entity start). */
  start: number;
  steps: StepCount[];
}

export interface MetapathResult extends BranchResult {
  /** Size of the final reachable set, after the `q` filter when one is given. */
  total: number;
  /** Set when `total` is a lower bound (a bounded walk stopped early). */
  totalAtLeast?: true;
  items: ReachableEntity[];
}

export interface MetapathsResult {
  branches: BranchResult[];
  /** Entities every branch reaches (after the `q` filter when one is given). */
  total: number;
  /** Set when `total` is a lower bound: a branch's bounded walk stopped early. */
  totalAtLeast?: true;
  /** With `countAmong`: how many of those entities the final set holds. */
  among?: number;
  /** With `q` or `relevance`: `bm25`, or `fulltext` while the ranking index is being built. */
  ranking?: 'bm25' | 'fulltext';
  /** With `q` or `relevance`: the words `covered` counts. */
  words?: string[];
  items: ReachableEntity[];
}

export async function metapathSchema(db: Queryable, kbId: number): Promise<MetapathSchema> {
  const [types, relations, triples] = await Promise.all([
    db.query<{ name: string; entityCount: number }>(
      `SELECT name, entity_count AS "entityCount" FROM node_type WHERE kb_id = $1 ORDER BY name`, [kbId]),
    db.query<{ name: string }>(`SELECT name FROM edge_type WHERE kb_id = $1 ORDER BY name`, [kbId]),
    db.query<{ sourceType: string; relation: string; targetType: string; edgeCount: string }>(
      `SELECT s.name AS "sourceType", r.name AS relation, t.name AS "targetType", st.edge_count AS "edgeCount"
         FROM schema_triple st
         JOIN node_type s ON s.id = st.source_type_id
         JOIN edge_type r ON r.id = st.edge_type_id
         JOIN node_type t ON t.id = st.target_type_id
        WHERE st.kb_id = $1
        ORDER BY s.name, r.name, t.name`, [kbId]),
  ]);
  return {
    types: types.rows,
    relations: relations.rows.map((r) => r.name),
    triples: triples.rows.map((t) => ({ ...t, edgeCount: Number(t.edgeCount) })),
  };
}

/** The knowledge base's type and relation ids and its triples, to turn a metapath's names into ids. */
interface IdSchema {
  typeIds: Map<string, number>;
  typeNames: Map<number, string>;
  typeSizes: Map<number, number>;
  /** "sourceTypeId:relationId:targetTypeId" -> edge count. */
  tripleEdges: Map<string, number>;
  relationIds: Map<string, number>;
  /** "sourceTypeId:relationId" -> the target type ids of those edges. */
  targetsOf: Map<string, Set<number>>;
  /** "targetTypeId:relationId" -> the source type ids of those edges. */
  sourcesOf: Map<string, Set<number>>;
}

async function loadIdSchema(db: Queryable, kbId: number): Promise<IdSchema> {
  const [types, relations, triples] = await Promise.all([
    db.query<{ id: number; name: string; size: number }>(`SELECT id, name, entity_count AS size FROM node_type WHERE kb_id = $1`, [kbId]),
    db.query<{ id: number; name: string }>(`SELECT id, name FROM edge_type WHERE kb_id = $1`, [kbId]),
    db.query<{ s: number; r: number; t: number; n: string }>(
      `SELECT source_type_id AS s, edge_type_id AS r, target_type_id AS t, edge_count AS n FROM schema_triple WHERE kb_id = $1`, [kbId]),
  ]);
  const targetsOf = new Map<string, Set<number>>();
  const sourcesOf = new Map<string, Set<number>>();
  const add = (m: Map<string, Set<number>>, key: string, v: number) => m.set(key, (m.get(key) ?? new Set()).add(v));
  for (const { s, r, t } of triples.rows) {
    add(targetsOf, `${s}:${r}`, t);
    add(sourcesOf, `${t}:${r}`, s);
  }
  return {
    typeIds: new Map(types.rows.map((t) => [t.name, t.id])),
    typeNames: new Map(types.rows.map((t) => [t.id, t.name])),
    typeSizes: new Map(types.rows.map((t) => [t.id, t.size])),
    tripleEdges: new Map(triples.rows.map((t) => [`${t.s}:${t.r}:${t.t}`, Number(t.n)])),
    relationIds: new Map(relations.rows.map((r) => [r.name, r.id])),
    targetsOf,
    sourcesOf,
  };
}

/** A step with names resolved to ids; `checkType` is false when the schema says every such edge lands on the type. */
interface ResolvedStep {
  relationId: number;
  direction: Direction;
  typeId: number;
  checkType: boolean;
  /** Entities of the type walked from and of the type reached, and the edges between them (for the plan choice). */
  fromSize: number;
  toSize: number;
  edges: number;
}

interface ResolvedPath {
  start: { entity: number } | { typeId: number };
  steps: ResolvedStep[];
  finalTypeId: number;
}

async function resolvePath(db: Queryable, kbId: number, schema: IdSchema, path: Metapath, label: string): Promise<ResolvedPath> {
  if (path.steps.length < 1 || path.steps.length > MAX_STEPS) {
    throw badRequest(`${label}steps: a metapath has 1 to ${MAX_STEPS} steps (got ${path.steps.length})`);
  }
  let start: ResolvedPath['start'];
  let typeId: number;
  if ('entity' in path.start) {
    const { rows } = await db.query<{ type_id: number }>(
      `SELECT type_id FROM entity WHERE kb_id = $1 AND id = $2`, [kbId, path.start.entity]);
    if (!rows[0]) throw notFound(`${label}start: no entity ${path.start.entity} in this knowledge base`);
    start = { entity: path.start.entity };
    typeId = rows[0].type_id;
  } else {
    const id = schema.typeIds.get(path.start.type);
    if (id === undefined) throw badRequest(`${label}start.type: unknown entity type "${path.start.type}"`);
    start = { typeId: id };
    typeId = id;
  }
  const steps = path.steps.map((step, i) => {
    const where = `${label}steps[${i}]`;
    const relationId = schema.relationIds.get(step.relation);
    if (relationId === undefined) throw badRequest(`${where}.relation: unknown relation "${step.relation}"`);
    const nextId = schema.typeIds.get(step.targetType);
    if (nextId === undefined) throw badRequest(`${where}.targetType: unknown entity type "${step.targetType}"`);
    const reachable = (step.direction === 'out' ? schema.targetsOf : schema.sourcesOf).get(`${typeId}:${relationId}`) ?? new Set<number>();
    if (!reachable.has(nextId)) {
      const from = schema.typeNames.get(typeId);
      throw badRequest(step.direction === 'out'
        ? `${where}: no "${step.relation}" edges lead from ${from} to ${step.targetType}`
        : `${where}: no "${step.relation}" edges lead from ${step.targetType} to ${from} (walked backwards)`);
    }
    const edges = schema.tripleEdges.get(step.direction === 'out' ? `${typeId}:${relationId}:${nextId}` : `${nextId}:${relationId}:${typeId}`) ?? 0;
    const fromSize = schema.typeSizes.get(typeId) ?? 0;
    typeId = nextId;
    return { relationId, direction: step.direction, typeId: nextId, checkType: reachable.size > 1, fromSize, toSize: schema.typeSizes.get(nextId) ?? 0, edges };
  });
  return { start, steps, finalTypeId: typeId };
}

/**
 * The CTEs of one branch, `<prefix>0` (the start set) to `<prefix>N`, each MATERIALIZED: a deduplicated set the
 * next step and the counts share. A step reaches the entities one edge away from the previous set, by one of
 * two plans, chosen at run time from the previous set's size (a one-time filter gates each side of the
 * UNION ALL, so only one runs):
 * - forwards: read the set's edges of the relation (outgoing through the primary key (kb_id, source_id,
 *   type_id, target_id), incoming through edge_target_idx (kb_id, target_id, type_id, source_id)), DISTINCT,
 *   then check the type when the relation leads to several. Costs the set's edges: right for a small set,
 *   a hub's 100k edges included. With a walk budget the edges are read into `<prefix>Nw` first, at most
 *   budget + 1 of them from at most `budget` members: more edges, or more members, means the step stopped early.
 * - backwards: for each entity of the target type, probe its edges of the relation through the other index
 *   and stop at the first one leading into the set (LIMIT 1, the set hashed once). About one probe per
 *   candidate: right when the set is large, where forwards would read millions of edges. Never cut short,
 *   so with a budget it runs only where it costs less than the budget.
 * Sets hold ids only: candidates and type checks are read from entity_kb_id_type_id_id_idx alone.
 * Also returns, per step, an SQL boolean that is true when the step's set is a subset (a bounded walk stopped).
 */
function branchCtes(path: ResolvedPath, prefix: string, kb: string, p: Params, budget: number | undefined): { ctes: string[]; partial: string[] } {
  const ctes = ['entity' in path.start
    ? `${prefix}0 AS MATERIALIZED (SELECT ${p.add(path.start.entity)}::int AS id)`
    // entity_kb_id_type_id_degree_idx serves a whole-type start.
    : `${prefix}0 AS MATERIALIZED (SELECT id FROM entity WHERE kb_id = ${kb} AND type_id = ${p.add(path.start.typeId)})`];
  const partial: string[] = [];
  path.steps.forEach((step, i) => {
    const prev = `${prefix}${i}`;
    const [near, far] = step.direction === 'out' ? ['source_id', 'target_id'] : ['target_id', 'source_id'];
    const relation = p.add(step.relationId);
    const type = p.add(step.typeId);
    // The previous set's size, counted once for the plan choices below.
    ctes.push(`${prev}n AS MATERIALIZED (SELECT count(*) AS n FROM ${prev})`);
    const backwards = backwardsCondition(step, `(SELECT n FROM ${prev}n)`, p, budget);
    const edgesOf = (set: string) => `SELECT e.${far} AS id FROM ${set} prev
         JOIN edge e ON e.kb_id = ${kb} AND e.${near} = prev.id AND e.type_id = ${relation}`;
    // One entity's edges of a relation lead to distinct entities (the edge key is unique).
    const distinct = i === 0 && 'entity' in path.start ? '' : 'DISTINCT';
    let reached: string;
    if (budget === undefined) {
      reached = `SELECT ${distinct} d.id FROM (${edgesOf(prev)}) d`;
    } else {
      // At most `budget` members are walked too: each costs an index descent, with or without edges.
      const walked = `${prefix}${i + 1}w`;
      const max = p.add(budget);
      ctes.push(`${walked} AS MATERIALIZED (${edgesOf(`(SELECT id FROM ${prev} LIMIT ${max})`)} WHERE NOT ${backwards} LIMIT ${max} + 1)`);
      reached = `SELECT ${distinct} id FROM ${walked}`;
      const stopped = `((SELECT count(*) FROM ${walked}) > ${max} OR (SELECT n FROM ${prev}n) > ${max})`;
      partial.push(i === 0 ? stopped : `(${partial[i - 1]} OR ${stopped})`);
    }
    const forwards = step.checkType
      ? `SELECT n.id FROM (${reached}) d
         JOIN entity n ON n.kb_id = ${kb} AND n.type_id = ${type} AND n.id = d.id`
      : `SELECT n.id FROM (${reached}) n`;
    ctes.push(`${prefix}${i + 1} AS MATERIALIZED (
       ${forwards}
        WHERE NOT ${backwards}
       UNION ALL
       SELECT n.id FROM entity n
        CROSS JOIN LATERAL (
          -- IS TRUE keeps the IN a hashed subplan tested per edge, so LIMIT 1 can stop at the first hit.
          SELECT 1 FROM edge e WHERE e.kb_id = ${kb} AND e.${far} = n.id AND e.type_id = ${relation}
             AND ${inSet(`e.${near}`, prev, `(SELECT n FROM ${prev}n)`)} IS TRUE LIMIT 1) hit
        WHERE n.kb_id = ${kb} AND n.type_id = ${type} AND ${backwards})`);
  });
  // The final set's size, counted once for the counts and the intersection's set tests.
  ctes.push(`${prefix}${path.steps.length}n AS MATERIALIZED (SELECT count(*) AS n FROM ${prefix}${path.steps.length})`);
  return { ctes, partial };
}

/**
 * Whether probing backwards is cheaper, in index entries read: forwards costs a descent (~10 entries) plus the
 * average degree per set member, at most about twice the walk budget when there is one; backwards costs, per
 * candidate, its fetch and descent (~20) plus the entries scanned before a hit, about (walked-from type size /
 * set size), at most its average degree.
 */
function backwardsCondition(step: ResolvedStep, setSize: string, p: Params, budget: number | undefined): string {
  const outDegree = step.edges / Math.max(1, step.fromSize);
  const inDegree = step.edges / Math.max(1, step.toSize);
  const forwards = `${setSize} * ${p.add(10 + outDegree)}::float8`;
  const bounded = budget === undefined ? forwards : `LEAST(${forwards}, ${p.add(2 * budget)}::float8)`;
  return `(${bounded} > ${p.add(step.toSize)}::float8 * (20 + LEAST(${p.add(inDegree)}::float8, ${p.add(step.fromSize)}::float8 / GREATEST(${setSize}, 1))))`;
}

/**
 * Runs `fn` in a read-only transaction, where it sets its planner settings with SET LOCAL. JIT compilation is
 * off in every app session (lib/db/session): these plans carry large cost estimates (for the side that does
 * not run, too), which would otherwise trigger hundreds of milliseconds of it for queries that take tens.
 */
export async function readTransaction<T>(db: Database, fn: (client: Queryable) => Promise<T>): Promise<T> {
  return inTransaction(db, fn, 'READ COMMITTED', 'READ ONLY');
}

/**
 * Counts per branch and step, the final set's size and one page of it, in one statement. The page is
 * ordered by degree then name, or by text (`q`, `relevance`; see textPage) ranked with the `index`.
 */
async function evaluate(db: Queryable, kbId: number, paths: ResolvedPath[], finalType: { id: number; name: string; size: number }, opts: MetapathOptions, index: Bm25Index | null): Promise<MetapathsResult> {
  const p = new Params();
  const kb = p.add(kbId);
  const prefixes = paths.map((_, i) => `b${i}_`);
  const branches = paths.map((path, i) => branchCtes(path, prefixes[i]!, kb, p, opts.walkBudget));
  const ctes = branches.flatMap((b) => b.ctes);
  const last = paths.map((path, i) => `${prefixes[i]}${path.steps.length}`);
  // The intersection: the first branch's final set, kept where every other branch reaches it too.
  const others = last.slice(1).map((l) => `${inSet('id', l, `(SELECT n FROM ${l}n)`)} IS TRUE`);
  if (opts.exclude?.length) others.push(`id <> ALL(${p.add(opts.exclude)}::int[])`);
  ctes.push(`reach AS MATERIALIZED (SELECT id FROM ${last[0]}${others.length ? ` WHERE ${others.join(' AND ')}` : ''})`);

  const limit = p.add(opts.limit);
  const offset = p.add(opts.offset);
  const text = await textPage(db, index, opts, p, kb, limit, offset);
  let page: string;
  if (text) {
    ctes.push(...text.ctes);
    page = text.page;
  } else {
    ctes.push(`hits AS (SELECT id FROM reach)`, `reachn AS MATERIALIZED (SELECT count(*) AS n FROM reach)`);
    page = degreePage(kb, p.add(finalType.id), p.add(finalType.size), limit, offset);
  }
  const counts = paths.flatMap((path, b) => Array.from({ length: path.steps.length + 1 },
    (_, s) => `(SELECT n FROM ${prefixes[b]}${s}n)`));
  const partial = branches.flatMap((b) => b.partial);

  const sql = `WITH ${ctes.join(',\n')}
    SELECT json_build_array(${counts.join(', ')}) AS counts,
           json_build_array(${partial.join(', ')}) AS partial,
           (SELECT count(*) FROM hits) AS total,
           ${opts.countAmong ? `(SELECT count(*) FROM reach WHERE id = ANY(${p.add(opts.countAmong)}::int[]))` : 'NULL'} AS among,
           (SELECT coalesce(json_agg(pg), '[]') FROM (${page}) pg) AS items`;
  const { rows } = await db.query<{ counts: (number | string)[]; partial: boolean[]; total: string; among: string | null; items: Omit<ReachableEntity, 'type'>[] }>(sql, p.values);
  const row = rows[0]!;
  const all = row.counts.map(Number);
  let at = 0;
  let flagAt = 0;
  const result = paths.map((path) => {
    const c = all.slice(at, at + path.steps.length + 1);
    at += path.steps.length + 1;
    const stopped = opts.walkBudget === undefined ? [] : row.partial.slice(flagAt, flagAt += path.steps.length);
    return {
      start: c[0]!,
      steps: c.slice(1).map((reached, i): StepCount => (stopped[i] ? { reached, atLeast: true } : { reached })),
    };
  });
  // A subset of any branch's final set gives a subset of the intersection.
  const totalAtLeast = result.some((b) => b.steps.at(-1)!.atLeast);
  await countFirstStepsExactly(db, kbId, paths, result);
  return {
    branches: result,
    total: Number(row.total),
    ...(totalAtLeast ? { totalAtLeast: true as const } : {}),
    ...(row.among === null ? {} : { among: Number(row.among) }),
    items: row.items.map((it) => ({ ...it, type: finalType.name })),
    ...(text ? { ranking: index ? 'bm25' as const : 'fulltext' as const, words: text.words } : {}),
  };
}

/**
 * What fetching and sorting one entity row costs, in index entries walked: about 10 where the rows are cached
 * (Prime size: with 1, sets of 1,000-1,600 were sorted where walking was 35% faster), and more where they are not.
 */
export const INDEX_ENTRIES_PER_ROW = 10;

/**
 * A page of the reached set by degree then name, by one of two plans chosen at run time (one-time filters):
 * walk the final type's entities by degree in the search table's index (entity_search (kb_id, type_id,
 * degree DESC, id), index only), keeping those reached, which reads about (type size / set size) index entries
 * per row of the page, then read the rows of the page's degrees only; or, when that costs more than the set
 * itself, fetch the set's entities and sort them. Walking the entity table's degree index instead fetched every
 * entry's row to test it: at Amazon size about 1,050 heap pages of a 10 GB table for a page of 20 among 9,892
 * products (150 ms and more); index only, 7 ms.
 */
function degreePage(kb: string, type: string, typeSize: string, limit: string, offset: string): string {
  const walk = `(SELECT n FROM reachn)::float8 * (SELECT n FROM reachn) * ${INDEX_ENTRIES_PER_ROW} > ${typeSize}::float8 * (${limit}::int + ${offset}::int)`;
  return `(SELECT n.id, n.name, n.degree FROM (
             SELECT s.id FROM entity_search s
              WHERE s.kb_id = ${kb} AND s.type_id = ${type} AND ${inSet('s.id', 'reach', '(SELECT n FROM reachn)')} IS TRUE AND ${walk}
              ORDER BY s.degree DESC FETCH FIRST (${limit}::int + ${offset}::int) ROWS WITH TIES) w
             JOIN entity n ON n.kb_id = ${kb} AND n.id = w.id
             ORDER BY n.degree DESC, n.name, n.id LIMIT ${limit} OFFSET ${offset})
          UNION ALL
          -- OFFSET 0 fences the join from the ORDER BY: otherwise the planner walks every entity in page order.
          (SELECT * FROM (SELECT n.id, n.name, n.degree FROM reach r JOIN entity n ON n.kb_id = ${kb} AND n.id = r.id
                           WHERE NOT ${walk} OFFSET 0) n
             ORDER BY n.degree DESC, n.name, n.id LIMIT ${limit} OFFSET ${offset})`;
}

/**
 * A first step from one entity that a bounded walk cut short is still counted exactly when every edge of its
 * relation lands on its type: the entity's edge count for the relation (stored for hubs, see hub-counts.ts).
 */
async function countFirstStepsExactly(db: Queryable, kbId: number, paths: ResolvedPath[], branches: BranchResult[]): Promise<void> {
  for (const [i, path] of paths.entries()) {
    const first = path.steps[0]!;
    const count = branches[i]!.steps[0]!;
    if (!count.atLeast || !('entity' in path.start) || first.checkType) continue;
    const { rows } = await db.query<{ count: number | string }>(
      `SELECT c.count FROM (${groupCountsSql([first.direction])}) c`, [kbId, [path.start.entity], [first.relationId]]);
    branches[i]!.steps[0] = { reached: Number(rows[0]?.count ?? 0) };
  }
}

/** The distinct entities a metapath reaches after each step, and a page of the final set. */
export async function evaluateMetapath(db: Database, kbId: number, path: Metapath, opts: MetapathOptions): Promise<MetapathResult> {
  const { branches, total, totalAtLeast, items } = await evaluateMetapaths(db, kbId, [path], opts, '');
  return { ...branches[0]!, total, ...(totalAtLeast ? { totalAtLeast } : {}), items };
}

/**
 * Several metapaths meeting at one entity (STaRK's two-branch templates): the entities every branch reaches,
 * with each branch's own step counts. All branches must end at the same type.
 */
export async function evaluateMetapaths(db: Database, kbId: number, paths: Metapath[], opts: MetapathOptions, labelPrefix = 'paths'): Promise<MetapathsResult> {
  if (paths.length < 1 || paths.length > 3) throw badRequest(`paths: give 1 to 3 branches (got ${paths.length})`);
  const label = (i: number) => (labelPrefix ? `${labelPrefix}[${i}].` : '');
  const schema = await loadIdSchema(db, kbId);
  const resolved: ResolvedPath[] = [];
  for (const [i, path] of paths.entries()) resolved.push(await resolvePath(db, kbId, schema, path, label(i)));
  const finalType = resolved[0]!.finalTypeId;
  for (const [i, r] of resolved.entries()) {
    if (r.finalTypeId !== finalType) {
      throw badRequest(`${label(i)}steps: ends at ${schema.typeNames.get(r.finalTypeId)}, but the first path ends at ${schema.typeNames.get(finalType)}; paths must meet at one type`);
    }
  }
  const ranked = Boolean(opts.q?.trim() || opts.relevance?.trim());
  const index = ranked ? await currentIndex(db, kbId, false) : null;
  if (ranked && !index) buildIndexInBackground(opts.primary ?? db, kbId);
  return readTransaction(db, async (client) => {
    // The planner cannot see how small a step's set is (it guesses thousands for a hub's 20 neighbours) and
    // then merge- or hash-joins whole relations; the step plans are written as index walks, so keep them so.
    await client.query('SET LOCAL enable_mergejoin = off');
    await client.query('SET LOCAL enable_hashjoin = off');
    // The `IN (SELECT id FROM set)` tests must be hashed subplans. PostgreSQL hashes one only when the set's
    // estimated size fits work_mem x hash_mem_multiplier; at MAG size the estimates run to hundreds of thousands of
    // ids (over 8 MB at the default 4 MB), and each tested row then scanned the whole set: 1.5 s for one page.
    await client.query(`SET LOCAL work_mem = '${SET_WORK_MEM}'`);
    return evaluate(client, kbId, resolved, { id: finalType, name: schema.typeNames.get(finalType)!, size: schema.typeSizes.get(finalType) ?? 0 }, opts, index);
  });
}
