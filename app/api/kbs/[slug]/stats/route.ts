import { apiRoute } from '@/lib/http/api';
import { db, readPool } from '@/lib/db/client';
import { getVisibleKb } from '@/lib/kb/access';
import { kbStatistics } from '@/lib/kb/stats';

/** Schema statistics computed at import: per type, relation and typed triple, degree distribution, hubs. */
export const GET = apiRoute<{ slug: string }>('kb:browse', async ({ user, params }) => {
  const kb = await getVisibleKb(db(), user, params.slug);
  return kbStatistics(readPool(), kb.id);
});
