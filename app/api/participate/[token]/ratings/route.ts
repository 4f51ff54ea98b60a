import { publicRoute, readJson } from '@/lib/http/api';
import { pool } from '@/lib/db/client';
import { ratingInputSchema, saveRating } from '@/lib/studies/participate';

/** Saves one answer (idempotent: a repeat changes the same answer). */
export const PUT = publicRoute<{ token: string }>(async ({ req, params }) => {
  return saveRating(pool(), { token: params.token }, await readJson(req, ratingInputSchema));
});
