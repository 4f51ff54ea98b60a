import { apiRoute, idParam } from '@/lib/http/api';
import { db, pool } from '@/lib/db/client';
import { getImportJob } from '@/lib/ingest/import-jobs-view';

/** One import job: progress, the first errors, and its summary or message once it has ended. */
export const GET = apiRoute<{ id: string }>('kb:manage', async ({ user, params }) =>
  getImportJob(pool(), db(), user, idParam(params.id, 'id')));
