import { z } from 'zod';
import { apiRoute, idParam, readJson } from '@/lib/http/api';
import { db } from '@/lib/db/client';
import { setUserDisabled, setUserRole } from '@/lib/auth/users';
import { ROLES } from '@/lib/auth/roles';

const patchSchema = z
  .object({ role: z.enum(ROLES).optional(), disabled: z.boolean().optional() })
  .strict()
  .refine((b) => (b.role === undefined) !== (b.disabled === undefined), 'give either role or disabled');

/** Changes a user's role, or disables or enables the account (admins only; the last active admin keeps both). */
export const PATCH = apiRoute<{ id: string }>('users:manage', async ({ req, user, params }) => {
  const userId = idParam(params.id, 'user id');
  const body = await readJson(req, patchSchema);
  return body.role ? setUserRole(db(), user.id, userId, body.role) : setUserDisabled(db(), user.id, userId, body.disabled!);
});
