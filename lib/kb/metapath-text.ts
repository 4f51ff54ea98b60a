import type { Params } from '../db/params';
import type { Queryable } from '../db/transaction';
import type { Bm25Index } from '../retrieval/bm25-index';
import { matchWithinSql, snippetSql } from '../retrieval/bm25-search';
import { parseSearchQuery, plainQuery, type SearchQuery } from '../retrieval/search-query';
import { tokenise } from '../retrieval/tokenise';
import { anyWordQuery } from './any-word-query';
import { headlineSql } from './highlight';

/** A metapath page filtered or ordered by text: CTEs over `reach` ending in `hits` (the set the total counts), and the page. */
export interface TextPage {
  ctes: string[];
  page: string;
  /** The words `covered` counts (BM25 only). */
  words: string[];
}

// Ties within a billionth are ties (see searchBm25).
const BY_SCORE = (score: string) => `round(${score} * 1e9) DESC`;

/**
 * The page of the reached set (CTE `reach`) for a text filter `q` (search syntax: any word, or strict) or a
 * `relevance` ordering (any word, nothing filtered out, non-matches last), ranked by BM25 then degree, name
 * and id, as explorer search ranks. Without a ranking index (`index` null) PostgreSQL full-text search stands
 * in: `q` as web search syntax, `relevance` by ts_rank over any word.
 */
export async function textPage(db: Queryable, index: Bm25Index | null, text: { q?: string; relevance?: string }, p: Params, kb: string, limit: string, offset: string): Promise<TextPage | null> {
  const q = text.q?.trim();
  const relevance = q ? undefined : text.relevance?.trim();
  if (!q && !relevance) return null;
  if (!index) return q ? fullTextFilter(q, p, kb, limit, offset) : fullTextRelevance(relevance!, p, kb, limit, offset);
  const query: SearchQuery = q ? parseSearchQuery(q) : plainQuery(relevance!);
  const match = await matchWithinSql(db, index, query, p, kb, 'reach');
  if (q) {
    if (!match) return { ctes: ['hits AS (SELECT id FROM reach WHERE false)'], page: 'SELECT id FROM hits', words: query.words };
    return {
      words: query.words,
      ctes: [...match.ctes, `hits AS MATERIALIZED (
         SELECT m.entity_id AS id, m.score, m.words, x.name, x.degree FROM matched m JOIN entity x ON x.kb_id = ${kb} AND x.id = m.entity_id)`],
      page: `SELECT h.id, h.name, h.degree, h.score, cardinality(h.words) AS covered, ${snippetSql(p, match.list, 'x.text', 'h.words')} AS snippet
         FROM (SELECT * FROM hits ORDER BY ${BY_SCORE('score')}, degree DESC, name, id LIMIT ${limit} OFFSET ${offset}) h
         JOIN entity x ON x.kb_id = ${kb} AND x.id = h.id
        ORDER BY ${BY_SCORE('h.score')}, h.degree DESC, h.name, h.id`,
    };
  }
  const matched = match ? match.ctes : ['matched AS (SELECT NULL::int AS entity_id, 0::float8 AS score, NULL::int[] AS words WHERE false)'];
  return {
    words: query.words,
    ctes: [...matched, 'hits AS (SELECT id FROM reach)',
      // Everything reached, the matches with their scores; a hashed subplan finds the rest (hash joins are off).
      `ranked AS MATERIALIZED (
         SELECT entity_id AS id, score, cardinality(words) AS covered FROM matched
         UNION ALL
         SELECT r.id, 0, 0 FROM reach r WHERE (r.id IN (SELECT entity_id FROM matched)) IS NOT TRUE)`],
    page: `SELECT n.id, n.name, n.degree, rk.score, rk.covered FROM ranked rk JOIN entity n ON n.kb_id = ${kb} AND n.id = rk.id
            ORDER BY ${BY_SCORE('rk.score')}, n.degree DESC, n.name, n.id LIMIT ${limit} OFFSET ${offset}`,
  };
}

function fullTextFilter(q: string, p: Params, kb: string, limit: string, offset: string): TextPage {
  const query = `websearch_to_tsquery('english', ${p.add(q)})`;
  return {
    words: [],
    ctes: [`hits AS MATERIALIZED (
       SELECT x.id, x.name, x.degree, x.text, ts_rank_cd(s.search, ${query}) AS score
         FROM reach r JOIN entity_search s ON s.kb_id = ${kb} AND s.id = r.id AND s.search @@ ${query}
         JOIN entity x ON x.kb_id = ${kb} AND x.id = r.id)`],
    page: `SELECT h.id, h.name, h.degree, h.score, ${headlineSql('english', 'h.text', query, `${p.add(tokenise(q))}::text[]`)} AS snippet
         FROM (SELECT * FROM hits ORDER BY score DESC, degree DESC, name, id LIMIT ${limit} OFFSET ${offset}) h
        ORDER BY h.score DESC, h.degree DESC, h.name, h.id`,
  };
}

function fullTextRelevance(text: string, p: Params, kb: string, limit: string, offset: string): TextPage {
  return {
    words: [],
    ctes: ['hits AS (SELECT id FROM reach)', `ranked AS MATERIALIZED (
       SELECT r.id, coalesce(ts_rank(s.search, w.q, 1), 0)::float8 AS score
         FROM reach r CROSS JOIN (SELECT ${anyWordQuery(p.add(text))} AS q OFFSET 0) w
         LEFT JOIN entity_search s ON s.kb_id = ${kb} AND s.id = r.id AND s.search @@ w.q)`],
    page: `SELECT n.id, n.name, n.degree, rk.score FROM ranked rk JOIN entity n ON n.kb_id = ${kb} AND n.id = rk.id
            ORDER BY rk.score DESC, n.degree DESC, n.name, n.id LIMIT ${limit} OFFSET ${offset}`,
  };
}
