import { z } from 'zod';
import { apiRoute, parseWith } from '@/lib/http/api';
import { db, pool, readPool } from '@/lib/db/client';
import { getVisibleKb } from '@/lib/kb/access';
import { searchEntities } from '@/lib/kb/search';

const querySchema = z.object({
  q: z.string().trim().min(1, 'must not be empty').max(500),
  type: z.array(z.string().max(200)).max(100).default([]),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  offset: z.coerce.number().int().min(0).max(10_000).default(0),
});

/** Full-text search: ?q= (web syntax), repeatable ?type=, ?limit= (1-100), ?offset=. */
export const GET = apiRoute<{ slug: string }>('kb:browse', async ({ req, user, params }) => {
  const kb = await getVisibleKb(db(), user, params.slug);
  const search = new URL(req.url).searchParams;
  const { q, type, limit, offset } = parseWith(querySchema, { ...Object.fromEntries(search), type: search.getAll('type') }, 'query');
  return searchEntities(readPool(), kb.id, { query: q, types: type, limit, offset, primary: pool() });
});
