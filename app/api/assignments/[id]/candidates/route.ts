import { z } from 'zod';
import { apiRoute, idParam, readJson } from '@/lib/http/api';
import { pool } from '@/lib/db/client';
import { ownAssignment } from '@/lib/authoring/access';
import { candidates } from '@/lib/authoring/candidates';
import { metapathsInputSchema } from '@/lib/kb/metapath-input';

const bodySchema = z.object({
  paths: metapathsInputSchema,
  queryText: z.string().max(2000).default(''),
  limit: z.number().int().min(1).max(200).default(50),
  offset: z.number().int().min(0).max(1_000_000).default(0),
}).strict();

/** A page of the exact candidate set of a relational requirement, by relevance to the query, with judgments. */
export const POST = apiRoute<{ id: string }>('campaigns:annotate', async ({ req, user, params }) => {
  const a = await ownAssignment(user, idParam(params.id, 'assignment id'));
  return candidates(pool(), a.id, user.id, await readJson(req, bodySchema));
});
