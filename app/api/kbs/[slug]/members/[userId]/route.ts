import { apiRoute, idParam } from '@/lib/http/api';
import { db } from '@/lib/db/client';
import { getVisibleKb } from '@/lib/kb/access';
import { removeMember } from '@/lib/kb/members';

export const DELETE = apiRoute<{ slug: string; userId: string }>('kb:manage', async ({ user, params }) => {
  const kb = await getVisibleKb(db(), user, params.slug);
  return { members: await removeMember(db(), user, kb, idParam(params.userId, 'user id')) };
});
