import type { IngestIssue } from '../ingest/source';
import { AppError, badRequest, conflict } from '../errors';
import { auditSql, inTransaction, type Database, type Queryable } from '../db/transaction';
import type { QueryOrigin, SourcedQuery, SplitList } from './types';

/** What to do with answer or seed ids the knowledge base does not have. */
export type UnknownIdPolicy = 'reject' | 'keep';

export interface QueryImportOptions {
  kbId: number;
  setName: string;
  origin: QueryOrigin;
  description?: string;
  license?: string;
  /** Split lists (STaRK `split/*.index`); a query's split can also come with the record (JSONL). */
  splits?: SplitList[];
  unknownIds: UnknownIdPolicy;
  /** Replace the queries of an existing set of this name (same knowledge base) instead of failing. */
  replace?: boolean;
  userId: number | null;
  /** Named in the first revision of every query. */
  sourceName: string;
}

export interface QueryImportSummary {
  setId: number;
  setName: string;
  queries: number;
  splits: Record<string, number>;
  /** Answer and seed ids the knowledge base lacks, kept as unresolved (policy `keep`). */
  unresolved: { count: number; queries: number; examples: string[] };
  replaced: boolean;
}

/** The input's problems, every one found (up to a limit) with its file and line; nothing was imported. */
export class QueryImportError extends AppError {
  constructor(readonly issues: { file: string; line: number; reason: string }[]) {
    super(400, `${issues.length}${issues.length >= MAX_ISSUES ? '+' : ''} problem${issues.length === 1 ? '' : 's'} in the input; nothing was imported. First: ${issues[0]!.file}:${issues[0]!.line}: ${issues[0]!.reason}`, issues);
    this.name = 'QueryImportError';
  }
}

const MAX_ISSUES = 1000;
const BATCH = 2000;

/**
 * Reads every record, checks the whole input (bad rows, duplicate ids, split lists naming unknown or
 * repeated queries, ids the knowledge base lacks under `reject`) and only then writes, in one transaction:
 * any problem means nothing is imported. Each query gets its first revision, naming the source.
 */
export async function importQueries(db: Database, records: AsyncIterable<SourcedQuery | IngestIssue>, opts: QueryImportOptions): Promise<QueryImportSummary> {
  const issues: { file: string; line: number; reason: string }[] = [];
  const report = (i: { file: string; line: number; reason: string }) => { if (issues.length < MAX_ISSUES) issues.push({ file: i.file, line: i.line, reason: i.reason }); };
  const queries: SourcedQuery[] = [];
  const byId = new Map<string, SourcedQuery>();
  for await (const r of records) {
    if (!('text' in r)) { report(r); continue; }
    const first = byId.get(r.id);
    if (first) { report({ ...r.at, reason: `duplicate query id ${r.id} (first at ${first.at.file}:${first.at.line})` }); continue; }
    byId.set(r.id, r);
    queries.push(r);
  }
  const splitPosition = applySplits(byId, opts.splits ?? [], report);
  if (!queries.length && !issues.length) issues.push({ file: opts.sourceName, line: 0, reason: 'no queries in the input' });
  if (issues.length) throw new QueryImportError(issues);

  const unknown = await unknownEntityIds(db, opts.kbId, queries);
  if (unknown.size && opts.unknownIds === 'reject') {
    for (const q of queries) {
      const missing = [...q.answers, ...q.seeds].filter((id) => unknown.has(id));
      if (missing.length) report({ ...q.at, reason: `query ${q.id}: entity id${missing.length > 1 ? 's' : ''} ${missing.join(', ')} not in the knowledge base` });
    }
    throw new QueryImportError(issues);
  }

  return inTransaction(db, async (client) => {
    const setId = await claimSet(client, opts);
    for (let i = 0; i < queries.length; i += BATCH) {
      const rows = queries.slice(i, i + BATCH).map((q, j) => ({
        external_id: q.id, position: i + j, text: q.text, answer_ids: q.answers, seed_ids: q.seeds,
        split: q.split, split_position: splitPosition.get(q.id) ?? null, metadata: q.metadata,
      }));
      // One JSON parameter per batch: ragged id lists do not fit unnest's rectangular arrays.
      await client.query(
        `INSERT INTO query (set_id, external_id, position, text, answer_ids, seed_ids, split, split_position, metadata)
         SELECT $1, x.external_id, x.position, x.text, x.answer_ids, x.seed_ids, x.split, x.split_position, x.metadata
           FROM jsonb_to_recordset($2::jsonb) AS x(external_id text, position int, text text, answer_ids text[], seed_ids text[], split text, split_position int, metadata jsonb)`,
        [setId, JSON.stringify(rows)]);
    }
    await client.query(
      `INSERT INTO query_revision (query_id, version, text, answer_ids, seed_ids, split, metadata, reason, changed_by)
       SELECT id, 1, text, answer_ids, seed_ids, split, metadata, $2, $3 FROM query WHERE set_id = $1`,
      [setId, `imported from ${opts.sourceName}`, opts.userId]);
    await auditSql(client, { userId: opts.userId, action: opts.replace ? 'queries.replace' : 'queries.import', targetType: 'query_set', targetId: setId, kbId: opts.kbId, details: { name: opts.setName, queries: queries.length, source: opts.sourceName } });
    const splits: Record<string, number> = {};
    for (const q of queries) if (q.split) splits[q.split] = (splits[q.split] ?? 0) + 1;
    const unresolvedQueries = queries.filter((q) => [...q.answers, ...q.seeds].some((id) => unknown.has(id))).length;
    return {
      setId, setName: opts.setName, queries: queries.length, splits,
      unresolved: { count: unknown.size, queries: unresolvedQueries, examples: [...unknown].slice(0, 10) },
      replaced: Boolean(opts.replace),
    };
  });
}

/** Puts each listed query in its split and returns its place in the list; reports unknown or repeated ids. */
function applySplits(byId: Map<string, SourcedQuery>, lists: SplitList[], report: (i: { file: string; line: number; reason: string }) => void): Map<string, number> {
  const position = new Map<string, number>();
  const listedAt = new Map<string, { split: string; at: string }>();
  for (const list of lists) {
    list.ids.forEach((id, i) => {
      const at = list.at[i]!;
      const q = byId.get(id);
      const earlier = listedAt.get(id);
      if (!q) report({ ...at, reason: `split ${list.split} names query ${id}, which is not in the query file` });
      else if (earlier) report({ ...at, reason: `query ${id} is in split ${list.split} and already in split ${earlier.split} (${earlier.at})` });
      else {
        if (q.split && q.split !== list.split) report({ ...at, reason: `query ${id} is in split ${list.split} here but its record says ${q.split}` });
        q.split = list.split;
        position.set(id, i);
        listedAt.set(id, { split: list.split, at: `${at.file}:${at.line}` });
      }
    });
  }
  return position;
}

/** The answer and seed ids of the queries that name no entity of the knowledge base. */
async function unknownEntityIds(db: Queryable, kbId: number, queries: SourcedQuery[]): Promise<Set<string>> {
  const ids = [...new Set(queries.flatMap((q) => [...q.answers, ...q.seeds]))];
  const unknown = new Set<string>();
  for (let i = 0; i < ids.length; i += 10_000) {
    const { rows } = await db.query<{ id: string }>(
      `SELECT x.id FROM unnest($2::text[]) AS x(id)
        WHERE NOT EXISTS (SELECT 1 FROM entity e WHERE e.kb_id = $1 AND e.external_id = x.id)`, [kbId, ids.slice(i, i + 10_000)]);
    for (const r of rows) unknown.add(r.id);
  }
  return unknown;
}

/** Creates the set, or empties the existing one under `replace`; the row lock serialises concurrent imports. */
async function claimSet(client: Queryable, opts: QueryImportOptions): Promise<number> {
  const existing = await client.query<{ id: number; kb_id: number }>('SELECT id, kb_id FROM query_set WHERE name = $1 FOR UPDATE', [opts.setName]);
  const row = existing.rows[0];
  if (row) {
    if (!opts.replace) throw conflict(`A query set named "${opts.setName}" exists; choose another name or replace it`);
    if (row.kb_id !== opts.kbId) throw badRequest(`Query set "${opts.setName}" belongs to another knowledge base; it cannot be replaced from this one`);
    await client.query('DELETE FROM query WHERE set_id = $1', [row.id]);
    await client.query(
      `UPDATE query_set SET origin = $2, description = coalesce($3, description), license = coalesce($4, license), updated_at = now() WHERE id = $1`,
      [row.id, opts.origin.toUpperCase(), opts.description ?? null, opts.license ?? null]);
    return row.id;
  }
  const { rows } = await client.query<{ id: number }>(
    `INSERT INTO query_set (kb_id, name, origin, description, license, created_by) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
    [opts.kbId, opts.setName, opts.origin.toUpperCase(), opts.description ?? '', opts.license ?? '', opts.userId]);
  return rows[0]!.id;
}
