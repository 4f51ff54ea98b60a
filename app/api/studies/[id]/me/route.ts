import { apiRoute, idParam } from '@/lib/http/api';
import { pool } from '@/lib/db/client';
import { visibleStudy } from '@/lib/studies/admin';
import { accountParticipation } from '@/lib/studies/participate';

/** A signed-in rater's participation, the same view as a participant link's; reading it makes nothing. */
export const GET = apiRoute<{ id: string }>('kb:browse', async ({ user, params }) => {
  const study = await visibleStudy(pool(), user, idParam(params.id, 'study id'));
  return accountParticipation(pool(), study.id, user.id);
});
