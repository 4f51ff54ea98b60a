import type pg from 'pg';
import { thisProcess } from './owner';
import type { IngestIssue } from './source';

export type ImportPhase = 'starting' | 'entities' | 'edges' | 'indexes' | 'statistics' | 'publishing' | 'search-index' | 'done';
export type JobStatus = 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'CANCELLED';

interface Progress {
  phase: ImportPhase;
  rowsRead: number;
  entities: number;
  edges: number;
  bytesDone?: number;
  bytesTotal?: number;
}

// Progress is written at most this often (phase changes always), so a fast import is not slowed by it.
const WRITE_INTERVAL_MS = 500;
const lastWrite = new Map<number, { at: number; phase: ImportPhase }>();

const issueJson = (issues: IngestIssue[]) => JSON.stringify(issues.map((i) => ({ file: i.file, line: i.line, reason: i.reason })));

// How often a running import touches its heartbeat; recovery trusts a heartbeat younger than ABANDONED_AFTER_MINUTES.
const HEARTBEAT_MS = 30_000;

// The jobs this process is running, on globalThis because Next.js may load this module once per route bundle.
const globalForJobs = globalThis as unknown as { __skbImportsHere?: Set<number> };
const jobsHere = (globalForJobs.__skbImportsHere ??= new Set<number>());

/** Whether this process is running the job (its row may say so while the process lost it). */
export const runsHere = (jobId: number): boolean => jobsHere.has(jobId);

/** Creates the job, owned by this process, which keeps its heartbeat until `finishJob`. */
export async function startJob(pool: pg.Pool, job: { kbId: number; slug: string; format: string; files: string[]; createdBy: number | null }): Promise<number> {
  const owner = thisProcess();
  const { rows } = await pool.query<{ id: number }>(
    `INSERT INTO import_job (kb_id, slug, format, files, created_by, owner_host, owner_pid, owner_start) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
    [job.kbId, job.slug, job.format, job.files, job.createdBy, owner.host, owner.pid, owner.start],
  );
  const id = rows[0]!.id;
  jobsHere.add(id);
  return id;
}

/** Beats until stopped; progress writes pause during index builds, the heartbeat does not. */
export function startHeartbeat(pool: pg.Pool, jobId: number): () => void {
  const timer = setInterval(() => {
    pool.query(`UPDATE import_job SET heartbeat_at = now() WHERE id = $1`, [jobId]).catch((err: Error) => console.warn(`Import job ${jobId} heartbeat: ${err.message}`));
  }, HEARTBEAT_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/** Saves progress (throttled) and tells the importer whether someone asked to cancel. */
export async function recordProgress(pool: pg.Pool, jobId: number, p: Progress, issues: IngestIssue[]): Promise<{ cancelRequested: boolean }> {
  const last = lastWrite.get(jobId);
  const now = Date.now();
  if (last && last.phase === p.phase && now - last.at < WRITE_INTERVAL_MS) return { cancelRequested: false };
  lastWrite.set(jobId, { at: now, phase: p.phase });
  const { rows } = await pool.query<{ cancel_requested: boolean }>(
    `UPDATE import_job SET phase = $2, rows_read = $3, entities = $4, edges = $5, bytes_done = $6, bytes_total = $7,
            error_count = $8, errors = $9::jsonb, updated_at = now(), heartbeat_at = now()
      WHERE id = $1 RETURNING cancel_requested`,
    [jobId, p.phase, p.rowsRead, p.entities, p.edges, p.bytesDone ?? 0, p.bytesTotal ?? 0, issues.length, issueJson(issues)],
  );
  return { cancelRequested: rows[0]?.cancel_requested ?? false };
}

/** Says what a running job is doing (the search index build's progress), throttled like progress; keeps the heartbeat. */
export async function recordStep(pool: pg.Pool, jobId: number, message: string, force = false): Promise<void> {
  const last = lastWrite.get(jobId);
  const now = Date.now();
  if (!force && last && now - last.at < WRITE_INTERVAL_MS) return;
  lastWrite.set(jobId, { at: now, phase: last?.phase ?? 'search-index' });
  await pool.query('UPDATE import_job SET message = $2, updated_at = now(), heartbeat_at = now() WHERE id = $1', [jobId, message]);
}

export async function finishJob(pool: pg.Pool, jobId: number, status: Exclude<JobStatus, 'RUNNING'>, p: Progress, issues: IngestIssue[], summary: unknown, message: string | null): Promise<void> {
  lastWrite.delete(jobId);
  try {
    await pool.query(
      `UPDATE import_job SET status = $2::import_status, phase = $3, rows_read = $4, entities = $5, edges = $6,
              error_count = $7, errors = $8::jsonb, summary = $9::jsonb, message = $10, updated_at = now(), finished_at = now()
        WHERE id = $1`,
      [jobId, status, p.phase, p.rowsRead, p.entities, p.edges, issues.length, issueJson(issues), summary === null ? null : JSON.stringify(summary), message],
    );
  } finally {
    // Only once the row says so: until then recovery in this process must still see the job as running here.
    jobsHere.delete(jobId);
  }
}

export async function requestCancel(pool: pg.Pool, jobId: number): Promise<boolean> {
  const { rowCount } = await pool.query(`UPDATE import_job SET cancel_requested = true WHERE id = $1 AND status = 'RUNNING'`, [jobId]);
  return (rowCount ?? 0) > 0;
}
