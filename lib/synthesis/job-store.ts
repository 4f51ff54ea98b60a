import { badRequest, notFound } from '../errors';
import { auditSql, inTransaction, type Database, type Queryable } from '../db/transaction';
import type { ProcessOwner } from '../ingest/owner';
import type { JobLlm, JobSpec } from './spec';
import type { ItemOutcome, SynthesisStage, SynthesisSummary } from './types';

export type SynthesisJobStatus = 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'CANCELLED';

interface JobCounts {
  id: number;
  status: SynthesisJobStatus;
  spec: JobSpec;
  /** Queries kept so far, of `total` asked. */
  done: number;
  total: number;
  attempted: number;
}

/** A job as the API and the CLI show it. */
export interface JobView extends JobCounts {
  querySet: string;
  summary: SynthesisSummary;
  message: string | null;
  llm: { models: string[] } | null;
  createdAt: string;
  finishedAt: string | null;
}

/** A job's counts as stored: for its view and the dataset card. */
export interface JobRecord extends JobCounts {
  summary: { dropped?: Record<string, number>; failed?: Record<string, number> };
  llmCalls: number;
  llmFailures: number;
  tokens: number;
  llm: JobLlm | null;
  createdAt: Date;
}

/** What the runner needs of a job's row. */
export interface JobRow {
  id: number;
  kbId: number;
  setId: number | null;
  setName: string;
  spec: JobSpec;
  templates: string[];
  llm: JobLlm | null;
  status: SynthesisJobStatus;
  done: number;
  total: number;
  attempted: number;
  tokensUsed: number;
  createdBy: number | null;
  ownerHost: string | null;
  ownerPid: number | null;
  ownerStart: string | null;
  /** The heartbeat is older than recovery trusts. */
  stale: boolean;
}

export const STAGES: SynthesisStage[] = ['relational', 'properties', 'compose', 'leak', 'filter'];
const perStage = (counts: Partial<Record<string, number>> | undefined) =>
  Object.fromEntries(STAGES.map((s) => [s, counts?.[s] ?? 0])) as Record<SynthesisStage, number>;

interface ViewRow extends JobRecord {
  querySet: string;
  message: string | null;
  finishedAt: Date | null;
}

const VIEW = `SELECT id, status, set_name AS "querySet", spec, done, total, attempted, summary, llm_calls AS "llmCalls",
       llm_failures AS "llmFailures", tokens_used::float8 AS tokens, message, llm, created_at AS "createdAt", finished_at AS "finishedAt"
  FROM synthesis_job`;

function toView(r: ViewRow): JobView {
  return {
    id: r.id, status: r.status, querySet: r.querySet, spec: r.spec, done: r.done, total: r.total, attempted: r.attempted,
    summary: {
      attempted: r.attempted, kept: r.done, dropped: perStage(r.summary.dropped), failed: perStage(r.summary.failed),
      llmCalls: r.llmCalls, llmFailures: r.llmFailures, tokens: r.tokens,
    },
    message: r.message,
    llm: r.llm ? { models: [...new Set([r.llm.model, ...r.llm.filterModels])] } : null,
    createdAt: r.createdAt.toISOString(),
    finishedAt: r.finishedAt?.toISOString() ?? null,
  };
}

/** A job of the knowledge base (404 otherwise, so a job never shows through another knowledge base). */
export async function getJob(db: Queryable, kbId: number, jobId: number): Promise<JobView> {
  const { rows } = await db.query<ViewRow>(`${VIEW} WHERE kb_id = $1 AND id = $2`, [kbId, jobId]);
  if (!rows[0]) throw notFound(`No synthesis job ${jobId} in this knowledge base`);
  return toView(rows[0]);
}

/** The knowledge base's latest jobs, newest first. */
export async function listJobs(db: Queryable, kbId: number, limit = 50): Promise<JobView[]> {
  return (await db.query<ViewRow>(`${VIEW} WHERE kb_id = $1 ORDER BY id DESC LIMIT $2`, [kbId, limit])).rows.map(toView);
}

/** Any job by id, for the CLI and the runner. */
export async function jobRow(db: Queryable, jobId: number, staleAfterMinutes: number): Promise<JobRow> {
  const { rows } = await db.query<JobRow>(
    `SELECT id, kb_id AS "kbId", set_id AS "setId", set_name AS "setName", spec, templates, llm, status, done, total, attempted,
            tokens_used::float8 AS "tokensUsed", created_by AS "createdBy", owner_host AS "ownerHost", owner_pid AS "ownerPid",
            owner_start AS "ownerStart", heartbeat_at < now() - make_interval(mins => $2) AS stale
       FROM synthesis_job WHERE id = $1`, [jobId, staleAfterMinutes]);
  if (!rows[0]) throw notFound(`No synthesis job ${jobId}`);
  return rows[0];
}

/** What a new set says of how its queries are made: the first job's method. */
const setDescription = (llm: JobLlm | null) => `Queries synthesized from the knowledge base's relational templates, ${llm
  ? `with the LLM ${llm.model} (filtering by ${llm.filterModels.join(', ')})`
  : 'without an LLM (deterministic property extractor, template realiser and term-evidence filter)'}.`;

/**
 * Creates the job, owned by `owner`, and its query set when missing. An existing set must be a synthesized set of
 * this knowledge base: the job adds to it, after its queries.
 */
export async function createJob(db: Database, job: { kbId: number; spec: JobSpec; templates: string[]; llm: JobLlm | null; userId: number | null; owner: ProcessOwner }): Promise<number> {
  return inTransaction(db, async (client) => {
    const name = job.spec.querySet;
    const existing = await client.query<{ id: number; kb_id: number; origin: string }>('SELECT id, kb_id, origin::text FROM query_set WHERE name = $1 FOR UPDATE', [name]);
    let setId = existing.rows[0]?.id;
    if (existing.rows[0]) {
      if (existing.rows[0].kb_id !== job.kbId) throw badRequest(`querySet: the query set "${name}" belongs to another knowledge base; choose another name`);
      if (existing.rows[0].origin !== 'SYNTHESIZED') {
        throw badRequest(`querySet: the query set "${name}" is of origin ${existing.rows[0].origin.toLowerCase()}; synthesized queries go to a new set or a synthesized one`);
      }
    } else {
      setId = (await client.query<{ id: number }>(
        `INSERT INTO query_set (kb_id, name, origin, description, created_by) VALUES ($1, $2, 'SYNTHESIZED', $3, $4) RETURNING id`,
        [job.kbId, name, setDescription(job.llm), job.userId])).rows[0]!.id;
    }
    const { rows } = await client.query<{ id: number }>(
      `INSERT INTO synthesis_job (kb_id, set_id, set_name, spec, templates, llm, total, created_by, owner_host, owner_pid, owner_start)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING id`,
      [job.kbId, setId, name, JSON.stringify(job.spec), job.templates, job.llm ? JSON.stringify(job.llm) : null, job.spec.count, job.userId, job.owner.host, job.owner.pid, job.owner.start]);
    const id = rows[0]!.id;
    await auditSql(client, { userId: job.userId, action: 'synthesis.start', targetType: 'synthesis_job', targetId: id, kbId: job.kbId,
      details: { querySet: name, count: job.spec.count, templates: job.templates.length, llm: job.llm } });
    return id;
  });
}

/** The positions a job has finished (kept, dropped or failed). */
export async function finishedPositions(db: Queryable, jobId: number): Promise<Set<number>> {
  const { rows } = await db.query<{ position: number }>('SELECT position FROM synthesis_item WHERE job_id = $1', [jobId]);
  return new Set(rows.map((r) => r.position));
}

/** LLM use since the last item was written, added to the job's totals with it. */
export interface LlmDelta {
  calls: number;
  failures: number;
  tokens: number;
}

/**
 * Writes one finished position and, when kept, its query (after the set's last one) with the query's first
 * revision, and counts it on the job: all in one transaction, so a killed job has each item with its query or
 * neither. `written` is false when the position was already written (another process runs the job too).
 */
export async function writeItem(db: Database, job: Pick<JobRow, 'id' | 'kbId' | 'setId' | 'createdBy'>, position: number, outcome: ItemOutcome, llm: LlmDelta): Promise<{ written: boolean; cancelRequested: boolean }> {
  return inTransaction(db, async (client) => {
    const stage = outcome.status === 'kept' ? null : outcome.stage;
    const reason = outcome.status === 'kept' ? null : outcome.reason;
    const inserted = await client.query(
      `INSERT INTO synthesis_item (job_id, position, status, stage, reason, outcome) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (job_id, position) DO NOTHING`, [job.id, position, outcome.status, stage, reason, JSON.stringify(outcome)]);
    if (!inserted.rowCount) return { written: false, cancelRequested: false };
    if (outcome.status === 'kept') {
      // The set's row lock orders concurrent items' positions; a deleted set fails the job.
      const set = await client.query('SELECT 1 FROM query_set WHERE id = $1 FOR UPDATE', [job.setId]);
      if (!set.rowCount) throw new Error('The job\'s query set was deleted');
      const metadata = JSON.stringify({ origin: 'synthesized', synthesis: outcome.provenance });
      const { rows } = await client.query<{ id: number }>(
        `INSERT INTO query (set_id, external_id, position, text, answer_ids, seed_ids, metadata)
         VALUES ($1, $2, (SELECT coalesce(max(position) + 1, 0) FROM query WHERE set_id = $1), $3, $4, $5, $6) RETURNING id`,
        [job.setId, `syn-${job.id}-${position}`, outcome.text, outcome.answerIds, outcome.seedIds, metadata]);
      const queryId = rows[0]!.id;
      await client.query(
        `INSERT INTO query_revision (query_id, version, text, answer_ids, seed_ids, split, metadata, reason, changed_by)
         SELECT id, 1, text, answer_ids, seed_ids, split, metadata, $2, $3 FROM query WHERE id = $1`,
        [queryId, `synthesized by job ${job.id}`, job.createdBy]);
      await client.query('UPDATE synthesis_item SET query_id = $3 WHERE job_id = $1 AND position = $2', [job.id, position, queryId]);
      await client.query('UPDATE query_set SET updated_at = now() WHERE id = $1', [job.setId]);
    }
    const counted = outcome.status === 'kept' ? null : outcome.status;
    const { rows } = await client.query<{ cancel_requested: boolean }>(
      `UPDATE synthesis_job SET done = done + $2, attempted = attempted + 1,
              summary = CASE WHEN $3::text IS NULL THEN summary
                             ELSE jsonb_set(summary, ARRAY[$3::text, $4::text], to_jsonb(coalesce((summary #>> ARRAY[$3::text, $4::text])::int, 0) + 1)) END,
              llm_calls = llm_calls + $5, llm_failures = llm_failures + $6, tokens_used = tokens_used + $7,
              updated_at = now(), heartbeat_at = now()
        WHERE id = $1 RETURNING cancel_requested`,
      [job.id, outcome.status === 'kept' ? 1 : 0, counted, stage, llm.calls, llm.failures, llm.tokens]);
    return { written: true, cancelRequested: rows[0]?.cancel_requested ?? false };
  });
}

/** LLM use not tied to a written item (an item left open at the token budget), so the job's totals stay whole. */
export async function addLlmUse(db: Queryable, jobId: number, llm: LlmDelta): Promise<void> {
  await db.query('UPDATE synthesis_job SET llm_calls = llm_calls + $2, llm_failures = llm_failures + $3, tokens_used = tokens_used + $4 WHERE id = $1',
    [jobId, llm.calls, llm.failures, llm.tokens]);
}

export async function touchHeartbeat(db: Queryable, jobId: number): Promise<void> {
  await db.query('UPDATE synthesis_job SET heartbeat_at = now() WHERE id = $1', [jobId]);
}

export async function finishJob(db: Queryable, jobId: number, status: Exclude<SynthesisJobStatus, 'RUNNING'>, message: string | null): Promise<void> {
  await db.query(
    `UPDATE synthesis_job SET status = $2, message = $3, cancel_requested = false, updated_at = now(), finished_at = now() WHERE id = $1`,
    [jobId, status, message]);
}

/** Asks a running job to stop after the items in hand; false when it is not running. */
export async function requestCancel(db: Queryable, kbId: number, jobId: number): Promise<boolean> {
  const { rowCount } = await db.query(`UPDATE synthesis_job SET cancel_requested = true WHERE id = $1 AND kb_id = $2 AND status = 'RUNNING'`, [jobId, kbId]);
  return (rowCount ?? 0) > 0;
}

/**
 * Makes `owner` the job's owner and marks it running again, unless its row changed since `seen` was read (another
 * process claimed it first). Returns whether this process got it.
 */
export async function claimJob(db: Queryable, seen: Pick<JobRow, 'id' | 'status' | 'ownerHost' | 'ownerPid' | 'ownerStart'>, owner: ProcessOwner): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE synthesis_job SET status = 'RUNNING', cancel_requested = false, message = NULL, finished_at = NULL,
            owner_host = $5, owner_pid = $6, owner_start = $7, heartbeat_at = now(), updated_at = now()
      WHERE id = $1 AND status = $2 AND owner_host IS NOT DISTINCT FROM $3 AND owner_pid IS NOT DISTINCT FROM $4
        AND owner_start IS NOT DISTINCT FROM $8`,
    [seen.id, seen.status, seen.ownerHost, seen.ownerPid, owner.host, owner.pid, owner.start, seen.ownerStart]);
  return (rowCount ?? 0) > 0;
}

/** Running jobs, for recovery at start. */
export async function runningJobIds(db: Queryable): Promise<number[]> {
  return (await db.query<{ id: number }>(`SELECT id FROM synthesis_job WHERE status = 'RUNNING' ORDER BY id`)).rows.map((r) => r.id);
}
