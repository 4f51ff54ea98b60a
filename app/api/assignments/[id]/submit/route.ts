import { z } from 'zod';
import { apiRoute, idParam, readJson } from '@/lib/http/api';
import { pool } from '@/lib/db/client';
import { ownAssignment } from '@/lib/authoring/access';
import { submitAssignment } from '@/lib/authoring/submit';

const bodySchema = z.object({ draftVersion: z.number().int().min(0) }).strict();

/** Hands the query and its validated answers in for review. */
export const POST = apiRoute<{ id: string }>('campaigns:annotate', async ({ req, user, params }) => {
  const a = await ownAssignment(user, idParam(params.id, 'assignment id'));
  return submitAssignment(pool(), a.id, user.id, (await readJson(req, bodySchema)).draftVersion);
});
