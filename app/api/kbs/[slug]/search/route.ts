import { apiRoute, parseWith } from '@/lib/http/api';
import { db, pool, readPool } from '@/lib/db/client';
import { getVisibleKb } from '@/lib/kb/access';
import { searchQuerySchema } from '@/lib/kb/explorer-params';
import { searchEntities } from '@/lib/kb/search';

/** Full-text search: ?q= (web syntax), repeatable ?type=, ?limit= (1-100), ?offset=. */
export const GET = apiRoute<{ slug: string }>('kb:browse', async ({ req, user, params }) => {
  const kb = await getVisibleKb(db(), user, params.slug);
  const search = new URL(req.url).searchParams;
  const { q, type, limit, offset } = parseWith(searchQuerySchema, { ...Object.fromEntries(search), type: search.getAll('type') }, 'query');
  return searchEntities(readPool(), kb.id, { query: q, types: type, limit, offset, primary: pool() });
});
