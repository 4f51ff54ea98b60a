import { apiRoute, idParam } from '@/lib/http/api';
import { db } from '@/lib/db/client';
import { endUserSessions } from '@/lib/auth/users';

/** Signs a user out everywhere (admins only): every session issued so far is refused. */
export const DELETE = apiRoute<{ id: string }>('users:manage', async ({ user, params }) => endUserSessions(db(), user.id, idParam(params.id, 'user id')));
