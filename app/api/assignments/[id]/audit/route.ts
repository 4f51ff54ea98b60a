import { apiRoute, idParam, readJson } from '@/lib/http/api';
import { pool } from '@/lib/db/client';
import { ownAssignment } from '@/lib/authoring/access';
import { auditFlagsSchema, auditWorkspace, saveAuditFlags } from '@/lib/authoring/audit-work';

/** The annotator's audit of one item: the query, its current answers and seeds, their judgments and flags. */
export const GET = apiRoute<{ id: string }>('campaigns:annotate', async ({ user, params }) => {
  const a = await ownAssignment(user, idParam(params.id, 'assignment id'));
  return auditWorkspace(pool(), a.id, user.id);
});

/** Saves the flags on the query text and the note; 409 when saved elsewhere since `version`. */
export const PUT = apiRoute<{ id: string }>('campaigns:annotate', async ({ req, user, params }) => {
  const a = await ownAssignment(user, idParam(params.id, 'assignment id'));
  return saveAuditFlags(pool(), a.id, user.id, await readJson(req, auditFlagsSchema));
});
