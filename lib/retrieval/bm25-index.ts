import type pg from 'pg';
import { inTransaction, type Database, type Queryable } from '../db/transaction';
import { retrieverText } from '../kb/retriever-text';
import { termCounts, tokenise } from './tokenise';

/** A built index's identity and the collection statistics scoring needs. */
export interface Bm25Index {
  id: number;
  docs: number;
  avgLength: number;
}

/** Entities read (and postings written) per round trip. */
const PAGE = 500;

/** The index of the knowledge base's current version, or null when it was never built or a re-import made it stale. */
export async function currentIndex(db: Queryable, kbId: number, relations: boolean): Promise<Bm25Index | null> {
  const { rows } = await db.query<Bm25Index>(
    `SELECT i.id, i.docs, i.avg_length AS "avgLength" FROM bm25_index i JOIN knowledge_base k ON k.id = i.kb_id
      WHERE i.kb_id = $1 AND i.relations = $2 AND i.kb_version = k.updated_at`, [kbId, relations]);
  return rows[0] ?? null;
}

/**
 * The current index, built first if missing or stale. The build reads entities in id order a page at a time,
 * tokenises them here and writes terms, postings and lengths in one transaction, so a build that dies leaves
 * the previous state; builds of the same knowledge base wait for each other and the later one finds it done.
 * Documents are the flattened entity text, plus STaRK's relation lines when `relations` (much slower to build:
 * neighbours are read entity by entity).
 */
export async function ensureIndex(db: Database, kbId: number, relations: boolean): Promise<Bm25Index> {
  const ready = await currentIndex(db, kbId, relations);
  if (ready) return ready;
  return inTransaction(db, async (client) => {
    await client.query(`SELECT pg_advisory_xact_lock(hashtext('bm25_index'), $1)`, [kbId]);
    const built = await currentIndex(client, kbId, relations);
    if (built) return built;
    return buildIndex(client, kbId, relations);
  });
}

async function buildIndex(client: pg.PoolClient, kbId: number, relations: boolean): Promise<Bm25Index> {
  await client.query('DELETE FROM bm25_index WHERE kb_id = $1 AND relations = $2', [kbId, relations]);
  // Statistics are filled in at the end; the row exists first so postings can reference it.
  const { rows } = await client.query<{ id: number }>(
    `INSERT INTO bm25_index (kb_id, relations, kb_version, docs, avg_length)
     SELECT id, $2, updated_at, 0, 0 FROM knowledge_base WHERE id = $1 RETURNING id`, [kbId, relations]);
  const indexId = rows[0]!.id;
  const termIds = new Map<string, number>();
  const df: number[] = [];
  let docs = 0;
  let tokens = 0;
  let after = 0;
  for (;;) {
    const page = await client.query<{ id: number; text: string }>(
      'SELECT id, text FROM entity WHERE kb_id = $1 AND id > $2 ORDER BY id LIMIT $3', [kbId, after, PAGE]);
    if (!page.rows.length) break;
    const posting = { term: [] as number[], entity: [] as number[], tf: [] as number[] };
    const lengths = { entity: [] as number[], length: [] as number[] };
    for (const e of page.rows) {
      const text = relations ? await retrieverText(client, kbId, e.id) : e.text;
      const words = tokenise(text);
      for (const [term, tf] of termCounts(words)) {
        let id = termIds.get(term);
        if (id === undefined) {
          id = termIds.size + 1;
          termIds.set(term, id);
          df[id] = 0;
        }
        df[id]! += 1;
        posting.term.push(id);
        posting.entity.push(e.id);
        posting.tf.push(tf);
      }
      lengths.entity.push(e.id);
      lengths.length.push(words.length);
      tokens += words.length;
    }
    await client.query(
      'INSERT INTO bm25_posting (index_id, term_id, entity_id, tf) SELECT $1, * FROM unnest($2::int[], $3::int[], $4::int[])',
      [indexId, posting.term, posting.entity, posting.tf]);
    await client.query('INSERT INTO bm25_doc (index_id, entity_id, length) SELECT $1, * FROM unnest($2::int[], $3::int[])', [indexId, lengths.entity, lengths.length]);
    docs += page.rows.length;
    after = page.rows.at(-1)!.id;
  }
  const terms = [...termIds];
  for (let i = 0; i < terms.length; i += 10 * PAGE) {
    const slice = terms.slice(i, i + 10 * PAGE);
    await client.query('INSERT INTO bm25_term (index_id, id, term, df) SELECT $1, * FROM unnest($2::int[], $3::text[], $4::int[])',
      [indexId, slice.map(([, id]) => id), slice.map(([term]) => term), slice.map(([, id]) => df[id]!)]);
  }
  const avgLength = docs ? tokens / docs : 0;
  await client.query('UPDATE bm25_index SET docs = $2, avg_length = $3 WHERE id = $1', [indexId, docs, avgLength]);
  // Fresh statistics: planned on empty tables' estimates, scoring takes a hundred times longer.
  await client.query('ANALYZE bm25_term, bm25_posting, bm25_doc');
  return { id: indexId, docs, avgLength };
}
