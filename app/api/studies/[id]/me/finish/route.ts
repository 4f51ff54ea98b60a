import { apiRoute, idParam } from '@/lib/http/api';
import { pool } from '@/lib/db/client';
import { visibleStudy } from '@/lib/studies/admin';
import { accountParticipant } from '@/lib/studies/participants';
import { finishParticipation } from '@/lib/studies/participate';

export const POST = apiRoute<{ id: string }>('kb:browse', async ({ user, params }) => {
  const study = await visibleStudy(pool(), user, idParam(params.id, 'study id'));
  await finishParticipation(pool(), await accountParticipant(pool(), study.id, user.id));
  return { finished: true };
});
