import { apiRoute, readJson } from '@/lib/http/api';
import { db, pool } from '@/lib/db/client';
import { getVisibleKb } from '@/lib/kb/access';
import { previewSynthesis } from '@/lib/synthesis/preview';
import { previewSpecSchema } from '@/lib/synthesis/spec';

/** The first few items a job with this request would make (5 unless `count` says up to 10), writing no query. */
export const POST = apiRoute<{ slug: string }>('queries:manage', async ({ req, user, params }) => {
  const kb = await getVisibleKb(db(), user, params.slug);
  const spec = await readJson(req, previewSpecSchema);
  return { items: await previewSynthesis(pool(), kb.id, spec) };
});
