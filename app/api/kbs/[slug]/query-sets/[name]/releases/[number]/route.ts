import { apiRoute, idParam } from '@/lib/http/api';
import { pool } from '@/lib/db/client';
import { visibleQuerySet } from '@/lib/queries/access';
import { getRelease } from '@/lib/queries/releases';

/** One release: counts, hash, statistics and dataset card. */
export const GET = apiRoute<{ slug: string; name: string; number: string }>('kb:browse', async ({ user, params }) => {
  const { set } = await visibleQuerySet(user, params.slug, params.name);
  return getRelease(pool(), set.id, idParam(params.number, 'release number'));
});
