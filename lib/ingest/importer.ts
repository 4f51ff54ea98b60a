import type pg from 'pg';
import { conflict } from '../errors';
import { ImportAborted, IssueLog, type ErrorPolicy } from './issues';
import { degreeRange, loadRows, NameRegistry, type LoadedStatistics } from './load-passes';
import { HUB_DEGREE } from '../kb/hub-counts';
import { deriveCounts, publishDerivedCounts, type DerivedCounts } from './derived-counts';
import { buildEdgeIndexes, buildEntityIndexes, buildSearchTable, createStagingTables, dropTables, INDEX_BUILD_MEMORY, liveTables, publishPartitions, stagingTables, type Queryable, type StagingTables, type TableNames } from './partitions';
import { isEmbeddedDatabase, refuseOversizedEmbeddedImport } from './embedded-ceiling';
import { rowWriter, vectorStreams } from './row-writer';
import { onSideConnection, type SideTask } from './side-connection';
import { IngestIssue, type KnowledgeSource } from './source';
import { finishJob, recordProgress, recordStep, startHeartbeat, startJob, type ImportPhase } from './jobs';
import { ensureIndex, indexProgressMessage, startImportIndexBuild, type ImportIndexBuild } from '../retrieval/bm25-index';

const PARENT_STATISTICS = { entity: 'kb_id, id, type_id, external_id, name, degree', search: 'kb_id, id, type_id, degree' };

export interface ImportOptions {
  slug: string;
  name?: string;
  description?: string;
  source?: string;
  license?: string;
  visibility?: 'PUBLIC' | 'PRIVATE';
  format: string;
  files: string[];
  onError?: ErrorPolicy;
  maxErrors?: number;
  /** Replace an existing knowledge base of this slug (atomically, at the end); otherwise it is an error. */
  replace?: boolean;
  /** The user importing; made a member of a knowledge base the import creates, so they can see it. */
  createdBy?: number | null;
  /** Called once the job exists, before any row is read: lets a caller answer with the job id and go on in the background. */
  onJobCreated?: (jobId: number) => void;
  /** Forces a loading method; by default COPY on PostgreSQL and batched unnest inserts on PGlite. */
  method?: 'copy' | 'unnest';
  /** Entities with at least this many edges get stored relation counts (default HUB_DEGREE); tests lower it. */
  hubDegree?: number;
  onProgress?: (p: ImportProgress) => void;
}

export interface ImportProgress {
  jobId: number;
  phase: ImportPhase;
  rowsRead: number;
  entities: number;
  edges: number;
  errors: number;
  bytesDone: number;
  bytesTotal: number;
  /** In the search-index phase: documents analysed so far, of all. */
  indexDone?: number;
  indexTotal?: number;
}

export interface ImportSummary {
  jobId: number;
  kbId: number;
  slug: string;
  entities: number;
  edges: number;
  duplicateEdges: number;
  entityTypes: Record<string, number>;
  relations: Record<string, number>;
  errors: { file: string; line: number; reason: string }[];
  method: 'copy' | 'unnest';
  seconds: number;
}

/**
 * Imports a knowledge source as a job. Rows stream into staging tables; indexes and statistics are
 * built after the load; the result is published in one short transaction. Until then nothing is
 * visible, and a failed or cancelled import leaves no trace (a re-import leaves the old version as it
 * was). Entities keep their internal ids across re-imports, matched by external id.
 */
export async function importKnowledgeBase(pool: pg.Pool, source: KnowledgeSource, opts: ImportOptions): Promise<ImportSummary> {
  const started = Date.now();
  const log = new IssueLog(opts.onError ?? 'stop', opts.maxErrors ?? 1000);
  await refuseOversizedEmbeddedImport(pool, opts.files);
  const { kbId, created } = await claimKnowledgeBase(pool, opts);
  const jobId = await startJob(pool, { kbId, slug: opts.slug, format: opts.format, files: opts.files, createdBy: opts.createdBy ?? null });
  const stopHeartbeat = startHeartbeat(pool, jobId);
  opts.onJobCreated?.(jobId);
  const staging = stagingTables(jobId);
  const client = await pool.connect();
  let released = false;
  let edgeIndexes: SideTask<number> | undefined;
  let indexBuild = null as ImportIndexBuild | null;
  const state = { phase: 'starting' as ImportPhase, rowsRead: 0, entities: 0, edges: 0 };
  const report = async (phase: ImportPhase) => {
    state.phase = phase;
    const p = { jobId, ...state, errors: log.issues.length, bytesDone: source.progress().done, bytesTotal: source.progress().total };
    opts.onProgress?.(p);
    const { cancelRequested } = await recordProgress(pool, jobId, p, log.issues);
    if (cancelRequested) throw new ImportAborted('Import cancelled', log.issues, true);
  };

  try {
    await createStagingTables(client, staging);
    const writer = await rowWriter(client, kbId, staging, { prefer: opts.method, vectorStreams: vectorStreams(pool) });
    const types = new NameRegistry(pool, 'node_type', kbId);
    const relations = new NameRegistry(pool, 'edge_type', kbId);
    const embedded = await isEmbeddedDatabase(client);
    // On PostgreSQL the edges' indexes are built on a second connection (a second core) while this one writes the
    // entities, indexes them and fills the search table; PGlite has one session and one thread, so it does all in turn.
    let stats = await loadRows(pool, kbId, source, writer, types, relations, log, state, report, embedded ? undefined : async () => {
      edgeIndexes = await onSideConnection(pool, async (side) => {
        await side.query(`SET maintenance_work_mem = '${INDEX_BUILD_MEMORY}'`);
        const merged = await buildEdgeIndexesMergingDuplicates(side, staging, kbId);
        await side.query('RESET maintenance_work_mem');
        return merged;
      });
    });

    await report('indexes');
    // For this connection only, reset before it goes back to the pool; the embedded database (at most 2 GiB) keeps its default.
    if (!embedded) await client.query(`SET maintenance_work_mem = '${INDEX_BUILD_MEMORY}'`);
    // The search index is analysed here, from as soon as the entities are keyed, while the server builds the rest;
    // PGlite would run it all in turn.
    await buildEntityIndexes(client, staging, kbId, embedded ? undefined : async () => {
      indexBuild = await startImportIndexBuild(pool, kbId, { staging: staging.entity, live: liveTables(kbId).entity }, state.entities);
    });
    await buildSearchTable(client, staging, kbId, writer.vectors ? staging.vectors : undefined);
    const duplicateEdges = edgeIndexes ? await edgeIndexes.result : await buildEdgeIndexesMergingDuplicates(client, staging, kbId);
    await report('statistics');
    // Degrees and counts were tallied while loading; merged duplicates make them recount in SQL.
    if (duplicateEdges > 0) {
      stats = await recountInDatabase(client, staging);
      await client.query(`UPDATE ${staging.search} s SET degree = e.degree FROM ${staging.entity} e WHERE e.id = s.id AND e.degree <> s.degree`);
    }
    // VACUUM sets the visibility map, so relation counts are index-only scans from the first request
    // instead of after autovacuum gets round to the new tables.
    await client.query(`VACUUM (ANALYZE) ${staging.entity}, ${staging.edge}, ${staging.search}`);
    const derived = await deriveCounts(client, staging, kbId, opts.hubDegree ?? HUB_DEGREE, stats.triples);
    await client.query('RESET maintenance_work_mem');

    await report('publishing');
    const counts = await publish(client, kbId, staging, stats, derived, opts);
    // Autovacuum never analyzes partitioned parents; without their statistics the planner misjudges
    // every join across knowledge bases' partitions. The data is published already, so this may not fail the import.
    // Only the columns queries join, filter and sort on across partitions: sampling every knowledge base's long
    // documents, texts and tsvectors took most of the publishing phase at STaRK-Amazon's document lengths. The server
    // samples while this process finishes the search index.
    const analysed = client.query(`ANALYZE entity (${PARENT_STATISTICS.entity}), edge, entity_search (${PARENT_STATISTICS.search})`)
      .catch((err: Error) => console.warn(`ANALYZE after import ${jobId}: ${err.message}`));
    const indexing: ImportProgress = { jobId, ...state, phase: 'search-index', errors: log.issues.length, bytesDone: source.progress().done, bytesTotal: source.progress().total };
    await recordProgress(pool, jobId, indexing, log.issues);
    await buildSearchIndex(pool, kbId, indexing, opts.onProgress, indexBuild);
    await analysed;
    const summary: ImportSummary = {
      jobId,
      kbId,
      slug: opts.slug,
      entities: state.entities,
      edges: state.edges - duplicateEdges,
      duplicateEdges,
      ...counts,
      errors: log.issues.map((i) => ({ file: i.file, line: i.line, reason: i.reason })),
      method: writer.method,
      seconds: (Date.now() - started) / 1000,
    };
    await finishJob(pool, jobId, 'SUCCEEDED', { ...state, phase: 'done' }, log.issues, summary, null);
    return summary;
  } catch (err) {
    // The loading connection may be mid-COPY and holding locks on the staging tables: close it
    // (the server then aborts the COPY and frees the locks) before the tables are dropped.
    client.release(true);
    released = true;
    await edgeIndexes?.cancel();
    await indexBuild?.discard();
    const fatal = err instanceof IngestIssue ? new ImportAborted(`Import stopped at ${err}`, [...log.issues, err]) : err;
    const cancelled = fatal instanceof ImportAborted && fatal.cancelled;
    const issues = fatal instanceof ImportAborted ? fatal.issues : log.issues;
    // Clean up before the status turns final, so whoever polls the job never sees it failed while
    // the knowledge base it was creating still exists.
    await discardImport(pool, kbId, created, staging).catch(() => {});
    await finishJob(pool, jobId, cancelled ? 'CANCELLED' : 'FAILED', state, issues, null, (fatal as Error).message).catch(() => {});
    throw fatal;
  } finally {
    stopHeartbeat();
    if (!released) client.release();
  }
}

/**
 * Finishes the published version's default BM25 index (started during the import on PostgreSQL, built now on
 * the embedded database), so search and the baseline answer at once, with its progress in the job's message.
 * The data is published already: a failure only warns (the index is built again on first use), and a cancel
 * request comes too late to undo anything.
 */
async function buildSearchIndex(pool: pg.Pool, kbId: number, progress: ImportProgress, onProgress: ImportOptions['onProgress'], started: ImportIndexBuild | null): Promise<void> {
  const follow = (done: number, total: number) => {
    onProgress?.({ ...progress, indexDone: done, indexTotal: total });
    recordStep(pool, progress.jobId, indexProgressMessage(done, total)).catch(() => undefined);
  };
  try {
    if (started) {
      started.follow(follow);
      await started.publish();
    } else {
      await ensureIndex(pool, kbId, false, undefined, follow);
    }
  } catch (err) {
    console.warn(`Import ${progress.jobId}: the search index was not built (it will be on first use): ${(err as Error).message}`);
  }
}

/** The knowledge base the import writes to: a new one in LOADING state (invisible), or the one it replaces. */
async function claimKnowledgeBase(pool: pg.Pool, opts: ImportOptions): Promise<{ kbId: number; created: boolean }> {
  const existing = await pool.query<{ id: number; status: string }>('SELECT id, status FROM knowledge_base WHERE slug = $1', [opts.slug]);
  const row = existing.rows[0];
  if (row) {
    if (!opts.replace) throw conflict(`Knowledge base "${opts.slug}" already exists; re-import it with replace`);
    const running = await pool.query(`SELECT id FROM import_job WHERE kb_id = $1 AND status = 'RUNNING'`, [row.id]);
    if (running.rows.length) throw conflict(`Knowledge base "${opts.slug}" is being imported already (job ${running.rows[0].id})`);
    return { kbId: row.id, created: false };
  }
  const { rows } = await pool.query<{ id: number }>(
    `INSERT INTO knowledge_base (slug, name, description, source, license, visibility, status)
     VALUES ($1, $2, $3, $4, $5, $6::visibility, 'LOADING') RETURNING id`,
    [opts.slug, opts.name ?? opts.slug, opts.description ?? '', opts.source ?? '', opts.license ?? '', opts.visibility ?? 'PRIVATE'],
  );
  const kbId = rows[0]!.id;
  if (opts.createdBy) await pool.query('INSERT INTO kb_member (kb_id, user_id) VALUES ($1, $2)', [kbId, opts.createdBy]);
  return { kbId, created: true };
}

/** The same (source, relation, target) given twice is one edge: on a key violation keep the first, count the rest. */
async function buildEdgeIndexesMergingDuplicates(client: Queryable, t: TableNames, kbId: number): Promise<number> {
  try {
    await buildEdgeIndexes(client, t, kbId);
    return 0;
  } catch (err) {
    if ((err as { code?: string }).code !== '23505') throw err;
  }
  const { rowCount } = await client.query(
    `DELETE FROM ${t.edge} WHERE ctid IN (
       SELECT ctid FROM (SELECT ctid, row_number() OVER (PARTITION BY source_id, type_id, target_id) AS k FROM ${t.edge}) x WHERE k > 1)`,
  );
  await buildEdgeIndexes(client, t, kbId);
  return rowCount ?? 0;
}

/** The slow path after duplicates were merged: degrees and every count read back from the tables. */
async function recountInDatabase(client: pg.PoolClient, t: TableNames): Promise<LoadedStatistics> {
  await client.query(
    `UPDATE ${t.entity} e SET degree = coalesce(d.n, 0)
       FROM ${t.entity} e2 LEFT JOIN (SELECT id, sum(n)::int AS n FROM (
               SELECT source_id AS id, count(*) AS n FROM ${t.edge} GROUP BY source_id
               UNION ALL
               SELECT target_id, count(*) FROM ${t.edge} GROUP BY target_id) x GROUP BY id) d ON d.id = e2.id
      WHERE e.id = e2.id`,
  );
  const types = await client.query<{ id: number; n: number }>(`SELECT type_id AS id, count(*)::int AS n FROM ${t.entity} GROUP BY type_id`);
  const relations = await client.query<{ id: number; n: string }>(`SELECT type_id AS id, count(*) AS n FROM ${t.edge} GROUP BY type_id`);
  const triples = await client.query<{ source: number; relation: number; target: number; n: string }>(
    `SELECT s.type_id AS source, e.type_id AS relation, o.type_id AS target, count(*) AS n
       FROM ${t.edge} e JOIN ${t.entity} s ON s.id = e.source_id JOIN ${t.entity} o ON o.id = e.target_id
      GROUP BY 1, 2, 3`,
  );
  const degrees = await client.query<{ bucket: number; count: number }>(
    `SELECT CASE WHEN degree = 0 THEN 0 ELSE floor(log(2, degree))::int + 1 END AS bucket, count(*)::int AS count
       FROM ${t.entity} GROUP BY 1 ORDER BY 1`,
  );
  return {
    typeCounts: new Map(types.rows.map((r) => [r.id, r.n])),
    relationCounts: new Map(relations.rows.map((r) => [r.id, Number(r.n)])),
    triples: triples.rows.map((r) => ({ ...r, n: Number(r.n) })),
    degreeHistogram: degrees.rows.map(({ bucket, count }) => degreeRange(bucket, count)),
  };
}

/** Swaps the new version in and writes its counts, in one short transaction. */
async function publish(client: pg.PoolClient, kbId: number, staging: TableNames, stats: LoadedStatistics, derived: DerivedCounts, opts: ImportOptions): Promise<Pick<ImportSummary, 'entityTypes' | 'relations'>> {
  const types = [...stats.typeCounts].map(([typeId, n]) => ({ typeId, n }));
  const relationCounts = [...stats.relationCounts].map(([typeId, n]) => ({ typeId, n }));
  const ids = (xs: { typeId: number }[]) => xs.map((x) => x.typeId);
  const counts = (xs: { n: number }[]) => xs.map((x) => x.n);
  await client.query('BEGIN');
  try {
    await client.query('SELECT id FROM knowledge_base WHERE id = $1 FOR UPDATE', [kbId]);
    await publishPartitions(client, kbId, staging);
    await publishDerivedCounts(client, kbId, derived);
    await client.query('DELETE FROM schema_triple WHERE kb_id = $1', [kbId]);
    await client.query('DELETE FROM node_type t WHERE kb_id = $1 AND NOT (id = ANY($2::int[]))', [kbId, ids(types)]);
    await client.query('DELETE FROM edge_type t WHERE kb_id = $1 AND NOT (id = ANY($2::int[]))', [kbId, ids(relationCounts)]);
    await client.query(
      'UPDATE node_type t SET entity_count = c.n FROM unnest($1::int[], $2::int[]) AS c(id, n) WHERE t.id = c.id',
      [ids(types), counts(types)],
    );
    await client.query(
      'UPDATE edge_type t SET edge_count = c.n FROM unnest($1::int[], $2::bigint[]) AS c(id, n) WHERE t.id = c.id',
      [ids(relationCounts), counts(relationCounts)],
    );
    await client.query(
      `INSERT INTO schema_triple (kb_id, source_type_id, edge_type_id, target_type_id, edge_count)
       SELECT $1, s, r, o, n FROM unnest($2::int[], $3::int[], $4::int[], $5::bigint[]) AS u(s, r, o, n)`,
      [kbId, stats.triples.map((x) => x.source), stats.triples.map((x) => x.relation), stats.triples.map((x) => x.target), counts(stats.triples)],
    );
    await client.query(
      `UPDATE knowledge_base SET status = 'READY', updated_at = now(),
          name = coalesce($2, name), description = coalesce($3, description), source = coalesce($4, source), license = coalesce($5, license),
          entity_count = $6, edge_count = $7, degree_histogram = $8::jsonb
        WHERE id = $1`,
      [kbId, opts.name ?? null, opts.description ?? null, opts.source ?? null, opts.license ?? null,
        types.reduce((a, x) => a + x.n, 0), relationCounts.reduce((a, x) => a + x.n, 0), JSON.stringify(stats.degreeHistogram)],
    );
    const typeRows = await client.query<{ name: string; n: number }>('SELECT name, entity_count AS n FROM node_type WHERE kb_id = $1 ORDER BY name', [kbId]);
    const rels = await client.query<{ name: string; n: string }>('SELECT name, edge_count AS n FROM edge_type WHERE kb_id = $1 ORDER BY name', [kbId]);
    await client.query('COMMIT');
    return {
      entityTypes: Object.fromEntries(typeRows.rows.map((r) => [r.name, r.n])),
      relations: Object.fromEntries(rels.rows.map((r) => [r.name, Number(r.n)])),
    };
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  }
}

/**
 * Removes what a failed import wrote: its staging tables, and either the knowledge base it created
 * or the type and relation rows it added to the one it was replacing.
 */
export async function discardImport(db: Queryable, kbId: number, created: boolean, staging: StagingTables): Promise<void> {
  await dropTables(db, staging);
  if (created) {
    await db.query(`DELETE FROM knowledge_base WHERE id = $1 AND status = 'LOADING'`, [kbId]);
  } else {
    await forgetUnusedNames(db, kbId);
  }
}

/** After a failed re-import: type and relation rows it created, which the live version does not use. */
async function forgetUnusedNames(db: Queryable, kbId: number): Promise<void> {
  await db.query('DELETE FROM node_type t WHERE kb_id = $1 AND NOT EXISTS (SELECT 1 FROM entity e WHERE e.kb_id = $1 AND e.type_id = t.id)', [kbId]);
  await db.query('DELETE FROM edge_type t WHERE kb_id = $1 AND NOT EXISTS (SELECT 1 FROM edge e WHERE e.kb_id = $1 AND e.type_id = t.id)', [kbId]);
}
