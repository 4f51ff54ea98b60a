import { z } from 'zod';
import { apiRoute, idParam, readJson } from '@/lib/http/api';
import { db } from '@/lib/db/client';
import { resetPassword } from '@/lib/auth/users';

const bodySchema = z.object({ password: z.string() }).strict();

/** Sets a new password for a user (admins only) and ends the user's sessions; the password policy applies. */
export const PUT = apiRoute<{ id: string }>('users:manage', async ({ req, user, params }) => {
  const userId = idParam(params.id, 'user id');
  const { password } = await readJson(req, bodySchema);
  return resetPassword(db(), user.id, userId, password);
});
