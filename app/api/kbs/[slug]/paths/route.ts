import { apiRoute, parseWith } from '@/lib/http/api';
import { db, readPool } from '@/lib/db/client';
import { getVisibleKb } from '@/lib/kb/access';
import { pathsQuerySchema } from '@/lib/kb/explorer-params';
import { findPaths } from '@/lib/kb/paths';

/** Simple paths of up to ?hops= (1-3, default 3) edges between ?from= and ?to=, repeatable ?rel= filter. */
export const GET = apiRoute<{ slug: string }>('kb:browse', async ({ req, user, params }) => {
  const kb = await getVisibleKb(db(), user, params.slug);
  const search = new URL(req.url).searchParams;
  const { from, to, hops, rel } = parseWith(pathsQuerySchema, { ...Object.fromEntries(search), rel: search.getAll('rel') }, 'query');
  return findPaths(readPool(), kb.id, { from, to, maxHops: hops, relations: rel });
});
