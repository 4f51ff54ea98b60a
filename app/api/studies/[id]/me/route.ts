import { apiRoute, idParam } from '@/lib/http/api';
import { pool } from '@/lib/db/client';
import { visibleStudy } from '@/lib/studies/admin';
import { accountParticipant } from '@/lib/studies/participants';
import { participation } from '@/lib/studies/participate';

/** A signed-in rater's participation (made on the first visit): the same view as a participant link's. */
export const GET = apiRoute<{ id: string }>('kb:browse', async ({ user, params }) => {
  const study = await visibleStudy(pool(), user, idParam(params.id, 'study id'));
  return participation(pool(), await accountParticipant(pool(), study.id, user.id));
});
