import { z } from 'zod';
import { apiRoute, readJson } from '@/lib/http/api';
import { db, readDb } from '@/lib/db/client';
import { getVisibleKb } from '@/lib/kb/access';
import { setVisibility } from '@/lib/kb/members';
import { kbSchemaSummary } from '@/lib/kb/schema-summary';

/** One knowledge base with its entity and relation types. */
export const GET = apiRoute<{ slug: string }>('kb:browse', async ({ user, params }) => {
  const kb = await getVisibleKb(db(), user, params.slug);
  return { ...kb, ...(await kbSchemaSummary(readDb(), kb.id)) };
});

const patchSchema = z.object({ visibility: z.enum(['PUBLIC', 'PRIVATE']) }).strict();

/** Makes a knowledge base public (every signed-in user) or private (admins and members). */
export const PATCH = apiRoute<{ slug: string }>('kb:manage', async ({ req, user, params }) => {
  const kb = await getVisibleKb(db(), user, params.slug);
  const { visibility } = await readJson(req, patchSchema);
  return { visibility: await setVisibility(db(), user, kb, visibility) };
});
