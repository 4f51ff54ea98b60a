import { apiRoute, json, MIB, readJson } from '@/lib/http/api';
import { db, pool } from '@/lib/db/client';
import { getVisibleKb } from '@/lib/kb/access';
import { listStudies } from '@/lib/studies/admin';
import { createStudy, studyInputSchema } from '@/lib/studies/create';

/** The knowledge base's studies; raters see them too, to take part. */
export const GET = apiRoute<{ slug: string }>('kb:browse', async ({ user, params }) => {
  const kb = await getVisibleKb(db(), user, params.slug);
  return { items: await listStudies(pool(), kb.id) };
});

/** Creates a study and snapshots its items; the study link's secret is in the answer, once. */
export const POST = apiRoute<{ slug: string }>('queries:manage', async ({ req, user, params }) => {
  const kb = await getVisibleKb(db(), user, params.slug);
  return json(await createStudy(pool(), kb.id, await readJson(req, studyInputSchema), user.id), 201);
}, { bodyLimit: MIB }); // instructions and consent text of up to 50,000 characters each, and the dimensions
