import type pg from 'pg';
import { lookupEntities, type EntitySummary } from './lookup';

export interface AutocompleteItem extends EntitySummary {
  /** 1 for an exact hit (id, external id or whole name), else pg_trgm's word similarity to the query (0-1). */
  score: number;
}

/**
 * How close a name must be to count as a typo of the query: pg_trgm's word similarity (the trigrams the query
 * shares with the best-matching stretch of the name, over all the trigrams of either). 0.4 lets "Crohn
 * diseese" find "Crohn disease" and keeps unrelated names out.
 */
export const WORD_SIMILARITY_THRESHOLD = 0.4;

/**
 * Typos a long query may hold and still find its name. The threshold rises with the query's length: at 0.4 a
 * pasted 30-character name with common words in it made 49k of Amazon's 1.04M names candidates (900 ms).
 */
export const LONG_QUERY_TYPOS = 2;

/**
 * A typo takes up to 3 trigrams from what the query shares with the name and adds up to 3 of its own, so a
 * name within LONG_QUERY_TYPOS typos of a query of n trigrams has a word similarity above (n - s) / (n + s)
 * with this s, one to spare. Queries of up to 16 trigrams keep 0.4.
 */
export const TYPO_SLACK = 3 * LONG_QUERY_TYPOS + 1;

/**
 * Names read per kind of match (starting with the query, similar to it) before ranking: enough to rank
 * a typo's few candidates completely, and a bound on the work for a short or common query, whose
 * matches are many and alike.
 */
const CANDIDATES = 200;

const escapeLike = (q: string) => q.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Typo-tolerant name completion. Order: exact lookups (internal or external id), the exact name (any case),
 * names starting with the query, then names containing something trigram-close to it; ties by closeness,
 * then degree (better-connected entities are likelier targets). The exact name and the prefix are key ranges
 * of `entity_name_lower_idx`, the typos are found through the `entity_name_trgm_idx` GIN index, each read
 * with a LIMIT; the similarity threshold is set for this transaction only, so it needs a connection of its own.
 */
export async function autocomplete(pool: Pick<pg.Pool, 'connect'>, kbId: number, query: string, limit: number): Promise<AutocompleteItem[]> {
  const q = query.trim();
  if (!q) return [];
  const client = await pool.connect();
  try {
    await client.query('BEGIN READ ONLY');
    await client.query(
      `SELECT set_config('pg_trgm.word_similarity_threshold', greatest($1::float8, (n - $2::float8) / (n + $2::float8))::text, true)
         FROM cardinality(show_trgm($3::text)) n`,
      [WORD_SIMILARITY_THRESHOLD, TYPO_SLACK, q],
    );
    const exact = await lookupEntities(client, kbId, q);
    const { rows } = await client.query<EntitySummary & { score: number }>(
      `WITH matches AS (
         (SELECT e.id, 0 AS tier FROM entity e WHERE e.kb_id = $1 AND lower(e.name) = lower($2) LIMIT $4)
         UNION ALL
         (SELECT e.id, 1 FROM entity e WHERE e.kb_id = $1 AND lower(e.name) LIKE lower($3) || '%' LIMIT $5)
         UNION ALL
         (SELECT e.id, 2 FROM entity e WHERE e.kb_id = $1 AND $2 <% e.name LIMIT $5))
       SELECT e.id, e.external_id AS "externalId", e.name, t.name AS type, e.degree,
              CASE WHEN m.tier = 0 THEN 1 ELSE word_similarity($2, e.name) END::float8 AS score
         FROM (SELECT id, min(tier) AS tier FROM matches GROUP BY id) m
         JOIN entity e ON e.kb_id = $1 AND e.id = m.id
         JOIN node_type t ON t.id = e.type_id
        ORDER BY m.tier, score DESC, e.degree DESC, e.name, e.id
        LIMIT $4`,
      [kbId, q, escapeLike(q), limit, CANDIDATES],
    );
    await client.query('COMMIT');
    const seen = new Set(exact.map((e) => e.id));
    return [...exact.map((e) => ({ ...e, score: 1 })), ...rows.filter((r) => !seen.has(r.id))].slice(0, limit);
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}
