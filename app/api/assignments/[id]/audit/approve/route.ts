import { apiRoute, idParam, MIB, readJson } from '@/lib/http/api';
import { pool } from '@/lib/db/client';
import { visibleAssignment } from '@/lib/authoring/access';
import { approveAudit, auditApprovalSchema } from '@/lib/authoring/audit-review';

/** Approves an item's audit: the set's query is edited (answers removed and added, flags) or removed, with reasons. */
export const POST = apiRoute<{ id: string }>('queries:manage', async ({ req, user, params }) => {
  const a = await visibleAssignment(user, idParam(params.id, 'assignment id'));
  return approveAudit(pool(), a.id, user.id, await readJson(req, auditApprovalSchema));
}, { bodyLimit: 2 * MIB }); // up to 10,000 answer decisions, each with a reason
