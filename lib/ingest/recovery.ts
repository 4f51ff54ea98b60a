import type pg from 'pg';
import { discardImport } from './importer';
import { stagingTables } from './partitions';

/** A running job whose process has written nothing for this long is taken to have died. */
export const ABANDONED_AFTER_MINUTES = 15;

/**
 * Cleans up imports whose process died (killed, crashed, machine restarted): marks the job failed and
 * removes its staging tables and, for a first import, the invisible knowledge base it had created.
 */
export async function recoverAbandonedImports(pool: pg.Pool): Promise<number[]> {
  const { rows } = await pool.query<{ id: number; kb_id: number | null; created: boolean }>(
    `UPDATE import_job j SET status = 'FAILED', message = 'The import was interrupted (its process stopped).', finished_at = now()
       FROM import_job j0 LEFT JOIN knowledge_base kb ON kb.id = j0.kb_id
      WHERE j.id = j0.id AND j0.status = 'RUNNING' AND j0.updated_at < now() - make_interval(mins => $1)
      RETURNING j.id, j.kb_id, (kb.status = 'LOADING') AS created`,
    [ABANDONED_AFTER_MINUTES],
  );
  for (const job of rows) {
    if (job.kb_id !== null) await discardImport(pool, job.kb_id, job.created, stagingTables(job.id));
  }
  return rows.map((r) => r.id);
}
