import { apiRoute } from '@/lib/http/api';
import { pool } from '@/lib/db/client';
import { visibleQuerySet } from '@/lib/queries/access';
import { deleteQuerySet } from '@/lib/queries/sets';

type Params = { slug: string; name: string };

export const GET = apiRoute<Params>('kb:browse', async ({ user, params }) => (await visibleQuerySet(user, params.slug, params.name)).set);

/** Deletes the set with its queries, releases and runs. */
export const DELETE = apiRoute<Params>('queries:manage', async ({ user, params }) => {
  const { set } = await visibleQuerySet(user, params.slug, params.name);
  await deleteQuerySet(pool(), set, user.id);
  return { deleted: set.name };
});
