import { apiRoute, idParam } from '@/lib/http/api';
import { db, pool } from '@/lib/db/client';
import { getVisibleKb } from '@/lib/kb/access';
import { getEntity, relationCounts } from '@/lib/kb/entity';

/** An entity's document, flattened text and edge counts per relation and direction. */
export const GET = apiRoute<{ slug: string; id: string }>('kb:browse', async ({ user, params }) => {
  const kb = await getVisibleKb(db(), user, params.slug);
  const entityId = idParam(params.id, 'entity id');
  const [entity, relations] = await Promise.all([getEntity(pool(), kb.id, entityId), relationCounts(pool(), kb.id, entityId)]);
  return { ...entity, relations };
});
