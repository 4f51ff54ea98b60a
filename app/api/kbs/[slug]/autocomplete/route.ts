import { z } from 'zod';
import { apiRoute, parseWith } from '@/lib/http/api';
import { db, readPool } from '@/lib/db/client';
import { getVisibleKb } from '@/lib/kb/access';
import { autocomplete } from '@/lib/kb/autocomplete';

const querySchema = z.object({
  q: z.string().trim().min(1, 'must not be empty').max(200),
  limit: z.coerce.number().int().min(1).max(50).default(10),
});

/** Typo-tolerant name completion plus exact id / external id hits: ?q=, ?limit= (1-50, default 10). */
export const GET = apiRoute<{ slug: string }>('kb:browse', async ({ req, user, params }) => {
  const kb = await getVisibleKb(db(), user, params.slug);
  const { q, limit } = parseWith(querySchema, Object.fromEntries(new URL(req.url).searchParams), 'query');
  return { items: await autocomplete(readPool(), kb.id, q, limit) };
});
