import { apiRoute, idParam } from '@/lib/http/api';
import { db, readPool } from '@/lib/db/client';
import { getVisibleKb } from '@/lib/kb/access';
import { getEntity, relationCounts } from '@/lib/kb/entity';

/** An entity's document, flattened text and edge counts per relation and direction. */
export const GET = apiRoute<{ slug: string; id: string }>('kb:browse', async ({ user, params }) => {
  const kb = await getVisibleKb(db(), user, params.slug);
  const entityId = idParam(params.id, 'entity id');
  const [entity, relations] = await Promise.all([getEntity(readPool(), kb.id, entityId), relationCounts(readPool(), kb.id, entityId)]);
  return { ...entity, relations };
});
