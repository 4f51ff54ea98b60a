import type { Database, Queryable } from '../db/transaction';
import { entityMatrix, type EntitySetRef } from './cache';
import { nearestRows, ranksOfEntities } from './memory-search';
import { pgvectorSearch } from './pgvector';

/** One ranked entity: its external id, internal id (ties go to the lower) and cosine similarity. */
export interface RankedEntity {
  id: string;
  entityId: number;
  score: number;
}

/**
 * Exact cosine nearest neighbours among a set's entity vectors. Two implementations answer it: pgvector's
 * `<=>` without an approximate index where the database has the extension, and a brute-force scan of the
 * vectors held in process memory where it does not. Both rank ties by the lower entity id.
 */
export interface VectorSearch {
  readonly kind: 'pgvector' | 'memory';
  nearest(set: EntitySetRef, queries: Float32Array[], k: number): Promise<RankedEntity[][]>;
  /** Where the given entities (internal ids) rank for the query: 1 is first; null without a vector. */
  rankOf(set: EntitySetRef, query: Float32Array, entityIds: number[]): Promise<Map<number, number | null>>;
}

export const memorySearch = (db: Queryable): VectorSearch => ({
  kind: 'memory',
  async nearest(set, queries, k) {
    const m = await entityMatrix(db, set);
    return queries.map((q) => nearestRows(m, q, k).map(({ row, score }) => ({ id: m.externalIds[row]!, entityId: m.entityIds[row]!, score })));
  },
  async rankOf(set, query, entityIds) {
    return ranksOfEntities(await entityMatrix(db, set), query, entityIds);
  },
});

const chosen = new WeakMap<object, Promise<VectorSearch>>();

/**
 * pgvector where `pg_available_extensions` lists `vector`, else the in-memory scan; decided once per
 * database handle. SKB_VECTOR_SEARCH=memory forces the scan.
 */
export function vectorSearch(db: Database): Promise<VectorSearch> {
  let found = chosen.get(db);
  if (!found) {
    found = (async () => {
      if (process.env.SKB_VECTOR_SEARCH === 'memory') return memorySearch(db);
      const { rows } = await db.query(`SELECT 1 FROM pg_available_extensions WHERE name = 'vector'`);
      return rows.length ? pgvectorSearch(db) : memorySearch(db);
    })();
    chosen.set(db, found);
  }
  return found;
}
