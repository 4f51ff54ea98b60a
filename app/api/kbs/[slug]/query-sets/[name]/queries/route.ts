import { z } from 'zod';
import { apiRoute, parseWith } from '@/lib/http/api';
import { pool } from '@/lib/db/client';
import { visibleQuerySet } from '@/lib/queries/access';
import { MAX_DB_ID } from '@/lib/input';
import { listQueries } from '@/lib/queries/sets';

const querySchema = z.object({
  split: z.string().max(100).optional(),
  q: z.string().max(500).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).max(MAX_DB_ID).default(0),
});

/** A page of the set's queries in file order, filtered by split or by text (or exact query id). */
export const GET = apiRoute<{ slug: string; name: string }>('kb:browse', async ({ req, user, params }) => {
  const { set } = await visibleQuerySet(user, params.slug, params.name);
  const opts = parseWith(querySchema, Object.fromEntries(new URL(req.url).searchParams), 'query');
  return listQueries(pool(), set.id, opts);
});
