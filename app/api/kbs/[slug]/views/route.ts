import { apiRoute, json, readJson } from '@/lib/http/api';
import { db, pool } from '@/lib/db/client';
import { getVisibleKb } from '@/lib/kb/access';
import { createSavedView, createViewSchema, listSavedViews, VIEW_BODY_LIMIT } from '@/lib/kb/saved-views';

/** The caller's saved graph views of the knowledge base, then the ones others shared. */
export const GET = apiRoute<{ slug: string }>('kb:browse', async ({ user, params }) => {
  const kb = await getVisibleKb(db(), user, params.slug);
  return { items: await listSavedViews(pool(), kb.id, user) };
});

/** Saves a graph view under a name of the caller's; `shared` lets every reader of the knowledge base open it. */
export const POST = apiRoute<{ slug: string }>('kb:browse', async ({ req, user, params }) => {
  const kb = await getVisibleKb(db(), user, params.slug);
  const body = await readJson(req, createViewSchema);
  return json(await createSavedView(pool(), kb.id, user, body), 201);
}, { bodyLimit: VIEW_BODY_LIMIT });
