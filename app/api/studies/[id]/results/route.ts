import { apiRoute, idParam } from '@/lib/http/api';
import { pool } from '@/lib/db/client';
import { visibleStudy } from '@/lib/studies/admin';
import { studyReport } from '@/lib/studies/report';

/** Results, agreement and set diversity; `?excludeFailed=1` leaves out failed attention checks. */
export const GET = apiRoute<{ id: string }>('queries:manage', async ({ req, user, params }) => {
  const study = await visibleStudy(pool(), user, idParam(params.id, 'study id'));
  return studyReport(pool(), study.id, { excludeFailed: new URL(req.url).searchParams.get('excludeFailed') === '1' });
});
