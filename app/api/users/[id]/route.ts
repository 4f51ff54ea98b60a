import { z } from 'zod';
import { apiRoute, idParam, readJson } from '@/lib/http/api';
import { db } from '@/lib/db/client';
import { setUserDisabled, setUserRole } from '@/lib/auth/users';
import { ROLES } from '@/lib/auth/roles';

const patchSchema = z.union([z.object({ role: z.enum(ROLES) }).strict(), z.object({ disabled: z.boolean() }).strict()]);

/** Changes a user's role, or disables or enables the account (admins only; the last active admin keeps both). */
export const PATCH = apiRoute<{ id: string }>('users:manage', async ({ req, user, params }) => {
  const userId = idParam(params.id, 'user id');
  const body = await readJson(req, patchSchema);
  return 'role' in body ? setUserRole(db(), user.id, userId, body.role) : setUserDisabled(db(), user.id, userId, body.disabled);
});
