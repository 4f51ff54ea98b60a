import type pg from 'pg';

type Queryable = Pick<pg.Pool, 'query'>;

/** Marks a matched word in a snippet. Control characters, so no document text can forge or inject them. */
export const MATCH_START = '\u0002';
export const MATCH_END = '\u0003';

/** Up to this many matches a query is counted exactly and every match is ranked. */
export const EXACT_MATCH_LIMIT = 1000;
/** Past it, ranking considers this many best-connected name matches and as many document matches. */
export const BROAD_QUERY_CANDIDATES = 200;

export interface SearchHit {
  id: number;
  externalId: string;
  name: string;
  type: string;
  degree: number;
  rank: number;
  /** Fragments of the entity's text around the matches, matches between MATCH_START and MATCH_END. */
  snippet: string;
}

export interface SearchResult {
  /** The number of matches; with `totalIsLowerBound`, only that there are more than this many. */
  total: number;
  /** A broad query: more matches than were counted, ranked among the best-connected candidates. */
  totalIsLowerBound: boolean;
  hits: SearchHit[];
}

export interface SearchOptions {
  /** Web-style syntax: words, "quoted phrases", OR, -excluded. */
  query: string;
  types?: string[];
  limit: number;
  offset: number;
  /** Overrides EXACT_MATCH_LIMIT. */
  exactMatchLimit?: number;
}

// $1 kb id, $2 query text, $3 type names or null. entity_search is partitioned by kb_id.
const QUERY = `websearch_to_tsquery('english', $2)`;
const FILTER = `s.kb_id = $1 AND ($3::text[] IS NULL OR s.type_id IN (SELECT id FROM node_type WHERE kb_id = $1 AND name = ANY($3)))`;

/**
 * Full-text search over entity names and documents with PostgreSQL's websearch syntax, ranked by
 * cover density (name matches weigh more, see the `search` column), then degree.
 *
 * Work is bounded: matches are counted up to EXACT_MATCH_LIMIT. Up to there every match is ranked.
 * A broader query is ranked among its best-connected name matches and best-connected matches overall
 * (BROAD_QUERY_CANDIDATES of each, more for a deep page), and its total is a lower bound. Snippets are
 * made for the returned page only, since highlighting reads each document's text.
 */
export async function searchEntities(db: Queryable, kbId: number, opts: SearchOptions): Promise<SearchResult> {
  const exactLimit = opts.exactMatchLimit ?? EXACT_MATCH_LIMIT;
  const args = [kbId, opts.query, opts.types?.length ? opts.types : null];
  // GIN entity_search_search_idx, or a sequential scan that stops at the limit when matches are dense.
  const { rows: counted } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM (SELECT 1 FROM entity_search s WHERE s.search @@ ${QUERY} AND ${FILTER} LIMIT $4) m`,
    [...args, exactLimit + 1],
  );
  const matches = counted[0]!.n;
  const broad = matches > exactLimit;
  // Broad: name matches through the GIN name index (materialized, so the planner cannot walk the degree
  // index hoping for names that cluster among low degrees), matches overall by walking the degree index,
  // which a dense query satisfies within a few pages; then only the candidates are ranked.
  const ranked = broad
    ? `WITH named AS MATERIALIZED (SELECT s.id, s.degree FROM entity_search s WHERE s.name_search @@ ${QUERY} AND ${FILTER}),
       candidate AS (
         (SELECT id FROM named ORDER BY degree DESC, id LIMIT $6)
         UNION
         (SELECT s.id FROM entity_search s WHERE s.search @@ ${QUERY} AND ${FILTER} ORDER BY s.degree DESC, s.id LIMIT $6))
       SELECT s.id, s.degree, ts_rank_cd(s.search, ${QUERY}) AS rank
         FROM candidate c JOIN entity_search s ON s.kb_id = $1 AND s.id = c.id`
    : `SELECT s.id, s.degree, ts_rank_cd(s.search, ${QUERY}) AS rank FROM entity_search s WHERE s.search @@ ${QUERY} AND ${FILTER}`;
  const { rows: hits } = await db.query<SearchHit>(
    `WITH page AS (${ranked} ORDER BY rank DESC, degree DESC, id LIMIT $4 OFFSET $5)
     SELECT e.id, e.external_id AS "externalId", e.name, t.name AS type, e.degree, p.rank::float8 AS rank,
            ts_headline('english', e.text, ${QUERY},
              'MaxFragments=2, MaxWords=20, MinWords=8, FragmentDelimiter=" … ", StartSel=${MATCH_START}, StopSel=${MATCH_END}') AS snippet
       FROM page p JOIN entity e ON e.kb_id = $1 AND e.id = p.id JOIN node_type t ON t.id = e.type_id
      ORDER BY p.rank DESC, p.degree DESC, p.id`,
    [...args, opts.limit, opts.offset, ...(broad ? [Math.max(BROAD_QUERY_CANDIDATES, opts.offset + opts.limit)] : [])],
  );
  return { total: broad ? exactLimit : matches, totalIsLowerBound: broad, hits };
}
