import { z } from 'zod';
import { apiRoute, parseWith } from '@/lib/http/api';
import { pool } from '@/lib/db/client';
import { visibleQuerySet } from '@/lib/queries/access';
import { idTextSchema } from '@/lib/input';
import { compareStoredRuns } from '@/lib/queries/runs';

const querySchema = z.object({ a: idTextSchema, b: idTextSchema });

/** Two runs side by side: mean per metric, the difference, wins and losses, a paired randomization test. */
export const GET = apiRoute<{ slug: string; name: string }>('kb:browse', async ({ req, user, params }) => {
  const { set } = await visibleQuerySet(user, params.slug, params.name);
  const { a, b } = parseWith(querySchema, Object.fromEntries(new URL(req.url).searchParams), 'query');
  return compareStoredRuns(pool(), set.id, a, b);
});
