import { apiRoute, idParam } from '@/lib/http/api';
import { pool } from '@/lib/db/client';
import { ownAssignment } from '@/lib/authoring/access';
import { workspace } from '@/lib/authoring/workspace';

/** The annotator's workspace for one assignment: campaign, seed, draft, leaks and judgments. */
export const GET = apiRoute<{ id: string }>('campaigns:annotate', async ({ user, params }) => {
  const a = await ownAssignment(user, idParam(params.id, 'assignment id'));
  return workspace(pool(), a.id, user.id);
});
