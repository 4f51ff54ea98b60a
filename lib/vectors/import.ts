import type pg from 'pg';
import { AppError } from '../errors';
import { auditSql, inTransaction, type Database } from '../db/transaction';
import type { EmbeddingInput, EmbeddingRecord } from './readers';
import { forgetSet } from './cache';
import { describeIssue, idProblem, MAX_DIMENSION, unitVector, vectorBytes, type EmbeddingIssue } from './vector';

/** Entity vectors of a knowledge base (`querySetId` null), or query vectors of one of its query sets. */
export interface EmbeddingOwner {
  kbId: number;
  querySetId: number | null;
}

export interface EmbeddingImportSummary {
  id: number;
  name: string;
  kind: 'entity' | 'query';
  dimension: number;
  count: number;
  replaced: boolean;
}

const MAX_ISSUES = 100;
const BATCH = 500;

/** The file's problems (up to a limit), each with its line or row and field; nothing was imported. */
export class EmbeddingImportError extends AppError {
  constructor(readonly issues: EmbeddingIssue[]) {
    super(400, `${issues.length}${issues.length >= MAX_ISSUES ? '+' : ''} problem${issues.length === 1 ? '' : 's'} in the embeddings; nothing was imported. First: ${describeIssue(issues[0]!)}`, issues);
    this.name = 'EmbeddingImportError';
  }
}

/** Numbers (1-based) of the ids in `ids` that the knowledge base (or the query set) does not have. */
async function unknownIds(client: pg.PoolClient, owner: EmbeddingOwner, ids: string[]): Promise<Set<number>> {
  const { rows } = await client.query<{ n: string }>(owner.querySetId
    ? `SELECT u.n FROM unnest($2::text[]) WITH ORDINALITY AS u(id, n)
        WHERE NOT EXISTS (SELECT 1 FROM query q WHERE q.set_id = $1 AND q.external_id = u.id)`
    : `SELECT u.n FROM unnest($2::text[]) WITH ORDINALITY AS u(id, n)
        WHERE NOT EXISTS (SELECT 1 FROM entity e WHERE e.kb_id = $1 AND e.external_id = u.id)`,
  [owner.querySetId ?? owner.kbId, ids]);
  return new Set(rows.map((r) => Number(r.n)));
}

/** Query vectors are compared with the entity vectors of the same name, so their widths must agree. */
async function expectedDimension(client: pg.PoolClient, owner: EmbeddingOwner, name: string): Promise<number | null> {
  if (!owner.querySetId) return null;
  const { rows } = await client.query<{ dimension: number }>(
    'SELECT dimension FROM embedding_set WHERE kb_id = $1 AND query_set_id IS NULL AND name = $2', [owner.kbId, name]);
  return rows[0]?.dimension ?? null;
}

/**
 * Imports a file of vectors as the named embedding set, replacing one of the same name, all in one
 * transaction: every vector is checked (id, dimension, NaN and infinities, zero length, duplicates, ids the
 * knowledge base or query set lacks) while the rows are written, and any problem rolls everything back.
 * Until the commit, readers keep seeing the set being replaced.
 */
export async function importEmbeddings(db: Database, input: EmbeddingInput, owner: EmbeddingOwner, opts: { name: string; fileName: string; userId: number | null }): Promise<EmbeddingImportSummary> {
  const { summary, oldId } = await inTransaction(db, async (client) => {
    // Two imports of one name wait for each other rather than race to the unique index.
    await client.query(`SELECT pg_advisory_xact_lock(hashtext('embedding_set:' || $1 || ':' || $2 || ':' || $3))`, [owner.kbId, owner.querySetId ?? 0, opts.name]);
    const old = await client.query<{ id: number }>(
      'DELETE FROM embedding_set WHERE kb_id = $1 AND query_set_id IS NOT DISTINCT FROM $2 AND name = $3 RETURNING id',
      [owner.kbId, owner.querySetId, opts.name]);
    const setId = (await client.query<{ id: number }>(
      `INSERT INTO embedding_set (kb_id, query_set_id, name, dimension, count, file_name, created_by) VALUES ($1, $2, $3, 0, 0, $4, $5) RETURNING id`,
      [owner.kbId, owner.querySetId, opts.name, opts.fileName, opts.userId])).rows[0]!.id;

    const issues: EmbeddingIssue[] = [];
    const report = (i: EmbeddingIssue) => issues.push(i);
    let dimension = await expectedDimension(client, owner, opts.name);
    const dimensionSource = dimension === null ? null : `the knowledge base's "${opts.name}" entity vectors`;
    let firstWhere = '';
    const seen = new Map<string, string>();
    let batch: { record: EmbeddingRecord; vector: Float32Array }[] = [];
    let count = 0;

    const flush = async () => {
      const unknown = await unknownIds(client, owner, batch.map((b) => b.record.id));
      batch.forEach((b, i) => {
        if (unknown.has(i + 1)) report({ ...b.record.where, field: 'id', reason: `${b.record.id} is not ${owner.querySetId ? 'a query of the query set' : 'an entity of the knowledge base'}` });
      });
      if (!issues.length) {
        await client.query('INSERT INTO embedding_vector (set_id, item_id, vector) SELECT $1, * FROM unnest($2::text[], $3::bytea[])',
          [setId, batch.map((b) => b.record.id), batch.map((b) => vectorBytes(b.vector))]);
      }
      count += batch.length;
      batch = [];
    };

    for await (const r of input) {
      if (issues.length >= MAX_ISSUES) break;
      if (!('id' in r)) { report(r); continue; }
      const at = describeWhere(r.where);
      const bad = idProblem(r.id);
      if (bad) { report({ ...r.where, field: 'id', reason: bad }); continue; }
      const first = seen.get(r.id);
      if (first) { report({ ...r.where, field: 'id', reason: `${r.id} is repeated (first at ${first})` }); continue; }
      seen.set(r.id, at);
      if (dimension === null) {
        if (r.values.length < 1 || r.values.length > MAX_DIMENSION) { report({ ...r.where, field: 'vector', reason: `has ${r.values.length} values; 1 to ${MAX_DIMENSION} are accepted` }); continue; }
        dimension = r.values.length;
        firstWhere = at;
      } else if (r.values.length !== dimension) {
        report({ ...r.where, field: 'vector', reason: `has ${r.values.length} values, expected ${dimension} (as ${dimensionSource ?? firstWhere})` });
        continue;
      }
      const vector = unitVector(r.values);
      if (typeof vector === 'string') { report({ ...r.where, field: 'vector', reason: vector }); continue; }
      batch.push({ record: r, vector });
      if (batch.length === BATCH) await flush();
    }
    if (batch.length && issues.length < MAX_ISSUES) await flush();
    if (!count && !issues.length) report({ file: opts.fileName, field: 'file', reason: 'holds no vectors' });
    if (issues.length) throw new EmbeddingImportError(issues.slice(0, MAX_ISSUES));

    await client.query('UPDATE embedding_set SET dimension = $2, count = $3 WHERE id = $1', [setId, dimension, count]);
    await auditSql(client, { userId: opts.userId, action: 'embeddings.import', targetType: 'embedding_set', targetId: setId, kbId: owner.kbId,
      details: { name: opts.name, querySet: owner.querySetId, file: opts.fileName, count, dimension, replaced: old.rows[0]?.id ?? null } });
    const kind = owner.querySetId ? 'query' as const : 'entity' as const;
    return { summary: { id: setId, name: opts.name, kind, dimension: dimension!, count, replaced: old.rows.length > 0 }, oldId: old.rows[0]?.id };
  });
  // The replaced vectors' memory is freed now rather than when the cache next evicts.
  if (oldId) forgetSet(oldId);
  return summary;
}

function describeWhere(w: EmbeddingRecord['where']): string {
  return w.line !== undefined ? `line ${w.line}` : `row ${w.row}`;
}
