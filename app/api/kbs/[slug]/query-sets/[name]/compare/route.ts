import { z } from 'zod';
import { apiRoute, parseWith } from '@/lib/http/api';
import { pool } from '@/lib/db/client';
import { visibleQuerySet } from '@/lib/queries/access';
import { idTextSchema } from '@/lib/input';
import { groupBySchema } from '@/lib/queries/run-groups';
import { compareStoredRuns } from '@/lib/queries/runs';

const querySchema = z.object({ a: idTextSchema, b: idTextSchema, groupBy: groupBySchema.optional() });

/**
 * Two runs side by side: mean per metric, the difference, wins and losses, a paired randomization test;
 * with `groupBy`, also per query group.
 */
export const GET = apiRoute<{ slug: string; name: string }>('kb:browse', async ({ req, user, params }) => {
  const { set } = await visibleQuerySet(user, params.slug, params.name);
  const { a, b, groupBy } = parseWith(querySchema, Object.fromEntries(new URL(req.url).searchParams), 'query');
  return compareStoredRuns(pool(), set.id, a, b, groupBy);
});
