import { publicRoute, readJson } from '@/lib/http/api';
import { pool } from '@/lib/db/client';
import { participantByToken } from '@/lib/studies/participants';
import { ratingInputSchema, saveRating } from '@/lib/studies/participate';

/** Saves one answer (idempotent: a repeat changes the same answer). */
export const PUT = publicRoute<{ token: string }>(async ({ req, params }) => {
  const participant = await participantByToken(pool(), params.token);
  return saveRating(pool(), participant, await readJson(req, ratingInputSchema));
});
