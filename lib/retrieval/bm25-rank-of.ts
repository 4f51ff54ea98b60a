import type { Queryable } from '../db/transaction';
import type { Bm25Params } from './bm25';
import type { Bm25Index } from './bm25-index';
import { tokenise } from './tokenise';

/** A term's weight in a document (see `termWeight`): `q` the term's row, `p` its posting, `d` the document. */
const WEIGHT = 'q.idf * p.tf * ($5::float8 + 1) / (p.tf + $5::float8 * (1 - $6::float8 + $6::float8 * d.length / $4::float8))';
/** Slack on the score floor: sums of the same weights in another order may differ in the last bits. */
const SLACK = '(1 - 1e-9)';

/**
 * Where BM25 ranks each of `entityIds` for `text`: 1 + the number of entities scoring strictly higher, or
 * scoring the same with a lower id (the baseline's tie order), so a rank here is the entity's position in the
 * baseline's full ranking. An entity sharing no word with the query is not retrieved and has no rank (it is
 * left out of the map).
 *
 * Exact, without scoring every entity the query's words reach (MaxScore): a term can add at most
 * idf * (k1 + 1) to a score, so the commonest terms whose bounds sum to less than the lowest target score
 * (`floor`) cannot on their own lift an entity to it. Only entities with one of the other, rarer terms are
 * candidates; those whose partial score plus that bound still reaches the floor get their full score (the
 * common terms probed by key), and the targets are ranked among them.
 */
export async function bm25RankOf(db: Queryable, index: Bm25Index, params: Bm25Params, text: string, entityIds: number[]): Promise<Map<number, number>> {
  const terms = [...new Set(tokenise(text))];
  if (!terms.length || !entityIds.length) return new Map();
  const { rows } = await db.query<{ entityId: number; rank: number }>(
    `WITH q AS MATERIALIZED (
       SELECT t.id, ln(1 + ($3::float8 - t.df + 0.5) / (t.df::float8 + 0.5)) AS idf
         FROM unnest($2::text[]) AS u(term) JOIN bm25_term t ON t.index_id = $1 AND t.term = u.term),
     target AS MATERIALIZED (
       SELECT p.entity_id, sum(${WEIGHT}) AS score
         FROM q JOIN bm25_posting p ON p.index_id = $1 AND p.term_id = q.id AND p.entity_id = ANY($7::int[])
         JOIN bm25_doc d ON d.index_id = $1 AND d.entity_id = p.entity_id
        GROUP BY p.entity_id),
     floor AS MATERIALIZED (SELECT min(score) * ${SLACK} AS s FROM target),
     bound AS MATERIALIZED (SELECT id, sum(idf * ($5::float8 + 1)) OVER (ORDER BY idf, id) AS reach FROM q),
     common AS MATERIALIZED (SELECT b.id FROM bound b, floor f WHERE b.reach < f.s),
     common_reach AS MATERIALIZED (SELECT coalesce(max(b.reach), 0) AS ub FROM bound b, floor f WHERE b.reach < f.s),
     partial AS MATERIALIZED (
       SELECT p.entity_id, sum(${WEIGHT}) AS score
         FROM q JOIN bm25_posting p ON p.index_id = $1 AND p.term_id = q.id
         JOIN bm25_doc d ON d.index_id = $1 AND d.entity_id = p.entity_id
        WHERE q.id NOT IN (SELECT id FROM common)
        GROUP BY p.entity_id),
     scored AS MATERIALIZED (
       SELECT x.entity_id, x.score + coalesce((
                SELECT sum(${WEIGHT}) FROM common c JOIN q ON q.id = c.id
                  JOIN bm25_posting p ON p.index_id = $1 AND p.term_id = c.id AND p.entity_id = x.entity_id
                  JOIN bm25_doc d ON d.index_id = $1 AND d.entity_id = x.entity_id), 0) AS score
         FROM partial x, common_reach r, floor f
        WHERE x.score + r.ub >= f.s),
     ranked AS (
       SELECT s.entity_id, row_number() OVER (ORDER BY s.score DESC, s.entity_id) AS rank
         FROM scored s, floor f WHERE s.score >= f.s)
     SELECT entity_id AS "entityId", rank::int FROM ranked WHERE entity_id = ANY($7::int[])`,
    [index.id, terms, index.docs, index.avgLength, params.k1, params.b, entityIds]);
  return new Map(rows.map((r) => [r.entityId, r.rank]));
}
