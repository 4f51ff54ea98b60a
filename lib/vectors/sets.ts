import { z } from 'zod';
import { badRequest } from '../errors';
import type { Queryable } from '../db/transaction';
import { readVector } from './vector';

/** Embedding set names: what a model or file is called, e.g. "ada-002" or "text-embedding-3-large". */
export const embeddingNameSchema = z.string().trim().min(1, 'name is empty').max(100, 'name is longer than 100 characters')
  .regex(/^[\w.:+-]+$/, 'name may only hold letters, digits and . _ : + -');

export interface EmbeddingSetRow {
  id: number;
  kbId: number;
  name: string;
  dimension: number;
  count: number;
  fileName: string;
  createdAt: string;
  createdBy: string | null;
}

const FIELDS = `s.id, s.kb_id AS "kbId", s.name, s.dimension, s.count, s.file_name AS "fileName", s.created_at AS "createdAt",
  coalesce(u.name, u.email) AS "createdBy"`;

/** A knowledge base's entity embedding sets, or (with a query set) that set's query embedding sets, by name. */
export async function listEmbeddingSets(db: Queryable, kbId: number, querySetId: number | null = null): Promise<EmbeddingSetRow[]> {
  const { rows } = await db.query<EmbeddingSetRow>(
    `SELECT ${FIELDS} FROM embedding_set s LEFT JOIN app_user u ON u.id = s.created_by
      WHERE s.kb_id = $1 AND s.query_set_id IS NOT DISTINCT FROM $2 ORDER BY s.name`, [kbId, querySetId]);
  return rows;
}

/** The entity set and the query set of one name a vector run compares: 400 when either is missing or they disagree. */
export async function embeddingPair(db: Queryable, kbId: number, querySetId: number, name: string): Promise<{ entities: EmbeddingSetRow; queries: EmbeddingSetRow }> {
  const { rows } = await db.query<EmbeddingSetRow & { querySet: boolean }>(
    `SELECT ${FIELDS}, s.query_set_id IS NOT NULL AS "querySet" FROM embedding_set s LEFT JOIN app_user u ON u.id = s.created_by
      WHERE s.kb_id = $1 AND (s.query_set_id IS NULL OR s.query_set_id = $2) AND s.name = $3`, [kbId, querySetId, name]);
  const entities = rows.find((r) => !r.querySet);
  const queries = rows.find((r) => r.querySet);
  if (!entities) throw badRequest(`embeddings: the knowledge base has no entity embeddings named "${name}"`);
  if (!queries) throw badRequest(`embeddings: the query set has no query embeddings named "${name}"`);
  if (entities.dimension !== queries.dimension) {
    throw badRequest(`embeddings: "${name}" entity vectors have ${entities.dimension} dimensions, its query vectors ${queries.dimension}`);
  }
  return { entities, queries };
}

/** The stored vectors of the given ids (those the set has), as unit-length float32. */
export async function vectorsOf(db: Queryable, set: { id: number; dimension: number }, ids: string[]): Promise<Map<string, Float32Array>> {
  const { rows } = await db.query<{ item_id: string; vector: Buffer }>(
    'SELECT item_id, vector FROM embedding_vector WHERE set_id = $1 AND item_id = ANY($2::text[])', [set.id, ids]);
  const found = new Map<string, Float32Array>();
  for (const r of rows) {
    const v = new Float32Array(set.dimension);
    if (readVector(r.vector, v, 0, set.dimension)) found.set(r.item_id, v);
  }
  return found;
}

const PAGE = 2000;

/**
 * Every entity vector of a set whose entity the knowledge base still has (a re-import may have dropped some),
 * with the entity's internal id (rankings break ties by it), a page at a time in id order.
 */
export async function* entityVectorPages(db: Queryable, set: { id: number; kbId: number }): AsyncIterable<{ itemId: string; entityId: number; vector: Buffer }[]> {
  let after = '';
  for (;;) {
    const { rows } = await db.query<{ item_id: string; entity_id: number; vector: Buffer }>(
      `SELECT v.item_id, e.id AS entity_id, v.vector FROM embedding_vector v
         JOIN entity e ON e.kb_id = $2 AND e.external_id = v.item_id
        WHERE v.set_id = $1 AND v.item_id > $3 ORDER BY v.item_id LIMIT $4`, [set.id, set.kbId, after, PAGE]);
    if (!rows.length) return;
    yield rows.map((r) => ({ itemId: r.item_id, entityId: r.entity_id, vector: r.vector }));
    after = rows.at(-1)!.item_id;
    if (rows.length < PAGE) return;
  }
}
