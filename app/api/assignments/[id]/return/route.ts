import { z } from 'zod';
import { apiRoute, idParam, readJson } from '@/lib/http/api';
import { pool } from '@/lib/db/client';
import { visibleAssignment } from '@/lib/authoring/access';
import { returnAssignment } from '@/lib/authoring/review';

const bodySchema = z.object({ note: z.string().trim().min(1, 'say what the author should change').max(2000) }).strict();

/** Sends submitted work back to its author, who can edit and resubmit it. */
export const POST = apiRoute<{ id: string }>('queries:manage', async ({ req, user, params }) => {
  const a = await visibleAssignment(user, idParam(params.id, 'assignment id'));
  await returnAssignment(pool(), a.id, user.id, (await readJson(req, bodySchema)).note);
  return { returned: a.id };
});
