import { z } from 'zod';
import { apiRoute, readJson } from '@/lib/http/api';
import { db } from '@/lib/db/client';
import { emailSchema } from '@/lib/auth/users';
import { getVisibleKb } from '@/lib/kb/access';
import { addMember, assertCanManageKb, listMembers } from '@/lib/kb/members';

/** Who has access to a knowledge base (its managers only). */
export const GET = apiRoute<{ slug: string }>('kb:manage', async ({ user, params }) => {
  const kb = await getVisibleKb(db(), user, params.slug);
  await assertCanManageKb(db(), user, kb.id);
  return { visibility: kb.visibility, members: await listMembers(db(), kb.id) };
});

const addSchema = z.object({ email: emailSchema }).strict();

export const POST = apiRoute<{ slug: string }>('kb:manage', async ({ req, user, params }) => {
  const kb = await getVisibleKb(db(), user, params.slug);
  const { email } = await readJson(req, addSchema);
  return { members: await addMember(db(), user, kb, email) };
});
