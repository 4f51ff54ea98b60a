import type { Queryable } from '../db/transaction';
import { entityVectorPages } from './sets';
import { ScoreKernel } from './kernel';
import { readVector } from './vector';

/**
 * An entity embedding set in process memory: row i of the kernel's vectors is the unit vector of entity
 * `entityIds[i]`; `count` rows are filled.
 */
export interface EntityMatrix {
  setId: number;
  count: number;
  kernel: ScoreKernel;
  entityIds: Int32Array;
  externalIds: string[];
}

export interface EntitySetRef {
  id: number;
  kbId: number;
  dimension: number;
  count: number;
}

/**
 * Sets loaded, least recently used first. The key holds the knowledge base's version (a re-import renumbers
 * entities) and the set's id (a re-imported set gets a new one), so a stale matrix is never used.
 */
const loaded = new Map<string, { setId: number; bytes: number; matrix: Promise<EntityMatrix> }>();

/** How much memory loaded sets may take together (SKB_VECTOR_CACHE_MB, default 2,048 MiB); the newest is always kept. */
function budgetBytes(): number {
  const mb = Number(process.env.SKB_VECTOR_CACHE_MB);
  return (Number.isFinite(mb) && mb > 0 ? mb : 2048) * 1024 * 1024;
}

async function load(db: Queryable, set: EntitySetRef): Promise<EntityMatrix> {
  const kernel = new ScoreKernel(set.count, set.dimension);
  const entityIds = new Int32Array(set.count);
  const externalIds: string[] = [];
  let n = 0;
  for await (const page of entityVectorPages(db, set)) {
    for (const row of page) {
      if (n === set.count || !readVector(row.vector, kernel.vectors, n * kernel.stride, set.dimension)) continue;
      entityIds[n] = row.entityId;
      externalIds.push(row.itemId);
      n++;
    }
  }
  return { setId: set.id, count: n, kernel, entityIds, externalIds };
}

/** The set's vectors, read from the database once per process and kept until the set or the knowledge base changes. */
export async function entityMatrix(db: Queryable, set: EntitySetRef): Promise<EntityMatrix> {
  const version = await db.query<{ v: string }>('SELECT extract(epoch FROM updated_at)::text AS v FROM knowledge_base WHERE id = $1', [set.kbId]);
  const key = `${set.id}@${version.rows[0]?.v}`;
  const hit = loaded.get(key);
  if (hit) {
    loaded.delete(key);
    loaded.set(key, hit);
    return hit.matrix;
  }
  for (const [k, entry] of loaded) if (entry.setId === set.id) loaded.delete(k);
  const bytes = set.count * (Math.ceil(set.dimension / 16) * 64 + 8 + 64);
  let total = bytes;
  for (const entry of loaded.values()) total += entry.bytes;
  for (const [k, entry] of loaded) {
    if (total <= budgetBytes()) break;
    loaded.delete(k);
    total -= entry.bytes;
  }
  const matrix = load(db, set);
  loaded.set(key, { setId: set.id, bytes, matrix });
  matrix.catch(() => loaded.delete(key));
  return matrix;
}

/** Drops a set that was replaced or deleted. */
export function forgetSet(setId: number): void {
  for (const [k, entry] of loaded) if (entry.setId === setId) loaded.delete(k);
}
