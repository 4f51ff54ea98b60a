import { z } from 'zod';
import { apiRoute, parseWith } from '@/lib/http/api';
import { pool } from '@/lib/db/client';
import { visibleQuerySet } from '@/lib/queries/access';
import { idTextSchema } from '@/lib/input';
import { querySourceOf } from '@/lib/queries/releases';
import { querySourceStats } from '@/lib/queries/stats';

const querySchema = z.object({ release: idTextSchema.optional() });

/** STaRK's Table 3 and 4 measures with the query-length and answer-count distributions, per split too. */
export const GET = apiRoute<{ slug: string; name: string }>('kb:browse', async ({ req, user, params }) => {
  const { kb, set } = await visibleQuerySet(user, params.slug, params.name);
  const { release } = parseWith(querySchema, Object.fromEntries(new URL(req.url).searchParams), 'query');
  return querySourceStats(pool(), kb.id, await querySourceOf(pool(), set.id, release));
});
