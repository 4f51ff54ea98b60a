import crypto from 'node:crypto';
import { badRequest, conflict, notFound } from '../errors';
import { auditSql, inTransaction, type Database, type Queryable } from '../db/transaction';
import { isCanonicalInteger } from './formats/integer-ids';
import { jsonlRow } from './formats/jsonl';
import { readQueries, type QuerySource } from './read';
import { QuerySetStatsAccumulator, type QuerySetStats } from './set-stats';
import type { QuerySetSummary } from './sets';
import { datasetCard } from './dataset-card';
import { gatherReleaseRecord, releaseLookups, storedRecord, type ReleaseRecord } from '../release/record';
import { releasePageUrl } from '../release/page-url';

export interface ReleaseSummary {
  id: number;
  number: number;
  name: string;
  notes: string;
  contentHash: string;
  queryCount: number;
  createdBy: string | null;
  createdAt: string;
}

export interface ReleaseDetail extends ReleaseSummary {
  stats: QuerySetStats;
  card: string;
}

/** A release as its download needs it: with the record its card and Croissant file are generated from. */
export interface ReleaseWithRecord extends ReleaseDetail {
  /** null for releases made before records were kept. */
  record: ReleaseRecord | null;
}

const FIELDS = `r.id, r.number, r.name, r.notes, r.content_hash AS "contentHash", r.query_count AS "queryCount",
  coalesce(u.name, u.email) AS "createdBy", r.created_at AS "createdAt"`;

export async function listReleases(db: Queryable, setId: number): Promise<ReleaseSummary[]> {
  return (await db.query<ReleaseSummary>(
    `SELECT ${FIELDS} FROM query_release r LEFT JOIN app_user u ON u.id = r.created_by WHERE r.set_id = $1 ORDER BY r.number DESC`, [setId])).rows;
}

/** The live set, or its release `number` when one is given (404 for an unknown release). */
export async function querySourceOf(db: Queryable, setId: number, release: number | undefined): Promise<QuerySource> {
  return release ? { releaseId: (await getRelease(db, setId, release)).id } : { setId };
}

export async function getRelease(db: Queryable, setId: number, number: number): Promise<ReleaseDetail> {
  const { record: _, ...release } = await getReleaseWithRecord(db, setId, number);
  return release;
}

export async function getReleaseWithRecord(db: Queryable, setId: number, number: number): Promise<ReleaseWithRecord> {
  const { rows } = await db.query<ReleaseWithRecord>(
    `SELECT ${FIELDS}, r.stats, r.card, r.record FROM query_release r LEFT JOIN app_user u ON u.id = r.created_by WHERE r.set_id = $1 AND r.number = $2`, [setId, number]);
  if (!rows[0]) throw notFound(`No release ${number} of this query set`);
  return { ...rows[0], record: rows[0].record && storedRecord(rows[0].record) };
}

/**
 * Freezes the set as its next numbered release: a copy of every query, the SHA-256 of the release's JSONL
 * export (so anyone can check a download against it), its statistics and a generated dataset card.
 * One repeatable-read transaction: the copy, hash and statistics all describe the same state of the set,
 * and the set's row lock numbers concurrent releases one after the other.
 */
export async function createRelease(db: Database, set: QuerySetSummary, kb: { name: string; slug: string },
  opts: { name: string; notes?: string; language?: string; userId: number | null; requestUrl?: string }): Promise<ReleaseDetail> {
  const lookups = await releaseLookups(db, set.kbId, set.id, { setId: set.id });
  const number = await inTransaction(db, async (client) => {
    await client.query('SELECT 1 FROM query_set WHERE id = $1 FOR UPDATE', [set.id]);
    const hash = crypto.createHash('sha256');
    const acc = new QuerySetStatsAccumulator();
    let count = 0;
    let starkIds = true;
    for await (const q of readQueries(client, { setId: set.id })) {
      hash.update(jsonlRow(q));
      starkIds &&= [q.id, ...q.answers, ...q.seeds].every(isCanonicalInteger);
      acc.add({ split: q.split, answerCount: q.answers.length, text: q.text });
      count++;
    }
    if (!count) throw badRequest('The query set has no queries to release');
    const contentHash = hash.digest('hex');
    const last = await client.query<{ number: number; content_hash: string }>(
      'SELECT number, content_hash FROM query_release WHERE set_id = $1 ORDER BY number DESC LIMIT 1', [set.id]);
    if (last.rows[0]?.content_hash === contentHash) throw conflict(`Nothing changed since release ${last.rows[0].number} (same content hash)`);
    const next = (last.rows[0]?.number ?? 0) + 1;
    const stats = acc.result();
    const { rows: [author] } = await client.query<{ name: string | null }>('SELECT name FROM app_user WHERE id = $1', [opts.userId]);
    const record = await gatherReleaseRecord(client, {
      set, kb, stats, starkIds, language: opts.language ?? 'en', source: { setId: set.id },
      release: { number: next, name: opts.name, notes: opts.notes ?? '', contentHash, createdAt: new Date().toISOString(), createdBy: author?.name ?? null, url: releasePageUrl({ slug: kb.slug, set: set.name, number: next }, opts.requestUrl) },
    }, lookups);
    const { rows } = await client.query<{ id: number }>(
      `INSERT INTO query_release (set_id, number, name, notes, content_hash, query_count, stats, card, record, created_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id`,
      [set.id, next, opts.name, opts.notes ?? '', contentHash, count, JSON.stringify(stats), datasetCard(record), JSON.stringify(record), opts.userId]);
    await client.query(
      `INSERT INTO release_query (release_id, position, external_id, text, answer_ids, seed_ids, split, split_position, metadata)
       SELECT $1, position, external_id, text, answer_ids, seed_ids, split, split_position, metadata FROM query WHERE set_id = $2`,
      [rows[0]!.id, set.id]);
    await auditSql(client, { userId: opts.userId, action: 'queries.release', targetType: 'query_release', targetId: rows[0]!.id, kbId: set.kbId, details: { set: set.name, number: next, contentHash } });
    return next;
  }, 'REPEATABLE READ');
  return getRelease(db, set.id, number);
}

export interface ReleaseDiff {
  from: number;
  to: number;
  added: number;
  removed: number;
  /** Queries in both whose text, answers, seeds or split differ. */
  changed: number;
  answersChanged: number;
  textChanged: number;
  splitChanged: number;
  unchanged: number;
  items: { id: string; change: 'added' | 'removed' | 'changed'; fields: string[]; text: string; answersAdded: string[]; answersRemoved: string[] }[];
}

/** What changed from release `from` to release `to`, query by query (matched on query id). */
export async function diffReleases(db: Queryable, setId: number, from: number, to: number, opts: { limit: number; offset: number }): Promise<ReleaseDiff> {
  const [a, b] = await Promise.all([getRelease(db, setId, from), getRelease(db, setId, to)]);
  const { rows } = await db.query<{ counts: Record<string, number>; items: ReleaseDiff['items'] }>(
    `WITH d AS (
       SELECT coalesce(b.external_id, a.external_id) AS id, coalesce(b.position, a.position + 1000000000) AS ord,
              CASE WHEN a.external_id IS NULL THEN 'added' WHEN b.external_id IS NULL THEN 'removed' ELSE 'changed' END AS change,
              coalesce(b.text, a.text) AS text,
              a.text IS DISTINCT FROM b.text AS text_changed,
              (SELECT array(SELECT unnest(a.answer_ids) ORDER BY 1)) IS DISTINCT FROM (SELECT array(SELECT unnest(b.answer_ids) ORDER BY 1)) AS answers_changed,
              a.seed_ids IS DISTINCT FROM b.seed_ids AS seeds_changed,
              a.split IS DISTINCT FROM b.split AS split_changed,
              coalesce(array(SELECT unnest(b.answer_ids) EXCEPT SELECT unnest(a.answer_ids)), '{}') AS answers_added,
              coalesce(array(SELECT unnest(a.answer_ids) EXCEPT SELECT unnest(b.answer_ids)), '{}') AS answers_removed
         FROM (SELECT * FROM release_query WHERE release_id = $1) a
         FULL JOIN (SELECT * FROM release_query WHERE release_id = $2) b ON a.external_id = b.external_id),
     c AS (SELECT * FROM d WHERE change <> 'changed' OR text_changed OR answers_changed OR seeds_changed OR split_changed)
     SELECT json_build_object(
              'added', (SELECT count(*) FROM c WHERE change = 'added'),
              'removed', (SELECT count(*) FROM c WHERE change = 'removed'),
              'changed', (SELECT count(*) FROM c WHERE change = 'changed'),
              'answersChanged', (SELECT count(*) FROM c WHERE change = 'changed' AND answers_changed),
              'textChanged', (SELECT count(*) FROM c WHERE change = 'changed' AND text_changed),
              'splitChanged', (SELECT count(*) FROM c WHERE change = 'changed' AND split_changed),
              'unchanged', (SELECT count(*) FROM d) - (SELECT count(*) FROM c)) AS counts,
            (SELECT coalesce(json_agg(json_build_object('id', id, 'change', change, 'text', text,
                      'fields', array_remove(ARRAY[CASE WHEN change = 'changed' AND text_changed THEN 'text' END, CASE WHEN change = 'changed' AND answers_changed THEN 'answers' END,
                                                   CASE WHEN change = 'changed' AND seeds_changed THEN 'seeds' END, CASE WHEN change = 'changed' AND split_changed THEN 'split' END], NULL),
                      'answersAdded', answers_added, 'answersRemoved', answers_removed) ORDER BY ord), '[]')
               FROM (SELECT * FROM c ORDER BY ord LIMIT $3 OFFSET $4) p) AS items`,
    [a.id, b.id, opts.limit, opts.offset]);
  const counts = rows[0]!.counts;
  return { from, to, added: counts.added!, removed: counts.removed!, changed: counts.changed!, answersChanged: counts.answersChanged!, textChanged: counts.textChanged!, splitChanged: counts.splitChanged!, unchanged: counts.unchanged!, items: rows[0]!.items };
}
