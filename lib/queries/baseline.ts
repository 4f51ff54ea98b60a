import { z } from 'zod';
import { badRequest } from '../errors';
import { idSchema } from '../input';
import { anyWordQuery } from '../kb/any-word-query';
import type { Database, Queryable } from '../db/transaction';
import { BM25_DEFAULTS } from '../retrieval/bm25';
import { ensureIndex, indexProgressMessage, type BuildProgress } from '../retrieval/bm25-index';
import { rankBm25 } from '../retrieval/bm25-score';
import { embeddingRanker, hybridRunName, missingWarning, vectorRunName } from '../vectors/baseline';
import { embeddingNameSchema, embeddingPair } from '../vectors/sets';
import { evaluateRun, type EvalQuery } from './metrics';
import { storeEvaluation, toEvalQuery, type RunTarget } from './runs';
import { readQueries, type QuerySource } from './read';

/** How many entities the baseline ranks per query, and how many queries go to the database at once. */
export const BASELINE_DEPTH = 100;
const BATCH = 25;

/**
 * Which baseline ranks the queries: Okapi BM25 (the default; `relations` adds STaRK's relation lines to each
 * document) or PostgreSQL's ts_rank full-text ranking, kept as a second reference (k1, b and relations unused).
 */
export const baselineSchema = z.object({
  method: z.enum(['bm25', 'fulltext', 'vector', 'hybrid']).default('bm25'),
  // BM25 only; k1 beyond 100 only makes raw term counts decide.
  k1: z.number().min(0, 'k1 must be at least 0').max(100, 'k1 must be at most 100').default(BM25_DEFAULTS.k1),
  b: z.number().min(0, 'b must be between 0 and 1').max(1, 'b must be between 0 and 1').default(BM25_DEFAULTS.b),
  relations: z.boolean().default(false),
  // vector and hybrid: the embedding set (entity and query vectors of this name) to rank by.
  embeddings: embeddingNameSchema.optional(),
  // BM25's analyzer (see lib/retrieval/tokenise.ts), off by default.
  stopWords: z.boolean().default(false),
  stemming: z.boolean().default(false),
});
export type BaselineOptions = z.output<typeof baselineSchema>;
/** What POST runs/baseline takes: the baseline's options and, optionally, the release to score against. */
export const baselineRequestSchema = baselineSchema.extend({ release: idSchema.optional() }).strict();
export const DEFAULT_BASELINE: BaselineOptions = baselineSchema.parse({});

/** The run's name says which baseline and parameters ranked it. */
export function baselineName(o: BaselineOptions): string {
  if (o.method === 'vector') return vectorRunName(o.embeddings ?? '');
  if (o.method === 'hybrid') return hybridRunName(o.embeddings ?? '', baselineName({ ...o, method: 'bm25' }));
  if (o.method === 'fulltext') return 'Full-text baseline (PostgreSQL ts_rank)';
  const analyzer = [o.stopWords && 'stop words removed', o.stemming && 'Porter stemming'].filter(Boolean).join(', ');
  return `BM25${o.relations ? ' with relation lines' : ''} (k1 ${o.k1}, b ${o.b}${analyzer ? `; ${analyzer}` : ''})`;
}

/**
 * The ranking PostgreSQL's full-text search gives: every stemmed word of the query OR-ed (a conjunction would
 * match almost nothing for a sentence-long query), entities ranked by PostgreSQL's ts_rank over their
 * name and document, normalised by document length, ties by id. It gives every query set a reference score.
 */
async function rankFullText(db: Queryable, kbId: number, texts: string[]): Promise<string[][]> {
  // OFFSET 0 keeps the tsquery a value computed once per query, not re-parsed for every matching entity;
  // entities are looked up for their external ids only once the top ones are known.
  const { rows } = await db.query<{ n: number; ranking: string[] | null }>(
    `SELECT t.n, r.ranking
       FROM unnest($2::text[]) WITH ORDINALITY AS t(text, n)
       CROSS JOIN LATERAL (
         SELECT ${anyWordQuery('t.text')} AS q
         OFFSET 0) w
       CROSS JOIN LATERAL (
         SELECT array_agg(e.external_id ORDER BY top.rank DESC, top.id) AS ranking
           FROM (SELECT s.id, ts_rank(s.search, w.q, 1) AS rank FROM entity_search s
                  WHERE s.kb_id = $1 AND s.search @@ w.q ORDER BY rank DESC, s.id LIMIT $3) top
           JOIN entity e ON e.kb_id = $1 AND e.id = top.id) r
      ORDER BY t.n`, [kbId, texts, BASELINE_DEPTH]);
  return rows.map((r) => r.ranking ?? []);
}

/** Creates the baseline run's row, RUNNING, so its progress can be watched while `runBaseline` fills it. */
export async function startBaseline(db: Queryable, target: RunTarget, userId: number | null, options: BaselineOptions = DEFAULT_BASELINE): Promise<number> {
  const running = await db.query(`SELECT 1 FROM eval_run WHERE set_id = $1 AND baseline AND status = 'RUNNING'`, [target.setId]);
  if (running.rows.length) throw badRequest('A baseline is already being computed for this query set');
  if (options.method === 'vector' || options.method === 'hybrid') {
    if (!options.embeddings) throw badRequest(`embeddings: a ${options.method} baseline needs the name of the embedding set to rank by`);
    await embeddingPair(db, target.kbId, target.setId, options.embeddings);
  }
  const total = await db.query<{ n: number }>(
    target.releaseId ? 'SELECT count(*)::int AS n FROM release_query WHERE release_id = $1' : 'SELECT count(*)::int AS n FROM query WHERE set_id = $1',
    [target.releaseId ?? target.setId]);
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO eval_run (set_id, release_id, name, format, baseline, status, total, created_by)
     VALUES ($1, $2, $5, 'baseline', true, 'RUNNING', $3, $4) RETURNING id`,
    [target.setId, target.releaseId, total.rows[0]!.n, userId, baselineName(options)]);
  return rows[0]!.id;
}

/**
 * Ranks every query, recording progress on the run's row, then scores and stores; marks the run FAILED on
 * error. BM25 first builds the knowledge base's index if it has none for its current version, telling its
 * progress in the run's message (and to `onIndexProgress`).
 */
export async function runBaseline(db: Database, target: RunTarget, runId: number, userId: number | null, onProgress?: (done: number, total: number) => void, options: BaselineOptions = DEFAULT_BASELINE, onIndexProgress?: BuildProgress): Promise<void> {
  try {
    let rank: (batch: { id: string; text: string }[]) => Promise<string[][]> = (batch) => rankFullText(db, target.kbId, batch.map((q) => q.text));
    if (options.method === 'bm25' || options.method === 'hybrid') {
      const analyzer = { stopWords: options.stopWords, stemming: options.stemming };
      let told = Promise.resolve();
      const index = await ensureIndex(db, target.kbId, options.relations, analyzer, (done, total) => {
        told = told.then(() => db.query('UPDATE eval_run SET message = $2 WHERE id = $1', [runId, indexProgressMessage(done, total)])).then(() => undefined);
        onIndexProgress?.(done, total);
      });
      await told;
      await db.query('UPDATE eval_run SET message = NULL WHERE id = $1', [runId]);
      rank = (batch) => rankBm25(db, target.kbId, index, options, batch.map((q) => q.text), BASELINE_DEPTH);
    }
    // Vector runs rank by the queries' embeddings; hybrid ones fuse those rankings with BM25's above.
    const embeddings = options.method === 'vector' || options.method === 'hybrid'
      ? await embeddingRanker(db, target.kbId, target.setId, options.embeddings!, BASELINE_DEPTH, options.method === 'hybrid' ? rank : undefined)
      : null;
    if (embeddings) rank = embeddings.rank;
    const src: QuerySource = target.releaseId ? { releaseId: target.releaseId } : { setId: target.setId };
    const run = new Map<string, string[]>();
    let batch: { id: string; text: string }[] = [];
    let total = 0;
    const flush = async () => {
      const rankings = await rank(batch);
      batch.forEach((q, i) => run.set(q.id, rankings[i]!));
      batch = [];
      await db.query('UPDATE eval_run SET done = $2 WHERE id = $1', [runId, run.size]);
      onProgress?.(run.size, total);
    };
    total = (await db.query<{ total: number }>('SELECT total FROM eval_run WHERE id = $1', [runId])).rows[0]!.total;
    // One pass: each query is ranked and kept for scoring.
    const queries: EvalQuery[] = [];
    for await (const q of readQueries(db, src)) {
      queries.push(toEvalQuery(q));
      batch.push({ id: q.id, text: q.text });
      if (batch.length === BATCH) await flush();
    }
    if (batch.length) await flush();
    const evaluation = evaluateRun({ queries, run });
    const missing = embeddings?.missing() ?? 0;
    const warnings = missing ? [missingWarning(options.embeddings!, missing, queries.length, options.method === 'hybrid')] : [];
    await storeEvaluation(db, target, evaluation, { id: runId, name: '', fileName: null, format: 'baseline', baseline: true, warnings, userId });
  } catch (err) {
    await db.query(`UPDATE eval_run SET status = 'FAILED', message = $2 WHERE id = $1`, [runId, (err as Error).message]).catch(() => undefined);
    throw err;
  }
}
