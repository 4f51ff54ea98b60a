import { z } from 'zod';
import { apiRoute, idParam, readJson } from '@/lib/http/api';
import { db } from '@/lib/db/client';
import { setUserRole } from '@/lib/auth/users';
import { ROLES } from '@/lib/auth/roles';

const patchSchema = z.object({ role: z.enum(ROLES) }).strict();

/** Changes a user's role (admins only; the last admin cannot be demoted). */
export const PATCH = apiRoute<{ id: string }>('users:manage', async ({ req, user, params }) => {
  const userId = idParam(params.id, 'user id');
  const { role } = await readJson(req, patchSchema);
  return setUserRole(db(), user.id, userId, role);
});
