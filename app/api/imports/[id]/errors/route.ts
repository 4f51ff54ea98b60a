import { apiRoute, idParam } from '@/lib/http/api';
import { db, pool } from '@/lib/db/client';
import { importErrorReport } from '@/lib/ingest/import-jobs-view';

/** Every bad row of an import as a TSV download. */
export const GET = apiRoute<{ id: string }>('kb:manage', async ({ user, params }) => {
  const jobId = idParam(params.id, 'id');
  return new Response(await importErrorReport(pool(), db(), user, jobId), {
    headers: {
      'content-type': 'text/tab-separated-values; charset=utf-8',
      'content-disposition': `attachment; filename="import-${jobId}-errors.tsv"`,
    },
  });
});
