import type { Queryable } from '../db/transaction';
import type { QuerySource } from './read';
import { compareSplits } from './set-stats';

/** The share of a group's scored queries a baseline solves: its first answer at rank 1 (Hit@1), in the top 5 (Hit@5). */
export interface SolvedShare {
  /** Queries the run scored (queries without answers have no score and are left out). */
  queries: number;
  hit1: number;
  hit5: number;
}

/** How hard the set is for one baseline: its latest finished run, overall, per split and per origin. */
export interface BaselineDifficulty {
  run: { id: number; name: string; createdAt: string };
  overall: SolvedShare;
  bySplit: (SolvedShare & { split: string | null })[];
  /** A query's origin is its metadata's `origin` when it has one, else its set's (human, synthesized, imported). */
  byOrigin: (SolvedShare & { origin: string })[];
}

interface Row {
  runId: number;
  name: string;
  createdAt: string;
  grouping: 'all' | 'split' | 'origin';
  split: string | null;
  origin: string | null;
  queries: number;
  hit1: number;
  hit5: number;
}

/**
 * The difficulty distribution of a set (or release): for each baseline (runs the product scored itself, one
 * per run name, the latest finished one), the share of queries solved at Hit@1 and Hit@5. Read from the runs'
 * stored per-query scores in one statement; a set never run against a baseline has none.
 */
export async function difficultyDistribution(db: Queryable, source: QuerySource): Promise<BaselineDifficulty[]> {
  const release = 'releaseId' in source;
  const { rows } = await db.query<Row>(
    `WITH runs AS (
       SELECT DISTINCT ON (r.name) r.id, r.name, r.created_at, s.origin
         FROM eval_run r JOIN query_set s ON s.id = r.set_id
        WHERE r.baseline AND r.status = 'DONE' AND ${release ? 'r.release_id = $1' : 'r.set_id = $1 AND r.release_id IS NULL'}
        ORDER BY r.name, r.created_at DESC, r.id DESC),
     scored AS (
       SELECT r.id AS run_id, r.name, r.created_at, e.split, (e.metrics->>'hit1')::float8 AS hit1, (e.metrics->>'hit5')::float8 AS hit5,
              coalesce(CASE WHEN jsonb_typeof(q.metadata->'origin') IN ('string', 'number') THEN q.metadata->>'origin' END, lower(r.origin::text)) AS origin
         FROM runs r JOIN eval_query e ON e.run_id = r.id
         JOIN ${release ? 'release_query q ON q.release_id = $1' : 'query q ON q.set_id = $1'} AND q.external_id = e.query_id
        WHERE jsonb_typeof(e.metrics) = 'object')
     SELECT run_id AS "runId", name, created_at AS "createdAt",
            CASE WHEN GROUPING(split) = 0 THEN 'split' WHEN GROUPING(origin) = 0 THEN 'origin' ELSE 'all' END AS grouping,
            split, origin, count(*)::int AS queries, sum(hit1) / count(*) AS hit1, sum(hit5) / count(*) AS hit5
       FROM scored
      GROUP BY GROUPING SETS ((run_id, name, created_at), (run_id, name, created_at, split), (run_id, name, created_at, origin))
      ORDER BY name`,
    ['releaseId' in source ? source.releaseId : source.setId]);
  const byRun = new Map<number, BaselineDifficulty>();
  for (const r of rows) {
    let b = byRun.get(r.runId);
    if (!b) byRun.set(r.runId, (b = { run: { id: r.runId, name: r.name, createdAt: r.createdAt }, overall: { queries: 0, hit1: 0, hit5: 0 }, bySplit: [], byOrigin: [] }));
    const share = { queries: r.queries, hit1: r.hit1, hit5: r.hit5 };
    if (r.grouping === 'all') b.overall = share;
    else if (r.grouping === 'split') b.bySplit.push({ split: r.split, ...share });
    else b.byOrigin.push({ origin: r.origin!, ...share });
  }
  const result = [...byRun.values()];
  for (const b of result) {
    b.bySplit.sort((x, y) => compareSplits(x.split, y.split));
    b.byOrigin.sort((x, y) => (x.origin < y.origin ? -1 : x.origin > y.origin ? 1 : 0));
  }
  return result;
}
