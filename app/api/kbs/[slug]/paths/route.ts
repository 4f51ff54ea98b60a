import { z } from 'zod';
import { apiRoute, parseWith } from '@/lib/http/api';
import { db, readPool } from '@/lib/db/client';
import { getVisibleKb } from '@/lib/kb/access';
import { idTextSchema } from '@/lib/input';
import { findPaths, MAX_PATH_HOPS } from '@/lib/kb/paths';

const querySchema = z.object({
  from: idTextSchema,
  to: idTextSchema,
  hops: z.coerce.number().int().min(1).max(MAX_PATH_HOPS).default(MAX_PATH_HOPS),
  rel: z.array(z.string().trim().min(1).max(200)).max(50).default([]),
});

/** Simple paths of up to ?hops= (1-3, default 3) edges between ?from= and ?to=, repeatable ?rel= filter. */
export const GET = apiRoute<{ slug: string }>('kb:browse', async ({ req, user, params }) => {
  const kb = await getVisibleKb(db(), user, params.slug);
  const search = new URL(req.url).searchParams;
  const { from, to, hops, rel } = parseWith(querySchema, { ...Object.fromEntries(search), rel: search.getAll('rel') }, 'query');
  return findPaths(readPool(), kb.id, { from, to, maxHops: hops, relations: rel });
});
