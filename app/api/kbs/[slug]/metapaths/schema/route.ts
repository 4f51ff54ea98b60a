import { apiRoute } from '@/lib/http/api';
import { db, readPool } from '@/lib/db/client';
import { getVisibleKb } from '@/lib/kb/access';
import { metapathSchema } from '@/lib/kb/metapath';

/** The entity types, relations and (source type, relation, target type) triples a metapath can walk. */
export const GET = apiRoute<{ slug: string }>('kb:browse', async ({ user, params }) => {
  const kb = await getVisibleKb(db(), user, params.slug);
  return metapathSchema(readPool(), kb.id);
});
