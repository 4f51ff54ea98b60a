import { apiRoute, idParam } from '@/lib/http/api';
import { pool } from '@/lib/db/client';
import { ownAssignment } from '@/lib/authoring/access';
import { submitAudit } from '@/lib/authoring/audit-work';

/** Hands the audit in: every current answer judged, flags with a note. */
export const POST = apiRoute<{ id: string }>('campaigns:annotate', async ({ user, params }) => {
  const a = await ownAssignment(user, idParam(params.id, 'assignment id'));
  return submitAudit(pool(), a.id, user.id);
});
