import { apiRoute, idParam, json } from '@/lib/http/api';
import { db, pool } from '@/lib/db/client';
import { cancelImportJob } from '@/lib/ingest/import-jobs-view';

/** Asks a running import to stop; it does at its next progress write, and leaves nothing behind. */
export const POST = apiRoute<{ id: string }>('kb:manage', async ({ user, params }) => {
  const jobId = idParam(params.id, 'id');
  await cancelImportJob(pool(), db(), user, jobId);
  return json({ jobId, cancelRequested: true }, 202);
});
