import { apiRoute, idParam } from '@/lib/http/api';
import { pool } from '@/lib/db/client';
import { visibleStudy } from '@/lib/studies/admin';
import { accountParticipant } from '@/lib/studies/participants';
import { startParticipation } from '@/lib/studies/participate';

/** Starts a signed-in rater's participation: hands out their items (once) and answers their view. */
export const POST = apiRoute<{ id: string }>('kb:browse', async ({ user, params }) => {
  const study = await visibleStudy(pool(), user, idParam(params.id, 'study id'));
  return startParticipation(pool(), await accountParticipant(pool(), study.id, user.id));
});
