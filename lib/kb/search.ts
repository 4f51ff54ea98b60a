import type { Database, Queryable } from '../db/transaction';
import { buildIndexInBackground, currentIndex } from '../retrieval/bm25-index';
import { searchBm25, type Bm25Hit } from '../retrieval/bm25-search';
import { parseSearchQuery } from '../retrieval/search-query';
import { tokenise } from '../retrieval/tokenise';
import { headlineSql } from './highlight';

export { MATCH_END, MATCH_START } from './highlight';

/** Up to this many matches a query is counted exactly and every match is ranked (full-text path). */
export const EXACT_MATCH_LIMIT = 1000;
/** Past it, ranking considers this many best-connected name matches and as many document matches (full-text path). */
export const BROAD_QUERY_CANDIDATES = 200;

/** A hit as search returns it: while the ranking index is built, `score` is ts_rank_cd and `covered` null. */
export interface SearchHit extends Omit<Bm25Hit, 'covered'> {
  covered: number | null;
}

export interface SearchResult {
  /** `bm25` from the ranking index; `fulltext` (every word must match) while that index is being built. */
  ranking: 'bm25' | 'fulltext';
  /** The query's distinct words, which `covered` counts. */
  words: string[];
  /** The query used operators (quotes, -word, AND, OR), so it is matched strictly. */
  strict: boolean;
  /** The number of matches; with `totalIsLowerBound`, only that there are at least this many. */
  total: number;
  totalIsLowerBound: boolean;
  hits: SearchHit[];
  /** BM25 with a phrase: set when the phrase was checked in only this many best-ranked candidates, which held fewer matches than the page. */
  checkedBest?: number;
}

export interface SearchOptions {
  /** A question or words (any may match), or strict syntax: "quoted phrases", OR, AND, -excluded. */
  query: string;
  types?: string[];
  limit: number;
  offset: number;
  /** Overrides EXACT_MATCH_LIMIT (full-text path). */
  exactMatchLimit?: number;
  /** Overrides POSTING_BUDGET (BM25 path). */
  postingBudget?: number;
  /** Where a missing ranking index is built when `db` is a read replica, which cannot write: the primary. Default `db`. */
  primary?: Database;
}

/**
 * Search over entity texts: ranked by BM25 from the knowledge base's ranking index (see `searchBm25`).
 * Without a current index (never built, or stale after a re-import) its build starts in the background (on
 * `opts.primary`) and the query is answered by full-text search meanwhile.
 */
export async function searchEntities(db: Database, kbId: number, opts: SearchOptions): Promise<SearchResult> {
  const query = parseSearchQuery(opts.query);
  const index = await currentIndex(db, kbId, false);
  if (index) {
    const result = await searchBm25(db, kbId, index, query, opts);
    return { ranking: 'bm25', words: query.words, strict: query.strict !== null, ...result };
  }
  buildIndexInBackground(opts.primary ?? db, kbId);
  const result = await searchFullText(db, kbId, opts);
  return { ranking: 'fulltext', words: query.words, strict: true, ...result };
}

// $1 kb id, $2 query text, $3 type names or null. entity_search is partitioned by kb_id.
const QUERY = `websearch_to_tsquery('english', $2)`;
const FILTER = `s.kb_id = $1 AND ($3::text[] IS NULL OR s.type_id IN (SELECT id FROM node_type WHERE kb_id = $1 AND name = ANY($3)))`;

/**
 * Full-text search over entity names and documents with PostgreSQL's websearch syntax (every word must
 * match), ranked by cover density (name matches weigh more, see the `search` column), then degree.
 *
 * Work is bounded: matches are counted up to EXACT_MATCH_LIMIT. Up to there every match is ranked.
 * A broader query is ranked among its best-connected name matches and best-connected matches overall
 * (BROAD_QUERY_CANDIDATES of each, more for a deep page), and its total is a lower bound. Snippets are
 * made for the returned page only, since highlighting reads each document's text.
 */
export async function searchFullText(db: Queryable, kbId: number, opts: SearchOptions): Promise<Pick<SearchResult, 'total' | 'totalIsLowerBound' | 'hits'>> {
  const exactLimit = opts.exactMatchLimit ?? EXACT_MATCH_LIMIT;
  const args = [kbId, opts.query, opts.types?.length ? opts.types : null];
  // The GIN index entity_search_search_idx (a bitmap scan), or a sequential scan that stops early when matches
  // are dense. Either reads the table in its order, which the import writes by descending degree
  // (buildSearchTable), so the first matches are the best-connected ones; a parallel or synchronised scan
  // may return a few later ones first, hence the sort by degree below.
  const candidates = Math.max(BROAD_QUERY_CANDIDATES, opts.offset + opts.limit);
  const { rows: found } = await db.query<{ id: number; degree: number }>(
    `SELECT s.id, s.degree FROM entity_search s WHERE s.search @@ ${QUERY} AND ${FILTER} LIMIT $4`,
    [...args, Math.max(exactLimit + 1, candidates)],
  );
  const broad = found.length > exactLimit;
  // Narrow: every match found above is ranked, by key (LIMIT 0 skips the name matches: the executor reads none).
  // Broad: only the best-connected name matches and the best-connected matches found above. The name matches are
  // read in table order too: sorting them all by degree read 25k rows for "based" at Amazon size (180 ms), and
  // walking the degree index tests every row on the way, as it did for the text matches (86k of Amazon's long
  // documents, 350 ms, for a word in 2,605 of them).
  const { rows: hits } = await db.query<SearchHit>(
    `WITH candidate AS ((SELECT s.id FROM entity_search s WHERE s.name_search @@ ${QUERY} AND ${FILTER} LIMIT $8) UNION SELECT unnest($7::int[])),
     page AS (SELECT s.id, s.degree, ts_rank_cd(s.search, ${QUERY}) AS rank
                FROM candidate c JOIN entity_search s ON s.kb_id = $1 AND s.id = c.id
               ORDER BY rank DESC, degree DESC, id LIMIT $4 OFFSET $5)
     SELECT e.id, e.external_id AS "externalId", e.name, t.name AS type, e.degree, p.rank::float8 AS score, NULL AS covered,
            ${headlineSql('english', 'e.text', QUERY, '$6::text[]')} AS snippet
       FROM page p JOIN entity e ON e.kb_id = $1 AND e.id = p.id JOIN node_type t ON t.id = e.type_id
      ORDER BY p.rank DESC, p.degree DESC, p.id`,
    [...args, opts.limit, opts.offset, tokenise(opts.query), broad ? bestConnected(found, candidates) : found.map((r) => r.id), broad ? candidates : 0],
  );
  return { total: broad ? exactLimit : found.length, totalIsLowerBound: broad, hits };
}

function bestConnected(rows: { id: number; degree: number }[], n: number): number[] {
  return [...rows].sort((a, b) => b.degree - a.degree || a.id - b.id).slice(0, n).map((r) => r.id);
}
