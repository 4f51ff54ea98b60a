import { apiRoute, idParam } from '@/lib/http/api';
import { pool } from '@/lib/db/client';
import { ownAssignment } from '@/lib/authoring/access';
import { renewLease } from '@/lib/authoring/assignments';

/** Keeps the seed while the workspace is open without typing; 409 once the lease has run out. */
export const POST = apiRoute<{ id: string }>('campaigns:annotate', async ({ user, params }) => {
  const a = await ownAssignment(user, idParam(params.id, 'assignment id'));
  return { leaseExpiresAt: await renewLease(pool(), a.id, user.id) };
});
