import { z } from 'zod';
import { apiRoute, idParam, json, readJson } from '@/lib/http/api';
import { pool } from '@/lib/db/client';
import { visibleStudy } from '@/lib/studies/admin';
import { issueLinks } from '@/lib/studies/participants';

const bodySchema = z.object({ count: z.number().int().min(1).max(500) }).strict();

/** Personal participant links; the tokens are in the answer, once. */
export const POST = apiRoute<{ id: string }>('queries:manage', async ({ req, user, params }) => {
  const study = await visibleStudy(pool(), user, idParam(params.id, 'study id'));
  return json({ tokens: await issueLinks(pool(), study.id, (await readJson(req, bodySchema)).count, user.id) }, 201);
});
