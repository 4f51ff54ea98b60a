import { z } from 'zod';
import { apiRoute, idParam, parseWith } from '@/lib/http/api';
import { pool } from '@/lib/db/client';
import { visibleQuerySet } from '@/lib/queries/access';
import { groupBySchema } from '@/lib/queries/run-groups';
import { deleteRun, getRun, runGroups } from '@/lib/queries/runs';

type Params = { slug: string; name: string; id: string };

const querySchema = z.object({ groupBy: groupBySchema.optional() });

/** A run's status, progress and scores overall and per split; with `?groupBy=`, also per query group. */
export const GET = apiRoute<Params>('kb:browse', async ({ req, user, params }) => {
  const { set } = await visibleQuerySet(user, params.slug, params.name);
  const id = idParam(params.id, 'run id');
  const { groupBy } = parseWith(querySchema, Object.fromEntries(new URL(req.url).searchParams), 'query');
  const run = await getRun(pool(), set.id, id);
  return groupBy ? { ...run, grouping: await runGroups(pool(), set.id, id, groupBy) } : run;
});

export const DELETE = apiRoute<Params>('queries:manage', async ({ user, params }) => {
  const { set } = await visibleQuerySet(user, params.slug, params.name);
  const id = idParam(params.id, 'run id');
  await deleteRun(pool(), { setId: set.id, kbId: set.kbId, releaseId: null }, id, user.id);
  return { deleted: id };
});
