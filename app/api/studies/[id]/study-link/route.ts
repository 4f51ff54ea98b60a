import { apiRoute, idParam } from '@/lib/http/api';
import { pool } from '@/lib/db/client';
import { visibleStudy } from '@/lib/studies/admin';
import { renewStudyLink } from '@/lib/studies/participants';

/** A new study link; the old one stops issuing participants. */
export const POST = apiRoute<{ id: string }>('queries:manage', async ({ user, params }) => {
  const study = await visibleStudy(pool(), user, idParam(params.id, 'study id'));
  return { token: await renewStudyLink(pool(), study.id) };
});
