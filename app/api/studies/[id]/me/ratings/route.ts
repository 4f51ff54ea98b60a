import { apiRoute, idParam, readJson } from '@/lib/http/api';
import { pool } from '@/lib/db/client';
import { visibleStudy } from '@/lib/studies/admin';
import { accountParticipant } from '@/lib/studies/participants';
import { ratingInputSchema, saveRating } from '@/lib/studies/participate';

export const PUT = apiRoute<{ id: string }>('kb:browse', async ({ req, user, params }) => {
  const study = await visibleStudy(pool(), user, idParam(params.id, 'study id'));
  return saveRating(pool(), await accountParticipant(pool(), study.id, user.id), await readJson(req, ratingInputSchema));
});
