import type { Queryable } from '../db/transaction';
import type { Bm25Params } from './bm25';
import type { Bm25Index } from './bm25-index';
import { tokenise } from './tokenise';

/**
 * Where BM25 ranks each of `entityIds` for `text`: 1 + the number of entities scoring strictly higher, or
 * scoring the same with a lower id (the baseline's tie order), so a rank here is the entity's position in the
 * baseline's full ranking. An entity sharing no word with the query is not retrieved and has no rank (it is
 * left out of the map). The work is bounded by the postings of the query's terms: the entities they reach are
 * scored once, and only those scoring at least as high as the lowest-scoring target are ordered.
 */
export async function bm25RankOf(db: Queryable, index: Bm25Index, params: Bm25Params, text: string, entityIds: number[]): Promise<Map<number, number>> {
  const terms = [...new Set(tokenise(text))];
  if (!terms.length || !entityIds.length) return new Map();
  const { rows } = await db.query<{ entityId: number; rank: number }>(
    `WITH q AS (
       SELECT t.id, ln(1 + ($3::float8 - t.df + 0.5) / (t.df::float8 + 0.5)) AS idf
         FROM unnest($2::text[]) AS u(term) JOIN bm25_term t ON t.index_id = $1 AND t.term = u.term),
     scored AS (
       SELECT p.entity_id, sum(q.idf * p.tf * ($5::float8 + 1) / (p.tf + $5::float8 * (1 - $6::float8 + $6::float8 * d.length / $4::float8))) AS score
         FROM q
         JOIN bm25_posting p ON p.index_id = $1 AND p.term_id = q.id
         JOIN bm25_doc d ON d.index_id = $1 AND d.entity_id = p.entity_id
        GROUP BY p.entity_id),
     ranked AS (
       SELECT entity_id, row_number() OVER (ORDER BY score DESC, entity_id) AS rank
         FROM scored WHERE score >= (SELECT min(score) FROM scored WHERE entity_id = ANY($7::int[])))
     SELECT entity_id AS "entityId", rank::int FROM ranked WHERE entity_id = ANY($7::int[])`,
    [index.id, terms, index.docs, index.avgLength, params.k1, params.b, entityIds]);
  return new Map(rows.map((r) => [r.entityId, r.rank]));
}
