import { apiRoute, idParam } from '@/lib/http/api';
import { pool } from '@/lib/db/client';
import { visibleQuerySet } from '@/lib/queries/access';
import { deleteRun, getRun } from '@/lib/queries/runs';

type Params = { slug: string; name: string; id: string };

/** A run's status, progress and scores overall and per split. */
export const GET = apiRoute<Params>('kb:browse', async ({ user, params }) => {
  const { set } = await visibleQuerySet(user, params.slug, params.name);
  return getRun(pool(), set.id, idParam(params.id, 'run id'));
});

export const DELETE = apiRoute<Params>('queries:manage', async ({ user, params }) => {
  const { set } = await visibleQuerySet(user, params.slug, params.name);
  const id = idParam(params.id, 'run id');
  await deleteRun(pool(), { setId: set.id, kbId: set.kbId, releaseId: null }, id, user.id);
  return { deleted: id };
});
