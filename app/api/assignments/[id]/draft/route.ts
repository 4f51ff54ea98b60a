import { z } from 'zod';
import { apiRoute, idParam, MIB, readJson } from '@/lib/http/api';
import { pool } from '@/lib/db/client';
import { ownAssignment } from '@/lib/authoring/access';
import { MAX_QUERY_LENGTH, saveDraft, textSpanSchema } from '@/lib/authoring/drafts';
import { metapathsInputSchema } from '@/lib/kb/metapath-input';

const bodySchema = z.object({
  text: z.string().max(MAX_QUERY_LENGTH),
  requirement: z.object({ paths: metapathsInputSchema }).strict().nullable().optional(),
  textSpans: z.array(textSpanSchema).max(100).optional(),
  version: z.number().int().min(0),
}).strict();

/** Autosave: the draft and the lease, together; 409 when saved elsewhere since `version`. */
export const PUT = apiRoute<{ id: string }>('campaigns:annotate', async ({ req, user, params }) => {
  const a = await ownAssignment(user, idParam(params.id, 'assignment id'));
  const { requirement, ...draft } = await readJson(req, bodySchema);
  return saveDraft(pool(), a.id, user.id, { ...draft, requirement: requirement ?? undefined });
}, { bodyLimit: MIB }); // up to 100 quoted document spans
