import { inTransaction, type Database } from '../db/transaction';
import type { EntitySetRef } from './cache';
import type { RankedEntity, VectorSearch } from './search';
import { entityVectorPages } from './sets';
import { readVector } from './vector';

/*
 * The pgvector implementation. It is not exercised by the test suite: neither the PostgreSQL the tests run
 * on nor the embedded database package has the extension. A set's vectors are copied once, at its first
 * search, from the bytea rows into a `vector` column of a table created here (the migrations cannot
 * assume the extension); the copy goes with the set (foreign key). No ANN index: the search is exact.
 */
const SETUP = `CREATE EXTENSION IF NOT EXISTS vector;
  CREATE TABLE IF NOT EXISTS embedding_vector_pg (
    set_id INTEGER NOT NULL REFERENCES embedding_set(id) ON DELETE CASCADE,
    item_id TEXT NOT NULL,
    embedding vector NOT NULL,
    PRIMARY KEY (set_id, item_id))`;

const literal = (v: Float32Array) => `[${Array.prototype.join.call(v, ',')}]`;

async function ensureCopied(db: Database, set: EntitySetRef): Promise<void> {
  await db.query(SETUP);
  const copied = async (q: Pick<Database, 'query'>) => (await q.query('SELECT 1 FROM embedding_vector_pg WHERE set_id = $1 LIMIT 1', [set.id])).rows.length > 0;
  if (await copied(db)) return;
  await inTransaction(db, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`embedding_vector_pg:${set.id}`]);
    if (await copied(client)) return;
    const v = new Float32Array(set.dimension);
    for await (const page of entityVectorPages(client, set)) {
      const ids: string[] = [];
      const texts: string[] = [];
      for (const r of page) {
        if (!readVector(r.vector, v, 0, set.dimension)) continue;
        ids.push(r.itemId);
        texts.push(literal(v));
      }
      await client.query('INSERT INTO embedding_vector_pg (set_id, item_id, embedding) SELECT $1, i, e::vector FROM unnest($2::text[], $3::text[]) AS u(i, e)',
        [set.id, ids, texts]);
    }
  });
}

export const pgvectorSearch = (db: Database): VectorSearch => ({
  kind: 'pgvector',
  async nearest(set, queries, k) {
    await ensureCopied(db, set);
    const out: RankedEntity[][] = [];
    for (const q of queries) {
      const { rows } = await db.query<{ id: string; entity_id: number; score: number }>(
        `SELECT e.external_id AS id, e.id AS entity_id, 1 - (v.embedding <=> $2::vector) AS score
           FROM embedding_vector_pg v JOIN entity e ON e.kb_id = $3 AND e.external_id = v.item_id
          WHERE v.set_id = $1 ORDER BY v.embedding <=> $2::vector, e.id LIMIT $4`, [set.id, literal(q), set.kbId, k]);
      out.push(rows.map((r) => ({ id: r.id, entityId: r.entity_id, score: r.score })));
    }
    return out;
  },
  async rankOf(set, query, entityIds) {
    await ensureCopied(db, set);
    const { rows } = await db.query<{ id: number; rank: number }>(
      `WITH d AS (
         SELECT e.id, v.embedding <=> $2::vector AS distance
           FROM embedding_vector_pg v JOIN entity e ON e.kb_id = $3 AND e.external_id = v.item_id WHERE v.set_id = $1)
       SELECT t.id, (SELECT count(*) FROM d WHERE d.distance < t.distance OR (d.distance = t.distance AND d.id < t.id))::int + 1 AS rank
         FROM d t WHERE t.id = ANY($4::int[])`, [set.id, literal(query), set.kbId, entityIds]);
    const ranks = new Map<number, number | null>(entityIds.map((id) => [id, null]));
    for (const r of rows) ranks.set(r.id, r.rank);
    return ranks;
  },
});
