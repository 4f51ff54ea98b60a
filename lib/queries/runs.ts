import { AppError, badRequest, notFound } from '../errors';
import { auditSql, inTransaction, type Database, type Queryable } from '../db/transaction';
import { compareRuns, evaluateRun, unknownRunQueries, type EvalQuery, type Evaluation, type MetricMeans, type MetricValues, type RunComparison } from './metrics';
import { detectRunFormat, orderRun, parseRun, type RunFormat } from './run-files';
import { readQueries, type QuerySource } from './read';
import type { QueryRecord } from './types';
import { querySourceOf } from './releases';
import { answerBucket, BUILTIN_GROUPINGS, compareGroups, groupMeans, MAX_GROUP_KEY_LENGTH, METADATA_PREFIX, type GroupBy, type GroupComparison, type GroupedScore, type GroupMeans } from './run-groups';

/** Where a run is scored: the live set, or one of its releases (then `releaseId` is that release's). */
export interface RunTarget {
  setId: number;
  kbId: number;
  releaseId: number | null;
}

export interface RunSummary {
  id: number;
  name: string;
  fileName: string | null;
  format: string;
  baseline: boolean;
  release: number | null;
  status: 'RUNNING' | 'DONE' | 'FAILED';
  done: number;
  total: number;
  message: string | null;
  summary: { overall: MetricMeans; bySplit: (MetricMeans & { split: string | null })[] } | null;
  warnings: { file: string; line: number; reason: string }[];
  createdBy: string | null;
  createdAt: string;
}

const source = (t: RunTarget): QuerySource => (t.releaseId ? { releaseId: t.releaseId } : { setId: t.setId });

/** The set, or its release `number` when one is given, as a run is scored against it. */
export async function runTarget(db: Queryable, set: { id: number; kbId: number }, release: number | undefined): Promise<RunTarget> {
  const src = await querySourceOf(db, set.id, release);
  return { setId: set.id, kbId: set.kbId, releaseId: 'releaseId' in src ? src.releaseId : null };
}

/** A query as scoring sees it, with graded judgments when the set has them (TREC qrels). */
export function toEvalQuery(q: QueryRecord): EvalQuery {
  const judgments = Array.isArray(q.metadata.judgments) ? (q.metadata.judgments as { entity: string; grade: number }[]) : undefined;
  return { id: q.id, split: q.split, answers: q.answers, judgments };
}

/** The queries to score. */
export async function evalQueries(db: Queryable, target: RunTarget): Promise<EvalQuery[]> {
  const queries: EvalQuery[] = [];
  for await (const q of readQueries(db, source(target))) queries.push(toEvalQuery(q));
  return queries;
}

/** Stores a finished evaluation: the run's row (new, or the RUNNING one given) and one row per query. */
export async function storeEvaluation(db: Database, target: RunTarget, evaluation: Evaluation, run: { id?: number; name: string; fileName: string | null; format: string; baseline: boolean; warnings: unknown[]; userId: number | null }): Promise<number> {
  return inTransaction(db, async (client) => {
    const summary = JSON.stringify({ overall: evaluation.overall, bySplit: evaluation.bySplit });
    let id = run.id;
    if (id) {
      await client.query(`UPDATE eval_run SET status = 'DONE', summary = $2, warnings = $3, done = total WHERE id = $1`, [id, summary, JSON.stringify(run.warnings)]);
    } else {
      const { rows } = await client.query<{ id: number }>(
        `INSERT INTO eval_run (set_id, release_id, name, file_name, format, baseline, status, done, total, summary, warnings, created_by)
         VALUES ($1, $2, $3, $4, $5, $6, 'DONE', $7, $7, $8, $9, $10) RETURNING id`,
        [target.setId, target.releaseId, run.name, run.fileName, run.format, run.baseline, evaluation.perQuery.length, summary, JSON.stringify(run.warnings), run.userId]);
      id = rows[0]!.id;
    }
    for (let i = 0; i < evaluation.perQuery.length; i += 5000) {
      const rows = evaluation.perQuery.slice(i, i + 5000).map((q) => ({ query_id: q.id, split: q.split, retrieved: q.retrieved, metrics: q.metrics }));
      await client.query(
        `INSERT INTO eval_query (run_id, query_id, split, answer_count, retrieved, metrics)
         SELECT $1, x.query_id, x.split, cardinality(q.answer_ids), x.retrieved, coalesce(x.metrics, 'null'::jsonb)
           FROM jsonb_to_recordset($2::jsonb) AS x(query_id text, split text, retrieved int, metrics jsonb)
           JOIN ${target.releaseId ? 'release_query q ON q.release_id = $3' : 'query q ON q.set_id = $3'} AND q.external_id = x.query_id`,
        [id, JSON.stringify(rows), target.releaseId ?? target.setId]);
    }
    await auditSql(client, { userId: run.userId, action: 'queries.evaluate', targetType: 'eval_run', targetId: id, kbId: target.kbId, details: { name: run.name, baseline: run.baseline } });
    return id;
  });
}

/**
 * Scores an uploaded run file. A file with problems (malformed lines, repeated entities, query ids the set
 * does not have) is refused with every problem and its line; tied scores are kept as warnings.
 */
export async function evaluateRunFile(db: Database, target: RunTarget, file: { name: string; fileName: string; text: string; format?: RunFormat; userId: number | null }): Promise<number> {
  const firstLine = file.text.slice(0, 4096).split('\n').find((l) => l.trim()) ?? '';
  const format = file.format ?? detectRunFormat(file.fileName, firstLine);
  if (!format) throw badRequest(`${file.fileName}: cannot tell the run format; give it as trec, csv or jsonl`);
  const parsed = parseRun(file.text, file.fileName, format);
  if (parsed.issues.length) {
    throw new AppError(400, `${file.fileName}: ${parsed.issues.length} problem${parsed.issues.length > 1 ? 's' : ''}; the run was not scored. First: ${parsed.issues[0]}`, parsed.issues.map((i) => ({ file: i.file, line: i.line, reason: i.reason })));
  }
  const queries = await evalQueries(db, target);
  const unknown = unknownRunQueries(new Set(queries.map((q) => q.id)), parsed.run);
  if (unknown.length) {
    const issues = unknown.map((id) => ({ file: file.fileName, line: parsed.run.get(id)![0]?.line ?? 0, reason: `query ${id} is not in the query set` }));
    throw new AppError(400, `${file.fileName}: ${unknown.length} quer${unknown.length > 1 ? 'ies' : 'y'} not in the query set (first: ${unknown[0]} at line ${issues[0]!.line}); the run was not scored`, issues.slice(0, 100));
  }
  const evaluation = evaluateRun({ queries, run: orderRun(parsed.run) });
  const warnings = parsed.warnings.map((w) => ({ file: w.file, line: w.line, reason: w.reason }));
  return storeEvaluation(db, target, evaluation, { name: file.name || parsed.runName || file.fileName, fileName: file.fileName, format, baseline: false, warnings, userId: file.userId });
}

const SUMMARY = `SELECT r.id, r.name, r.file_name AS "fileName", r.format, r.baseline, rel.number AS release, r.status, r.done, r.total, r.message,
       r.summary, r.warnings, coalesce(u.name, u.email) AS "createdBy", r.created_at AS "createdAt"
  FROM eval_run r LEFT JOIN query_release rel ON rel.id = r.release_id LEFT JOIN app_user u ON u.id = r.created_by`;

export async function listRuns(db: Queryable, setId: number): Promise<RunSummary[]> {
  return (await db.query<RunSummary>(`${SUMMARY} WHERE r.set_id = $1 ORDER BY r.created_at DESC, r.id DESC`, [setId])).rows;
}

export async function getRun(db: Queryable, setId: number, runId: number): Promise<RunSummary> {
  const { rows } = await db.query<RunSummary>(`${SUMMARY} WHERE r.set_id = $1 AND r.id = $2`, [setId, runId]);
  if (!rows[0]) throw notFound(`No run ${runId} on this query set`);
  return rows[0];
}

export interface RunQueryRow {
  id: string;
  text: string;
  split: string | null;
  answers: number;
  retrieved: number;
  metrics: MetricValues | null;
}

export const RUN_QUERY_SORTS = ['position', 'mrr', 'hit1', 'hit5', 'recall20', 'map', 'p10', 'ndcg10'] as const;

/** A page of a run's per-query scores, in set order or by a metric (worst first, to find failures). */
export async function runQueries(db: Queryable, setId: number, runId: number, opts: { split?: string; sort: (typeof RUN_QUERY_SORTS)[number]; limit: number; offset: number }): Promise<{ total: number; items: RunQueryRow[] }> {
  const run = await db.query<{ release_id: number | null }>('SELECT release_id FROM eval_run WHERE id = $1 AND set_id = $2', [runId, setId]);
  if (!run.rows[0]) throw notFound(`No run ${runId} on this query set`);
  const releaseId = run.rows[0].release_id;
  // The sort key comes from a fixed list, so it can be spliced in.
  const order = opts.sort === 'position' ? 'e.position' : `(e.metrics->>'${opts.sort}')::float8 NULLS LAST, e.position`;
  const { rows } = await db.query<{ total: string; items: RunQueryRow[] }>(
    `WITH m AS (SELECT e.*, q.text, q.position FROM eval_query e
                  JOIN ${releaseId ? 'release_query q ON q.release_id = $4' : 'query q ON q.set_id = $4'} AND q.external_id = e.query_id
                 WHERE e.run_id = $1 AND ($2::text IS NULL OR e.split = $2))
     SELECT (SELECT count(*) FROM m) AS total,
            (SELECT coalesce(json_agg(json_build_object('id', query_id, 'text', text, 'split', split, 'answers', answer_count, 'retrieved', retrieved,
                       'metrics', CASE WHEN jsonb_typeof(metrics) = 'null' THEN NULL ELSE metrics END)), '[]')
               FROM (SELECT * FROM m e ORDER BY ${order} LIMIT $3 OFFSET $5) p) AS items`,
    [runId, opts.split ?? null, opts.limit, releaseId ?? setId, opts.offset]);
  return { total: Number(rows[0]!.total), items: rows[0]!.items };
}

async function storedEvaluation(db: Queryable, setId: number, runId: number): Promise<Evaluation & { run: RunSummary }> {
  const run = await getRun(db, setId, runId);
  if (run.status !== 'DONE' || !run.summary) throw badRequest(`Run ${runId} is not scored yet`);
  const { rows } = await db.query<{ id: string; split: string | null; retrieved: number; metrics: MetricValues | null }>(
    `SELECT query_id AS id, split, retrieved, CASE WHEN jsonb_typeof(metrics) = 'null' THEN NULL ELSE metrics END AS metrics FROM eval_query WHERE run_id = $1`, [runId]);
  return { run, perQuery: rows, overall: run.summary.overall, bySplit: run.summary.bySplit };
}

/** What a run's queries can be grouped by, and its groups under one grouping. */
export interface RunGrouping<G> {
  by: GroupBy;
  /** The metadata keys offered: top-level, with a text or number value on at least one query. */
  keys: string[];
  groups: G[];
}

/** The run's queries with their metadata (from the release it was scored on) and the set's origin. */
const RUN_METADATA = `WITH m AS (
  SELECT e.query_id, e.split, e.answer_count, e.retrieved, e.metrics, coalesce(q.metadata, rq.metadata, '{}'::jsonb) AS metadata, lower(s.origin::text) AS origin
    FROM eval_run r JOIN query_set s ON s.id = r.set_id JOIN eval_query e ON e.run_id = r.id
    LEFT JOIN query q ON r.release_id IS NULL AND q.set_id = r.set_id AND q.external_id = e.query_id
    LEFT JOIN release_query rq ON rq.release_id = r.release_id AND rq.external_id = e.query_id
   WHERE r.id = $1 AND r.set_id = $2)`;

/** A JSON value as a group label: text and numbers only (objects, lists, booleans and null have none). */
const label = (json: string) => `CASE WHEN jsonb_typeof(${json}) IN ('string', 'number') THEN ${json} #>> '{}' END`;

/**
 * Each query of a scored run with its value under `by`. A query's `origin` is its metadata's `origin` when it
 * has one, else the set's. A metadata key no query has (as text or a number) is refused, naming the keys there are.
 */
async function groupedScores(db: Queryable, setId: number, runId: number, by: GroupBy): Promise<{ keys: string[]; rows: GroupedScore[] }> {
  const { rows: keyRows } = await db.query<{ key: string }>(
    `${RUN_METADATA} SELECT DISTINCT k.key FROM m CROSS JOIN LATERAL jsonb_each(m.metadata) k
      WHERE jsonb_typeof(k.value) IN ('string', 'number') AND length(k.key) <= ${MAX_GROUP_KEY_LENGTH} ORDER BY k.key`, [runId, setId]);
  const keys = keyRows.map((r) => r.key);
  const key = by.startsWith(METADATA_PREFIX) ? by.slice(METADATA_PREFIX.length) : null;
  if (key !== null && !keys.includes(key)) {
    throw badRequest(`Invalid query: groupBy: no query has the metadata field "${key}" as text or a number; group by ${[...BUILTIN_GROUPINGS, ...keys.map((k) => METADATA_PREFIX + k)].join(', ')}`);
  }
  const value = by === 'split' ? 'split' : by === 'origin' ? `coalesce(${label(`metadata->'origin'`)}, origin)` : key !== null ? label('metadata->$3') : 'NULL';
  const { rows } = await db.query<GroupedScore & { answers: number }>(
    `${RUN_METADATA} SELECT query_id AS id, ${value} AS value, answer_count AS answers, retrieved,
            CASE WHEN jsonb_typeof(metrics) = 'null' THEN NULL ELSE metrics END AS metrics FROM m`, key !== null ? [runId, setId, key] : [runId, setId]);
  return { keys, rows: by === 'answers' ? rows.map((r) => ({ ...r, value: answerBucket(r.answers) })) : rows };
}

/** A scored run's metrics per group of its queries, from the stored per-query scores. */
export async function runGroups(db: Queryable, setId: number, runId: number, by: GroupBy): Promise<RunGrouping<GroupMeans>> {
  const run = await getRun(db, setId, runId);
  if (run.status !== 'DONE') throw badRequest(`Run ${runId} is not scored yet`);
  const { keys, rows } = await groupedScores(db, setId, runId, by);
  return { by, keys, groups: groupMeans(by, rows) };
}

/**
 * Two scored runs of the same queries side by side, with a paired randomization test per metric, and when
 * `groupBy` is given the same per group (without the test); groups follow run A's queries.
 */
export async function compareStoredRuns(db: Queryable, setId: number, a: number, b: number, groupBy?: GroupBy): Promise<RunComparison & { a: RunSummary; b: RunSummary; grouping?: RunGrouping<GroupComparison> }> {
  const [ea, eb] = await Promise.all([storedEvaluation(db, setId, a), storedEvaluation(db, setId, b)]);
  let comparison: RunComparison;
  try {
    comparison = compareRuns(ea, eb);
  } catch (err) {
    throw badRequest(`Runs ${a} and ${b} cannot be compared: ${(err as Error).message}`);
  }
  if (!groupBy) return { ...comparison, a: ea.run, b: eb.run };
  const { keys, rows } = await groupedScores(db, setId, a, groupBy);
  const groups = compareGroups(groupBy, rows, new Map(eb.perQuery.map((q) => [q.id, q.metrics])));
  return { ...comparison, a: ea.run, b: eb.run, grouping: { by: groupBy, keys, groups } };
}

export async function deleteRun(db: Database, target: RunTarget, runId: number, userId: number | null): Promise<void> {
  await inTransaction(db, async (client) => {
    const { rowCount } = await client.query('DELETE FROM eval_run WHERE id = $1 AND set_id = $2', [runId, target.setId]);
    if (!rowCount) throw notFound(`No run ${runId} on this query set`);
    await auditSql(client, { userId, action: 'queries.delete_run', targetType: 'eval_run', targetId: runId, kbId: target.kbId });
  });
}
