import type { Queryable } from '../db/transaction';
import type { QueryRecord } from './types';

/** The queries of a live set, or of a frozen release. */
export type QuerySource = { setId: number } | { releaseId: number };

export interface StoredQuery extends QueryRecord {
  position: number;
  splitPosition: number | null;
}

const BATCH = 1000;

/** The table holding the source's queries and the column and value that pick them. */
function table(source: QuerySource): { name: string; column: string; from: string; key: number } {
  return 'setId' in source
    ? { name: 'query', column: 'set_id', from: 'query WHERE set_id = $1', key: source.setId }
    : { name: 'release_query', column: 'release_id', from: 'release_query WHERE release_id = $1', key: source.releaseId };
}

/**
 * Streams the queries in file order, a keyset page at a time, so exports of any size run in constant
 * memory on either database (the embedded one has no server-side cursors across requests).
 */
export async function* readQueries(db: Queryable, source: QuerySource): AsyncGenerator<StoredQuery> {
  const { from, key } = table(source);
  let after = -1;
  for (;;) {
    const { rows } = await db.query<{ external_id: string; position: number; text: string; answer_ids: string[]; seed_ids: string[]; split: string | null; split_position: number | null; metadata: Record<string, unknown> }>(
      `SELECT external_id, position, text, answer_ids, seed_ids, split, split_position, metadata
         FROM ${from} AND position > $2 ORDER BY position LIMIT ${BATCH}`, [key, after]);
    for (const r of rows) {
      yield { id: r.external_id, text: r.text, answers: r.answer_ids, seeds: r.seed_ids, split: r.split, metadata: r.metadata, position: r.position, splitPosition: r.split_position };
    }
    if (rows.length < BATCH) return;
    after = rows[rows.length - 1]!.position;
  }
}

/** The split names in use, and whether any query has seed ids (STaRK's human-generated layout). */
export async function querySourceShape(db: Queryable, source: QuerySource): Promise<{ splits: string[]; hasSeeds: boolean; count: number }> {
  const { from, key } = table(source);
  const { rows } = await db.query<{ splits: string[] | null; has_seeds: boolean | null; count: string }>(
    `SELECT array_agg(DISTINCT split) FILTER (WHERE split IS NOT NULL) AS splits,
            bool_or(cardinality(seed_ids) > 0) AS has_seeds, count(*) AS count FROM ${from}`, [key]);
  return { splits: (rows[0]?.splits ?? []).sort(), hasSeeds: Boolean(rows[0]?.has_seeds), count: Number(rows[0]?.count ?? 0) };
}

/** One split's query ids in the split file's order (queries put in a split without one come last, by position). */
export async function splitIds(db: Queryable, source: QuerySource, split: string): Promise<string[]> {
  const { from, key } = table(source);
  const { rows } = await db.query<{ external_id: string }>(
    `SELECT external_id FROM ${from} AND split = $2 ORDER BY split_position NULLS LAST, position`, [key, split]);
  return rows.map((r) => r.external_id);
}

/**
 * The first query whose id, or one of whose answer or seed ids, is not a non-negative integer (which STaRK's
 * CSV cannot hold); null when every id fits.
 */
export async function firstNonIntegerId(db: Queryable, source: QuerySource): Promise<{ query: string; id: string } | null> {
  const { name, column, key } = table(source);
  const { rows } = await db.query<{ query: string; id: string }>(
    `SELECT q.external_id AS query, bad.id FROM ${name} q
       CROSS JOIN LATERAL (SELECT x AS id FROM unnest(ARRAY[q.external_id] || q.answer_ids || q.seed_ids) x WHERE x !~ '^(0|[1-9][0-9]*)$' LIMIT 1) bad
      WHERE q.${column} = $1 ORDER BY q.position LIMIT 1`, [key]);
  return rows[0] ?? null;
}
