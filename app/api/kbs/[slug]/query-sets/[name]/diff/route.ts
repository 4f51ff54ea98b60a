import { z } from 'zod';
import { apiRoute, parseWith } from '@/lib/http/api';
import { pool } from '@/lib/db/client';
import { visibleQuerySet } from '@/lib/queries/access';
import { idTextSchema, MAX_DB_ID } from '@/lib/input';
import { diffReleases } from '@/lib/queries/releases';

const querySchema = z.object({
  from: idTextSchema,
  to: idTextSchema,
  limit: z.coerce.number().int().min(1).max(500).default(100),
  offset: z.coerce.number().int().min(0).max(MAX_DB_ID).default(0),
});

/** What changed between two releases: counts and a page of the changed queries. */
export const GET = apiRoute<{ slug: string; name: string }>('kb:browse', async ({ req, user, params }) => {
  const { set } = await visibleQuerySet(user, params.slug, params.name);
  const { from, to, ...page } = parseWith(querySchema, Object.fromEntries(new URL(req.url).searchParams), 'query');
  return diffReleases(pool(), set.id, from, to, page);
});
