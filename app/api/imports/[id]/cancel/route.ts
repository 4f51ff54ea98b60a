import { apiRoute, idParam, json } from '@/lib/http/api';
import { db, pool } from '@/lib/db/client';
import { cancelImportJob } from '@/lib/ingest/import-jobs-view';

/**
 * Asks a running import to stop; it does at its next progress write, and leaves nothing behind. An
 * import whose process is gone is cleaned up at once and answers 200 with status FAILED.
 */
export const POST = apiRoute<{ id: string }>('kb:manage', async ({ user, params }) => {
  const jobId = idParam(params.id, 'id');
  const status = await cancelImportJob(pool(), db(), user, jobId);
  return status === 'RUNNING' ? json({ jobId, cancelRequested: true, status }, 202) : json({ jobId, cancelRequested: false, status });
});
