import { badRequest, conflict, notFound } from '../errors';
import { auditSql, inTransaction, type Database, type Queryable } from '../db/transaction';

export interface QueryEntity {
  /** External id, as in the query set. */
  id: string;
  /** Internal id and name when the knowledge base has the entity; null when it is unresolved. */
  entityId: number | null;
  name: string | null;
  type: string | null;
}

export interface QueryRevisionView {
  version: number;
  text: string;
  answers: string[];
  seeds: string[];
  split: string | null;
  reason: string;
  changedBy: string | null;
  changedAt: string;
}

export interface QueryDetail {
  id: string;
  text: string;
  split: string | null;
  metadata: Record<string, unknown>;
  version: number;
  answers: QueryEntity[];
  seeds: QueryEntity[];
  revisions: QueryRevisionView[];
}

/** Entities named by external id, in order; unknown ones with null ids and names. */
export async function resolveEntities(db: Queryable, kbId: number, ids: string[]): Promise<QueryEntity[]> {
  const { rows } = await db.query<QueryEntity>(
    `SELECT x.id, e.id AS "entityId", e.name, t.name AS type
       FROM unnest($2::text[]) WITH ORDINALITY AS x(id, n)
       LEFT JOIN entity e ON e.kb_id = $1 AND e.external_id = x.id
       LEFT JOIN node_type t ON t.id = e.type_id
      ORDER BY x.n`, [kbId, ids]);
  return rows;
}

export async function getQuery(db: Queryable, kbId: number, setId: number, queryId: string): Promise<QueryDetail> {
  const { rows } = await db.query<{ id: number; external_id: string; text: string; split: string | null; metadata: Record<string, unknown>; version: number; answer_ids: string[]; seed_ids: string[] }>(
    `SELECT id, external_id, text, split, metadata, version, answer_ids, seed_ids FROM query WHERE set_id = $1 AND external_id = $2`, [setId, queryId]);
  const q = rows[0];
  if (!q) throw notFound(`No query ${queryId} in this query set`);
  const [answers, seeds, revisions] = await Promise.all([
    resolveEntities(db, kbId, q.answer_ids),
    resolveEntities(db, kbId, q.seed_ids),
    db.query<QueryRevisionView>(
      `SELECT r.version, r.text, r.answer_ids AS answers, r.seed_ids AS seeds, r.split, r.reason, coalesce(u.name, u.email) AS "changedBy", r.changed_at AS "changedAt"
         FROM query_revision r LEFT JOIN app_user u ON u.id = r.changed_by WHERE r.query_id = $1 ORDER BY r.version DESC`, [q.id]),
  ]);
  return { id: q.external_id, text: q.text, split: q.split, metadata: q.metadata, version: q.version, answers, seeds, revisions: revisions.rows };
}

export interface QueryChange {
  text?: string;
  answers?: string[];
  seeds?: string[];
  split?: string | null;
  /** Replaces the query's metadata (an audit records what it changed and why there). */
  metadata?: Record<string, unknown>;
  /** The version the editor started from: the change is refused if the query has moved on since. */
  version: number;
  reason: string;
}

/**
 * Edits a query and records the new version. Optimistic locking: two people editing the same query never
 * overwrite each other silently; the later save gets a conflict naming the version it missed.
 * New answer and seed ids must be entities of the knowledge base.
 */
export async function updateQuery(db: Database, kbId: number, setId: number, queryId: string, change: QueryChange, userId: number | null): Promise<QueryDetail> {
  await inTransaction(db, (client) => applyQueryChange(client, kbId, setId, queryId, change, userId));
  return getQuery(db, kbId, setId, queryId);
}

/**
 * The edit of `updateQuery` inside the caller's transaction, so a change made with others (an audit's
 * approval) commits or fails with them. Returns the query's new version.
 */
export async function applyQueryChange(client: Queryable, kbId: number, setId: number, queryId: string, change: QueryChange, userId: number | null): Promise<number> {
  const added = [...(change.answers ?? []), ...(change.seeds ?? [])];
  if (added.length) {
    const unknown = (await resolveEntities(client, kbId, [...new Set(added)])).filter((e) => e.entityId === null).map((e) => e.id);
    if (unknown.length) throw badRequest(`Not in the knowledge base: entity id${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}`);
  }
  const { rows } = await client.query<{ id: number; version: number }>(
    `UPDATE query SET text = coalesce($4, text), answer_ids = coalesce($5, answer_ids), seed_ids = coalesce($6, seed_ids),
            split = CASE WHEN $7::boolean THEN $8 ELSE split END,
            split_position = CASE WHEN $7::boolean AND split IS DISTINCT FROM $8 THEN NULL ELSE split_position END,
            metadata = coalesce($9::jsonb, metadata),
            version = version + 1, updated_at = now()
      WHERE set_id = $1 AND external_id = $2 AND version = $3
      RETURNING id, version`,
    [setId, queryId, change.version, change.text ?? null, change.answers ?? null, change.seeds ?? null, change.split !== undefined, change.split ?? null,
      change.metadata === undefined ? null : JSON.stringify(change.metadata)]);
  if (!rows[0]) {
    const now = await client.query<{ version: number }>('SELECT version FROM query WHERE set_id = $1 AND external_id = $2', [setId, queryId]);
    if (!now.rows[0]) throw notFound(`No query ${queryId} in this query set`);
    throw conflict(`Query ${queryId} was changed by someone else (now version ${now.rows[0].version}, you edited version ${change.version}); reload it and apply your change again`);
  }
  await client.query(
    `INSERT INTO query_revision (query_id, version, text, answer_ids, seed_ids, split, metadata, reason, changed_by)
     SELECT id, version, text, answer_ids, seed_ids, split, metadata, $2, $3 FROM query WHERE id = $1`, [rows[0].id, change.reason, userId]);
  await client.query('UPDATE query_set SET updated_at = now() WHERE id = $1', [setId]);
  await auditSql(client, { userId, action: 'queries.edit', targetType: 'query', targetId: rows[0].id, kbId, details: { set: setId, query: queryId, version: rows[0].version } });
  return rows[0].version;
}
