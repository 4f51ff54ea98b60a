import { z } from 'zod';
import { apiRoute, parseWith } from '@/lib/http/api';
import { db, readPool } from '@/lib/db/client';
import { getVisibleKb } from '@/lib/kb/access';
import { idTextSchema } from '@/lib/input';
import { MAX_ELEMENTS, MAX_HOPS, neighbourhood } from '@/lib/kb/neighbourhood';

const querySchema = z.object({
  entity: idTextSchema,
  hops: z.coerce.number().int().min(1).max(MAX_HOPS).default(1),
  rel: z.array(z.string().trim().min(1, 'must not be empty').max(200)).max(100).default([]),
  dir: z.enum(['both', 'out', 'in']).default('both'),
  budget: z.coerce.number().int().min(1).max(MAX_ELEMENTS).default(MAX_ELEMENTS),
});

/**
 * The neighbourhood view: ?entity= (required), ?hops= 1-3, repeatable ?rel= (relation names; none = all),
 * ?dir= both|out|in, ?budget= elements (1-500). Expanding a node is the same call with that node and hops=1.
 */
export const GET = apiRoute<{ slug: string }>('kb:browse', async ({ req, user, params }) => {
  const kb = await getVisibleKb(db(), user, params.slug);
  const search = new URL(req.url).searchParams;
  const query = parseWith(querySchema, { ...Object.fromEntries(search), rel: search.getAll('rel') }, 'query');
  return neighbourhood(readPool(), kb.id, { entityId: query.entity, hops: query.hops, relations: query.rel, direction: query.dir, budget: query.budget });
});
