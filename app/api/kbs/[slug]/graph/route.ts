import { apiRoute, parseWith } from '@/lib/http/api';
import { db, readPool } from '@/lib/db/client';
import { getVisibleKb } from '@/lib/kb/access';
import { graphQuerySchema } from '@/lib/kb/explorer-params';
import { neighbourhood } from '@/lib/kb/neighbourhood';

/**
 * The neighbourhood view: ?entity= (required), ?hops= 1-3, repeatable ?rel= (relation names; none = all),
 * ?dir= both|out|in, ?budget= elements (1-500). Expanding a node is the same call with that node and hops=1.
 */
export const GET = apiRoute<{ slug: string }>('kb:browse', async ({ req, user, params }) => {
  const kb = await getVisibleKb(db(), user, params.slug);
  const search = new URL(req.url).searchParams;
  const query = parseWith(graphQuerySchema, { ...Object.fromEntries(search), rel: search.getAll('rel') }, 'query');
  return neighbourhood(readPool(), kb.id, { entityId: query.entity, hops: query.hops, relations: query.rel, direction: query.dir, budget: query.budget });
});
