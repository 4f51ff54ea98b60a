import { z } from 'zod';
import { apiRoute, idParam, readJson } from '@/lib/http/api';
import { pool } from '@/lib/db/client';
import { ownAssignment } from '@/lib/authoring/access';
import { skipAssignment } from '@/lib/authoring/assignments';

const bodySchema = z.object({ reason: z.string().trim().min(1, 'say why the seed is skipped').max(1000) }).strict();

/** Gives the seed back with a reason. */
export const POST = apiRoute<{ id: string }>('campaigns:annotate', async ({ req, user, params }) => {
  const a = await ownAssignment(user, idParam(params.id, 'assignment id'));
  await skipAssignment(pool(), a.id, user.id, (await readJson(req, bodySchema)).reason);
  return { skipped: a.id };
});
