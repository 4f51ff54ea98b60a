import { z } from 'zod';
import { apiRoute, idParam, MIB, readJson } from '@/lib/http/api';
import { pool } from '@/lib/db/client';
import { ownAssignment } from '@/lib/authoring/access';
import { evidenceSchema, judge, JUDGMENT_LABELS } from '@/lib/authoring/drafts';
import { idSchema } from '@/lib/input';

const bodySchema = z.object({
  entityId: idSchema,
  label: z.enum(JUDGMENT_LABELS),
  evidence: z.array(evidenceSchema).max(50).optional(),
  version: z.number().int().min(0),
}).strict();

/** Judges one candidate (or a hand-added entity); 409 when judged elsewhere since `version`. */
export const POST = apiRoute<{ id: string }>('campaigns:annotate', async ({ req, user, params }) => {
  const a = await ownAssignment(user, idParam(params.id, 'assignment id'));
  return judge(pool(), a.id, user.id, await readJson(req, bodySchema));
}, { bodyLimit: MIB }); // up to 50 pieces of evidence, each quoting up to 5,000 characters
