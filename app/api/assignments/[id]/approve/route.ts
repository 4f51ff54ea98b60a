import { z } from 'zod';
import { apiRoute, idParam, MIB, readJson } from '@/lib/http/api';
import { pool } from '@/lib/db/client';
import { visibleAssignment } from '@/lib/authoring/access';
import { approveQuery } from '@/lib/authoring/review';
import { MAX_QUERY_LENGTH } from '@/lib/authoring/drafts';
import { idSchema } from '@/lib/input';

const bodySchema = z.object({
  decisions: z.array(z.object({ entityId: idSchema, accept: z.boolean(), reason: z.string().max(1000).optional() }).strict()).max(10_000),
  text: z.string().max(MAX_QUERY_LENGTH).optional(),
}).strict();

/** Approves the query into the campaign's query set with the adjudicated answers. */
export const POST = apiRoute<{ id: string }>('queries:manage', async ({ req, user, params }) => {
  const a = await visibleAssignment(user, idParam(params.id, 'assignment id'));
  return approveQuery(pool(), a.id, user.id, await readJson(req, bodySchema));
}, { bodyLimit: 2 * MIB }); // up to 10,000 answer decisions, each with a reason
