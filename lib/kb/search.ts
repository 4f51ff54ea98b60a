import type pg from 'pg';

type Queryable = Pick<pg.Pool, 'query'>;

/** Marks a matched word in a snippet. Control characters, so no document text can forge or inject them. */
export const MATCH_START = '\u0002';
export const MATCH_END = '\u0003';

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
  total: number;
  hits: SearchHit[];
}

export interface SearchOptions {
  /** Web-style syntax: words, "quoted phrases", OR, -excluded. */
  query: string;
  types?: string[];
  limit: number;
  offset: number;
}

/**
 * Full-text search over entity names and documents with PostgreSQL's websearch syntax, ranked by
 * cover density (name matches weigh more, see the `search` column), then degree. Snippets are made for
 * the returned page only, since highlighting reads each document's text.
 */
export async function searchEntities(db: Queryable, kbId: number, opts: SearchOptions): Promise<SearchResult> {
  const { rows } = await db.query<SearchHit & { total: string }>(
    `WITH q AS (SELECT websearch_to_tsquery('english', $2) AS query),
     page AS (
       SELECT e.id, e.external_id, e.name, e.type_id, e.degree, e.text,
              ts_rank_cd(e.search, q.query) AS rank, count(*) OVER () AS total
         FROM entity e, q
        WHERE e.kb_id = $1 AND e.search @@ q.query
          AND ($3::text[] IS NULL OR e.type_id IN (SELECT id FROM node_type WHERE kb_id = $1 AND name = ANY($3)))
        ORDER BY rank DESC, e.degree DESC, e.id
        LIMIT $4 OFFSET $5)
     SELECT p.id, p.external_id AS "externalId", p.name, t.name AS type, p.degree, p.rank::float8 AS rank, p.total,
            ts_headline('english', p.text, q.query,
              'MaxFragments=2, MaxWords=20, MinWords=8, FragmentDelimiter=" … ", StartSel=${MATCH_START}, StopSel=${MATCH_END}') AS snippet
       FROM page p JOIN node_type t ON t.id = p.type_id, q
      ORDER BY p.rank DESC, p.degree DESC, p.id`,
    [kbId, opts.query, opts.types?.length ? opts.types : null, opts.limit, opts.offset],
  );
  return {
    total: rows[0] ? Number(rows[0].total) : 0,
    hits: rows.map(({ total: _total, ...hit }) => hit),
  };
}
