import { z } from 'zod';
import { apiRoute, idParam, parseWith } from '@/lib/http/api';
import { pool } from '@/lib/db/client';
import { visibleQuerySet } from '@/lib/queries/access';
import { MAX_DB_ID } from '@/lib/input';
import { RUN_QUERY_SORTS, runQueries } from '@/lib/queries/runs';

const querySchema = z.object({
  split: z.string().max(100).optional(),
  sort: z.enum(RUN_QUERY_SORTS).default('position'),
  limit: z.coerce.number().int().min(1).max(500).default(50),
  offset: z.coerce.number().int().min(0).max(MAX_DB_ID).default(0),
});

/** A page of the run's per-query scores, in set order or worst first by a metric. */
export const GET = apiRoute<{ slug: string; name: string; id: string }>('kb:browse', async ({ req, user, params }) => {
  const { set } = await visibleQuerySet(user, params.slug, params.name);
  const opts = parseWith(querySchema, Object.fromEntries(new URL(req.url).searchParams), 'query');
  return runQueries(pool(), set.id, idParam(params.id, 'run id'), opts);
});
