import { apiRoute } from '@/lib/http/api';
import { pool } from '@/lib/db/client';
import { visibleQuerySet } from '@/lib/queries/access';
import { listEmbeddingSets } from '@/lib/vectors/sets';

/**
 * The embeddings a vector baseline of this query set can use: the set's query embedding sets, the knowledge
 * base's entity embedding sets, and the names both have with the same dimension (`usable`).
 */
export const GET = apiRoute<{ slug: string; name: string }>('kb:browse', async ({ user, params }) => {
  const { kb, set } = await visibleQuerySet(user, params.slug, params.name);
  const [entities, queries] = await Promise.all([listEmbeddingSets(pool(), kb.id), listEmbeddingSets(pool(), kb.id, set.id)]);
  const usable = queries.filter((q) => entities.some((e) => e.name === q.name && e.dimension === q.dimension)).map((q) => q.name);
  return { entities, queries, usable };
});
