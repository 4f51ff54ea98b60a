import { z } from 'zod';
import { conflict, notFound } from '../errors';
import { auditSql, inTransaction, type Database, type Queryable } from '../db/transaction';
import type { QueryOrigin } from './types';

/** Set names appear in URLs and on the command line. */
export const setNameSchema = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,79}$/, 'must be 1-80 letters, digits, ".", "_" or "-", starting with a letter or digit');

export interface QuerySetSummary {
  id: number;
  kbId: number;
  name: string;
  description: string;
  origin: QueryOrigin;
  license: string;
  queries: number;
  releases: number;
  runs: number;
  createdAt: string;
  updatedAt: string;
}

const SUMMARY = `SELECT s.id, s.kb_id AS "kbId", s.name, s.description, lower(s.origin::text) AS origin, s.license,
       (SELECT count(*)::int FROM query q WHERE q.set_id = s.id) AS queries,
       (SELECT count(*)::int FROM query_release r WHERE r.set_id = s.id) AS releases,
       (SELECT count(*)::int FROM eval_run r WHERE r.set_id = s.id) AS runs,
       s.created_at AS "createdAt", s.updated_at AS "updatedAt"
  FROM query_set s`;

export async function listQuerySets(db: Queryable, kbId: number): Promise<QuerySetSummary[]> {
  return (await db.query<QuerySetSummary>(`${SUMMARY} WHERE s.kb_id = $1 ORDER BY s.name`, [kbId])).rows;
}

/** A set of the given knowledge base; 404 otherwise, so a set never shows through another knowledge base. */
export async function getQuerySet(db: Queryable, kbId: number, name: string): Promise<QuerySetSummary> {
  const { rows } = await db.query<QuerySetSummary>(`${SUMMARY} WHERE s.kb_id = $1 AND s.name = $2`, [kbId, name]);
  if (!rows[0]) throw notFound(`No query set "${name}" in this knowledge base`);
  return rows[0];
}

/** Any set by name, for the CLI (which runs with the database's full rights). */
export async function querySetByName(db: Queryable, name: string): Promise<QuerySetSummary> {
  const { rows } = await db.query<QuerySetSummary>(`${SUMMARY} WHERE s.name = $1`, [name]);
  if (!rows[0]) throw notFound(`No query set "${name}"`);
  return rows[0];
}

export async function deleteQuerySet(db: Database, set: QuerySetSummary, userId: number | null): Promise<void> {
  await inTransaction(db, async (client) => {
    const running = await client.query(`SELECT 1 FROM eval_run WHERE set_id = $1 AND status = 'RUNNING'`, [set.id]);
    if (running.rows.length) throw conflict('A run is being evaluated on this query set; delete it when that is done');
    await client.query('DELETE FROM query_set WHERE id = $1', [set.id]);
    await auditSql(client, { userId, action: 'queries.delete_set', targetType: 'query_set', targetId: set.id, kbId: set.kbId, details: { name: set.name, queries: set.queries } });
  });
}

export interface QueryRow {
  id: string;
  text: string;
  answers: string[];
  seeds: string[];
  split: string | null;
  version: number;
}

export interface QueryPage {
  total: number;
  items: QueryRow[];
}

/** A page of the set's queries in file order, optionally only one split or those whose text has `q`. */
export async function listQueries(db: Queryable, setId: number, opts: { split?: string; q?: string; limit: number; offset: number }): Promise<QueryPage> {
  const { rows } = await db.query<{ total: string; items: QueryRow[] }>(
    `WITH m AS (SELECT * FROM query WHERE set_id = $1 AND ($2::text IS NULL OR split = $2) AND ($3::text IS NULL OR strpos(lower(text), lower($3)) > 0 OR external_id = $3))
     SELECT (SELECT count(*) FROM m) AS total,
            (SELECT coalesce(json_agg(json_build_object('id', external_id, 'text', text, 'answers', answer_ids, 'seeds', seed_ids, 'split', split, 'version', version) ORDER BY position), '[]')
               FROM (SELECT * FROM m ORDER BY position LIMIT $4 OFFSET $5) p) AS items`,
    [setId, opts.split ?? null, opts.q?.trim() || null, opts.limit, opts.offset]);
  return { total: Number(rows[0]!.total), items: rows[0]!.items };
}
