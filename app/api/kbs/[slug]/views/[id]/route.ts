import { apiRoute, idParam, readJson } from '@/lib/http/api';
import { db, pool } from '@/lib/db/client';
import { getVisibleKb } from '@/lib/kb/access';
import { deleteSavedView, getSavedView, updateSavedView, updateViewSchema, VIEW_BODY_LIMIT } from '@/lib/kb/saved-views';

/** One saved view with its whole state: the caller's own, or a shared one. */
export const GET = apiRoute<{ slug: string; id: string }>('kb:browse', async ({ user, params }) => {
  const kb = await getVisibleKb(db(), user, params.slug);
  return getSavedView(pool(), kb.id, user, idParam(params.id, 'id'));
});

/** Renames, shares or unshares, or overwrites the state: the owner, a curator or an admin. */
export const PATCH = apiRoute<{ slug: string; id: string }>('kb:browse', async ({ req, user, params }) => {
  const kb = await getVisibleKb(db(), user, params.slug);
  const id = idParam(params.id, 'id');
  const body = await readJson(req, updateViewSchema);
  return updateSavedView(pool(), kb.id, user, id, body);
}, { bodyLimit: VIEW_BODY_LIMIT });

export const DELETE = apiRoute<{ slug: string; id: string }>('kb:browse', async ({ user, params }) => {
  const kb = await getVisibleKb(db(), user, params.slug);
  const id = idParam(params.id, 'id');
  await deleteSavedView(pool(), kb.id, user, id);
  return { deleted: id };
});
