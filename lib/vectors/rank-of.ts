import { badRequest } from '../errors';
import type { Database } from '../db/transaction';
import { vectorSearch } from './search';
import { listEmbeddingSets } from './sets';
import { unitVector } from './vector';

/**
 * Where the vector baseline would rank the given entities (internal ids) for a query vector, among the
 * knowledge base's entity vectors of the named set: `ranks` maps each id to its rank (1 is first, ties to
 * the lower entity id) or null when the set has no vector for it; `total` is how many entities are ranked.
 * Null when the knowledge base has no entity embeddings of that name.
 */
export async function vectorRankOf(db: Database, kbId: number, embeddingsName: string, queryVector: ArrayLike<number>, entityIds: number[]): Promise<{ total: number; ranks: Map<number, number | null> } | null> {
  const set = (await listEmbeddingSets(db, kbId)).find((s) => s.name === embeddingsName);
  if (!set) return null;
  if (queryVector.length !== set.dimension) throw badRequest(`vector: has ${queryVector.length} values; "${embeddingsName}" has ${set.dimension} dimensions`);
  const unit = unitVector(queryVector);
  if (typeof unit === 'string') throw badRequest(`vector: ${unit}`);
  const ranks = await (await vectorSearch(db)).rankOf(set, unit, entityIds);
  return { total: set.count, ranks };
}
