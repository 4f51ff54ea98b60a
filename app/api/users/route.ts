import { apiRoute, json, readJson } from '@/lib/http/api';
import { db } from '@/lib/db/client';
import { createUser, listUsers, newUserSchema } from '@/lib/auth/users';

export const GET = apiRoute('users:manage', async () => ({ users: await listUsers(db()) }));

export const POST = apiRoute('users:manage', async ({ req, user }) => {
  const input = await readJson(req, newUserSchema);
  return json(await createUser(db(), input, user.id), 201);
});
