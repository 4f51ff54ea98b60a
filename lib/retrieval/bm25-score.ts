import type { Queryable } from '../db/transaction';
import type { Bm25Params } from './bm25';
import type { Bm25Index } from './bm25-index';
import { tokenise } from './tokenise';

/**
 * Ranks entities for each text by Okapi BM25 over the index: every distinct query word counts once (any
 * word may match), the term weights (see `termWeight`) are summed per entity, ties go to the lower entity
 * id, and the top `depth` come back as external ids. Only the postings of the query's terms are read.
 */
export async function rankBm25(db: Queryable, kbId: number, index: Bm25Index, params: Bm25Params, texts: string[], depth: number): Promise<string[][]> {
  const n: number[] = [];
  const terms: string[] = [];
  texts.forEach((text, i) => {
    for (const term of new Set(tokenise(text))) {
      n.push(i + 1);
      terms.push(term);
    }
  });
  const { rows } = await db.query<{ n: number; ranking: string[] }>(
    `WITH q AS (
       SELECT u.n, t.id, ln(1 + ($4::float8 - t.df + 0.5) / (t.df::float8 + 0.5)) AS idf
         FROM unnest($2::int[], $3::text[]) AS u(n, term)
         JOIN bm25_term t ON t.index_id = $1 AND t.term = u.term),
     scored AS (
       SELECT q.n, p.entity_id, sum(q.idf * p.tf * ($6::float8 + 1) / (p.tf + $6::float8 * (1 - $7::float8 + $7::float8 * d.length / $5::float8))) AS score
         FROM q
         JOIN bm25_posting p ON p.index_id = $1 AND p.term_id = q.id
         JOIN bm25_doc d ON d.index_id = $1 AND d.entity_id = p.entity_id
        GROUP BY q.n, p.entity_id),
     ranked AS (
       SELECT n, entity_id, row_number() OVER (PARTITION BY n ORDER BY score DESC, entity_id) AS r FROM scored)
     SELECT r.n, array_agg(e.external_id ORDER BY r.r) AS ranking
       FROM ranked r JOIN entity e ON e.kb_id = $8 AND e.id = r.entity_id
      WHERE r.r <= $9
      GROUP BY r.n`,
    [index.id, n, terms, index.docs, index.avgLength, params.k1, params.b, kbId, depth]);
  const byText = new Map(rows.map((r) => [r.n, r.ranking]));
  return texts.map((_, i) => byText.get(i + 1) ?? []);
}
