import type pg from 'pg';
import { discardImport } from './importer';
import { removeAbandonedBuilds } from '../retrieval/bm25-index';
import { runsHere } from './jobs';
import { ownerGone } from './owner';
import { stagingTables } from './partitions';

/**
 * A running job owned by another host (whose processes cannot be checked from here) is taken to have
 * died when its heartbeat, touched every half minute while it runs, is this old.
 */
export const ABANDONED_AFTER_MINUTES = 5;

// Should the staging tables still be locked (a session that cannot be ended), the cleanup gives up
// quickly and is retried by the next recovery instead of blocking a request.
const LOCK_TIMEOUT = '2s';

interface RunningJob {
  id: number;
  owner_host: string | null;
  owner_pid: number | null;
  owner_start: string | null;
  stale: boolean;
}

/**
 * Cleans up imports whose process died (killed, crashed, machine restarted): marks the job failed and
 * removes its staging tables and, for a first import, the invisible knowledge base it had created.
 * A job on this host is recovered as soon as its process is gone; one on another host once its heartbeat
 * is stale. Safe to run at any time and in several processes at once: each job is cleaned up by one of
 * them, in one transaction. `jobId` limits it to one job. Returns the jobs it recovered.
 */
export async function recoverAbandonedImports(pool: pg.Pool, jobId?: number): Promise<number[]> {
  const { rows } = await pool.query<RunningJob>(
    `SELECT id, owner_host, owner_pid, owner_start, heartbeat_at < now() - make_interval(mins => $1) AS stale
       FROM import_job WHERE status = 'RUNNING' AND ($2::int IS NULL OR id = $2)`,
    [ABANDONED_AFTER_MINUTES, jobId ?? null],
  );
  const recovered: number[] = [];
  for (const job of rows) {
    const gone = ownerGone({ host: job.owner_host, pid: job.owner_pid, start: job.owner_start }, () => runsHere(job.id));
    if (!(gone ?? job.stale)) continue;
    const message = gone
      ? `The import was interrupted: its process (pid ${job.owner_pid} on ${job.owner_host}) stopped.`
      : `The import was interrupted: its process${job.owner_host ? ` on ${job.owner_host}` : ''} stopped reporting for ${ABANDONED_AFTER_MINUTES} minutes.`;
    if (await closeJob(pool, job.id, message)) recovered.push(job.id);
  }
  return recovered;
}

/** Discards what the job wrote and marks it failed, all or nothing; false when another process got there first. */
async function closeJob(pool: pg.Pool, jobId: number, message: string): Promise<boolean> {
  const staging = stagingTables(jobId);
  // The dead owner's database session may still be running a statement on its staging tables (the server
  // notices a vanished client only when it next writes to it): end it, so the cleanup need not wait. Only
  // that session uses these tables. Without the right to end it, the lock timeout below applies.
  await pool.query(
    `SELECT pg_terminate_backend(l.pid) FROM pg_locks l JOIN pg_class c ON c.oid = l.relation
      WHERE c.relname = ANY($1::text[]) AND l.pid <> pg_backend_pid() GROUP BY l.pid`,
    [[staging.entity, staging.edge, staging.search, staging.vectors]],
  ).catch((err: Error) => console.warn(`Recovering import job ${jobId}: could not end its database session: ${err.message}`));
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query(`SET LOCAL lock_timeout = '${LOCK_TIMEOUT}'`);
    // The row lock makes concurrent recoveries take turns; the later one finds the job no longer running.
    const { rows } = await client.query<{ kb_id: number | null; created: boolean; phase: string }>(
      `SELECT j.kb_id, (kb.status = 'LOADING') AS created, j.phase FROM import_job j LEFT JOIN knowledge_base kb ON kb.id = j.kb_id
        WHERE j.id = $1 AND j.status = 'RUNNING' FOR UPDATE OF j`,
      [jobId],
    );
    const job = rows[0];
    if (!job) {
      await client.query('ROLLBACK');
      return false;
    }
    // Killed while building the search index: the data was published, only the index is missing (built on first use).
    const published = job.phase === 'search-index';
    if (job.kb_id !== null && !published) await discardImport(client, job.kb_id, job.created, staging);
    // The BM25 index it had begun (on PostgreSQL before publishing), unfinished: its row and postings table go too.
    if (job.kb_id !== null) await removeAbandonedBuilds(client, job.kb_id);
    await client.query(
      `UPDATE import_job SET status = $3::import_status, message = $2, updated_at = now(), finished_at = now() WHERE id = $1`,
      [jobId, published ? `${message} It had published the knowledge base; its search index is built on first use.` : message, published ? 'SUCCEEDED' : 'FAILED'],
    );
    await client.query('COMMIT');
    return true;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    console.warn(`Recovering import job ${jobId} failed, to be retried: ${(err as Error).message}`);
    return false;
  } finally {
    client.release();
  }
}
