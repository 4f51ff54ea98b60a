import { inTransaction, type Database, type Queryable } from '../db/transaction';
import { ownerGone, thisProcess } from '../ingest/owner';
import { retrieverText } from '../kb/retriever-text';
import { keepCommonPostings } from './bm25-warm';
import { addAdjacency } from './bm25-adjacent';
import { analyse, DEFAULT_ANALYZER, type Analyzer } from './tokenise';
import { createPostingTable, postingWriter, type PostingPage } from './bm25-write';

/** A built index's identity, the analyzer its terms went through and the collection statistics scoring needs. */
export interface Bm25Index {
  id: number;
  docs: number;
  avgLength: number;
  analyzer: Analyzer;
}

/** How far a build has got, in documents. */
export type BuildProgress = (done: number, total: number) => void;

/** What a job's message says while the index it needs is built. */
export const indexProgressMessage = (done: number, total: number) =>
  `Building the BM25 index: ${done.toLocaleString('en')} of ${total.toLocaleString('en')} documents`;

/** Entities read (and postings written, in one commit) per round trip. */
const PAGE = 500;
/** Pages written at once: the server stores one while it receives the next (PostgreSQL uses a core per connection). */
const WRITERS = 2;
/** A build owned by another host is taken to have died when its heartbeat (touched every page) is this old. */
const ABANDONED_AFTER_MINUTES = 5;
/** How often a caller waiting for another process's build looks at its progress. */
const POLL_MS = 500;

// Builds running in this process, on globalThis because Next.js may load this module once per route bundle:
// `building` by variant (a second caller joins the first), `buildRows` the rows they write.
interface RunningBuild {
  promise: Promise<Bm25Index>;
  listeners: Set<BuildProgress>;
}
const globalForBuilds = globalThis as unknown as { __skbBm25Builds?: Map<string, RunningBuild>; __skbBm25Rows?: Set<number> };
const building = (globalForBuilds.__skbBm25Builds ??= new Map());
const buildRows = (globalForBuilds.__skbBm25Rows ??= new Set());

const variantKey = (kbId: number, relations: boolean, a: Analyzer) => `${kbId}:${relations}:${a.stopWords}:${a.stemming}`;

const INDEX_COLUMNS = `i.id, i.docs, i.avg_length AS "avgLength", json_build_object('stopWords', i.stop_words, 'stemming', i.stemming) AS analyzer`;

/**
 * The ready index of the knowledge base's current version for this document variant and analyzer, or null
 * when it was never built, is being built, or a re-import made it stale.
 */
export async function currentIndex(db: Queryable, kbId: number, relations: boolean, analyzer: Analyzer = DEFAULT_ANALYZER): Promise<Bm25Index | null> {
  const { rows } = await db.query<Bm25Index>(
    `SELECT ${INDEX_COLUMNS} FROM bm25_index i JOIN knowledge_base k ON k.id = i.kb_id
      WHERE i.kb_id = $1 AND i.relations = $2 AND i.stop_words = $3 AND i.stemming = $4 AND i.status = 'READY' AND i.kb_version = k.updated_at
      ORDER BY i.id DESC LIMIT 1`, [kbId, relations, analyzer.stopWords, analyzer.stemming]);
  return rows[0] ?? null;
}

/**
 * The current index, built first if missing or stale; `onProgress` hears how far the build has got. One build
 * per variant runs at a time: a second caller in this process joins the running build, one in another process
 * waits for it, following its progress. Documents are the flattened entity text, plus STaRK's relation lines
 * when `relations` (much slower to build: neighbours are read entity by entity).
 */
export async function ensureIndex(db: Database, kbId: number, relations: boolean, analyzer: Analyzer = DEFAULT_ANALYZER, onProgress?: BuildProgress): Promise<Bm25Index> {
  const ready = await currentIndex(db, kbId, relations, analyzer);
  if (ready) return ready;
  const key = variantKey(kbId, relations, analyzer);
  let run = building.get(key);
  if (!run) {
    const listeners = new Set<BuildProgress>();
    const started: RunningBuild = {
      listeners,
      promise: claimAndBuild(db, kbId, relations, analyzer, (done, total) => listeners.forEach((l) => l(done, total)))
        .finally(() => building.delete(key)),
    };
    building.set(key, started);
    run = started;
  }
  if (onProgress) run.listeners.add(onProgress);
  try {
    return await run.promise;
  } finally {
    if (onProgress) run.listeners.delete(onProgress);
  }
}

/** Starts building the default index (no relation lines, default analyzer) unless it is current or being built; errors are logged. */
export function buildIndexInBackground(db: Database, kbId: number): void {
  ensureIndex(db, kbId, false)
    .then((index) => keepCommonPostings(db, index))
    .catch((err: Error) => console.warn(`Building the BM25 index of knowledge base ${kbId}: ${err.message}`));
}

type Claim = { index: Bm25Index } | { waitFor: number } | { build: { id: number; total: number } };

async function claimAndBuild(db: Database, kbId: number, relations: boolean, analyzer: Analyzer, onProgress: BuildProgress): Promise<Bm25Index> {
  for (;;) {
    const claim = await inTransaction(db, async (client): Promise<Claim> => {
      await lockIndexes(client, kbId);
      await removeAbandonedBuilds(client, kbId);
      const index = await currentIndex(client, kbId, relations, analyzer);
      if (index) return { index };
      const other = await runningBuild(client, kbId, relations, analyzer);
      if (other !== null) return { waitFor: other };
      return { build: await insertBuildRow(client, kbId, relations, analyzer, null) };
    });
    if ('index' in claim) return claim.index;
    if ('build' in claim) return build(db, kbId, relations, analyzer, claim.build, onProgress);
    await waitForBuild(db, claim.waitFor, onProgress);
  }
}

/** Makes a knowledge base's index claims and swaps take turns, to the end of the transaction. */
async function lockIndexes(client: Queryable, kbId: number): Promise<void> {
  await client.query(`SELECT pg_advisory_xact_lock(hashtext('bm25_index'), $1)`, [kbId]);
}

/** The id of the variant's BUILDING row, or null. */
async function runningBuild(client: Queryable, kbId: number, relations: boolean, analyzer: Analyzer): Promise<number | null> {
  const { rows } = await client.query<{ id: number }>(
    `SELECT id FROM bm25_index WHERE kb_id = $1 AND relations = $2 AND stop_words = $3 AND stemming = $4 AND status = 'BUILDING'`,
    [kbId, relations, analyzer.stopWords, analyzer.stemming]);
  return rows[0]?.id ?? null;
}

/** Deletes a build this process ran (its postings table goes by trigger) and forgets it. */
async function dropBuild(db: Queryable, indexId: number): Promise<void> {
  await db.query('DELETE FROM bm25_index WHERE id = $1', [indexId]).catch(() => undefined);
  buildRows.delete(indexId);
}

/**
 * The BUILDING row of a build this process runs, and its postings table; `total` documents, by default the
 * knowledge base's entity count. Call holding the variant's lock.
 */
async function insertBuildRow(client: Queryable, kbId: number, relations: boolean, analyzer: Analyzer, total: number | null): Promise<{ id: number; total: number }> {
  const owner = thisProcess();
  const { rows } = await client.query<{ id: number; total: number }>(
    `INSERT INTO bm25_index (kb_id, relations, stop_words, stemming, status, kb_version, docs, avg_length, total, owner_host, owner_pid, owner_start)
     SELECT id, $2, $3, $4, 'BUILDING', updated_at, 0, 0, coalesce($8, entity_count), $5, $6, $7 FROM knowledge_base WHERE id = $1
     RETURNING id, total`, [kbId, relations, analyzer.stopWords, analyzer.stemming, owner.host, owner.pid, owner.start, total]);
  await createPostingTable(client, rows[0]!.id);
  buildRows.add(rows[0]!.id);
  return rows[0]!;
}

/** Follows another process's build until its row is ready or gone, or its owner is found dead (the next claim removes it). */
async function waitForBuild(db: Queryable, id: number, onProgress: BuildProgress): Promise<void> {
  for (;;) {
    const { rows: [row] } = await db.query<BuildRow & { status: string; done: number; total: number }>(
      `SELECT status, done, total, ${OWNER_COLUMNS} FROM bm25_index WHERE id = $1`, [id, ABANDONED_AFTER_MINUTES]);
    if (!row || row.status !== 'BUILDING' || abandoned(row)) return;
    onProgress(row.done, row.total);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

interface BuildRow {
  id: number;
  host: string | null;
  pid: number | null;
  start: string | null;
  stale: boolean;
}
/** A build row's owner, and whether its heartbeat is older than the minutes given as $2. */
const OWNER_COLUMNS = 'id, owner_host AS host, owner_pid AS pid, owner_start AS start, heartbeat_at < now() - make_interval(mins => $2) AS stale';
const abandoned = (row: BuildRow) => ownerGone(row, () => buildRows.has(row.id)) ?? row.stale;

/**
 * Deletes builds whose process died (killed, crashed, machine restarted): on this host as soon as the
 * process is gone, on another once its heartbeat is stale. `kbId` limits it to one knowledge base.
 * Returns how many it removed.
 */
export async function removeAbandonedBuilds(db: Queryable, kbId?: number): Promise<number> {
  const { rows } = await db.query<BuildRow>(
    `SELECT ${OWNER_COLUMNS} FROM bm25_index WHERE status = 'BUILDING' AND ($1::int IS NULL OR kb_id = $1)`, [kbId ?? null, ABANDONED_AFTER_MINUTES]);
  const dead = rows.filter(abandoned).map((r) => r.id);
  if (dead.length) await db.query(`DELETE FROM bm25_index WHERE id = ANY($1::int[]) AND status = 'BUILDING'`, [dead]);
  return dead.length;
}

/** The vocabulary of a build: term ids in order of first sight, with their document frequencies. */
class Vocabulary {
  readonly ids = new Map<string, number>();
  readonly df: number[] = [0];
  tokens = 0;
  /** Per term id, postings on the page being built (zero between pages). */
  private readonly onPage: number[] = [0];
  /** Per term id, its count and adjacency (`bm25-adjacent.ts`) in the document being read (zero between documents). */
  private inDoc = new Int32Array(1024);
  private adjacent = new Uint16Array(1024);
  /** The document being read as term ids. */
  private sequence = new Int32Array(1024);

  private idOf(word: string): number {
    let id = this.ids.get(word);
    if (id === undefined) {
      id = this.ids.size + 1;
      this.ids.set(word, id);
      this.df[id] = 0;
      this.onPage[id] = 0;
      if (id >= this.inDoc.length) {
        const inDoc = new Int32Array(2 * id);
        inDoc.set(this.inDoc);
        this.inDoc = inDoc;
        const adjacent = new Uint16Array(2 * id);
        adjacent.set(this.adjacent);
        this.adjacent = adjacent;
      }
    }
    return id;
  }

  /**
   * One page of documents (in entity id order) as postings grouped by term, entity ids rising within each
   * term. Grouped by a counting sort over the page's terms: a map of lists per term cost twice as much.
   */
  page(docs: { id: number; words: string[] }[]): PostingPage {
    const lengths = { entity: [] as number[], length: [] as number[] };
    const term: number[] = [];
    const entity: number[] = [];
    const tf: number[] = [];
    const adjacent: number[] = [];
    const touched: number[] = [];
    for (const d of docs) {
      const n = d.words.length;
      if (n > this.sequence.length) this.sequence = new Int32Array(2 * n);
      const inDoc: number[] = [];
      for (let i = 0; i < n; i++) {
        const id = this.idOf(d.words[i]!);
        this.sequence[i] = id;
        if (this.inDoc[id] === 0) inDoc.push(id);
        this.inDoc[id]! += 1;
      }
      addAdjacency(this.sequence, n, this.adjacent);
      // Terms in the order first seen in the document.
      for (const id of inDoc) {
        this.df[id]! += 1;
        if (this.onPage[id] === 0) touched.push(id);
        this.onPage[id]! += 1;
        term.push(id);
        entity.push(d.id);
        tf.push(this.inDoc[id]!);
        adjacent.push(this.adjacent[id]!);
        this.inDoc[id] = 0;
        this.adjacent[id] = 0;
      }
      lengths.entity.push(d.id);
      lengths.length.push(n);
      this.tokens += n;
    }
    // Each touched term's count becomes where its postings start, then the next free place as they are laid out.
    touched.sort((a, b) => a - b);
    let at = 0;
    for (const id of touched) {
      const n = this.onPage[id]!;
      this.onPage[id] = at;
      at += n;
    }
    const page: PostingPage = { term: new Array<number>(at), entity: new Array<number>(at), tf: new Array<number>(at), adjacent: new Array<number>(at), lengths };
    for (let i = 0; i < term.length; i++) {
      const place = this.onPage[term[i]!]!++;
      page.term[place] = term[i]!;
      page.entity[place] = entity[i]!;
      page.tf[place] = tf[i]!;
      page.adjacent[place] = adjacent[i]!;
    }
    for (const id of touched) this.onPage[id] = 0;
    return page;
  }
}

/**
 * Fills the claimed row and makes it current (see `fill`). Until then scoring never reads the row; on failure
 * it is deleted, and its table with it.
 */
async function build(db: Database, kbId: number, relations: boolean, analyzer: Analyzer, row: { id: number; total: number }, onProgress: BuildProgress): Promise<Bm25Index> {
  try {
    const filled = await fill(db, kbId, relations, analyzer, row, onProgress, { tables: ['entity'] });
    const index = await makeCurrent(db, kbId, relations, analyzer, row.id, filled, false);
    buildRows.delete(row.id);
    return index;
  } catch (err) {
    await dropBuild(db, row.id);
    throw err;
  }
}

/** Where a build reads its documents: the first of `tables` that exists; `stop` ends it before the next page. */
interface DocumentSource {
  tables: string[];
  stop?: () => boolean;
}

/**
 * Reads entities in id order a page at a time and analyses them here while earlier pages are written into the
 * build's own postings table (each page's postings grouped by term, so that a term's postings lie together in the
 * table), recording the progress; then the table is keyed and attached, and the terms written.
 */
async function fill(db: Database, kbId: number, relations: boolean, analyzer: Analyzer, row: { id: number; total: number }, onProgress: BuildProgress,
  source: DocumentSource): Promise<{ docs: number; avgLength: number }> {
  const indexId = row.id;
  const total = row.total;
  // A promise kept for later gets a handler now, so that failing before it is awaited is not "unhandled".
  const later = <T,>(p: Promise<T>) => { p.catch(() => undefined); return p; };
  const tables = [...source.tables];
  const readPage = async (after: number) => {
    for (;;) {
      try {
        return await db.query<{ id: number; text: string }>(
          `SELECT id, text FROM ${tables[0]} WHERE kb_id = $1 AND id > $2 ORDER BY id LIMIT $3`, [kbId, after, PAGE]);
      } catch (err) {
        // An import's staging table is renamed to its live name when the import publishes it.
        if ((err as { code?: string }).code !== '42P01' || tables.length === 1) throw err;
        tables.shift();
      }
    }
  };
  const vocabulary = new Vocabulary();
  const postings = await postingWriter(db, indexId);
  const fetch = (after: number) => later(readPage(after));
  let docs = 0;
  let written = 0;
  const writing: Promise<void>[] = [];
  let next = fetch(0);
  onProgress(0, total);
  for (;;) {
    const { rows } = await next;
    if (source.stop?.()) throw new Error('Index build stopped');
    if (!rows.length) break;
    next = fetch(rows.at(-1)!.id);
    const analysed = [];
    for (const e of rows) analysed.push({ id: e.id, words: analyse(relations ? await retrieverText(db, kbId, e.id) : e.text, analyzer) });
    const page = vocabulary.page(analysed);
    docs += rows.length;
    if (writing.length >= WRITERS) await writing.shift();
    writing.push(later(postings.write(page).then(async () => {
      const done = (written += rows.length);
      await db.query('UPDATE bm25_index SET done = greatest(done, $2), heartbeat_at = now() WHERE id = $1', [indexId, done]);
      onProgress(done, Math.max(total, done));
    })));
  }
  await Promise.all(writing);
  const { ids: termIds, df, tokens } = vocabulary;
  const terms = [...termIds];
  const writeTerms = async () => {
    for (let i = 0; i < terms.length; i += 10 * PAGE) {
      const slice = terms.slice(i, i + 10 * PAGE);
      await db.query('INSERT INTO bm25_term (index_id, id, term, df) SELECT $1, * FROM unnest($2::int[], $3::text[], $4::int[])',
        [indexId, slice.map(([, id]) => id), slice.map(([term]) => term), slice.map(([, id]) => df[id]!)]);
    }
  };
  // The terms go in on another connection while the postings are keyed: two statements, two cores.
  await Promise.all([postings.finish(), writeTerms()]);
  // Fresh statistics: planned on empty tables' estimates, lookups take a hundred times longer (the
  // postings got theirs as they were attached).
  await db.query('ANALYZE bm25_term, bm25_doc');
  return { docs, avgLength: docs ? tokens / docs : 0 };
}

/**
 * Turns a filled row ready, for the version it was claimed for or (`publishedVersion`, an import's index) for the
 * knowledge base's version now, and deletes the variant's previous index (its postings go by trigger, which
 * takes a while).
 */
async function makeCurrent(db: Database, kbId: number, relations: boolean, analyzer: Analyzer, indexId: number, filled: { docs: number; avgLength: number },
  publishedVersion: boolean): Promise<Bm25Index> {
  const { docs, avgLength } = filled;
  const replaced = await inTransaction(db, async (client) => {
    await lockIndexes(client, kbId);
    await client.query(
      `UPDATE bm25_index SET status = 'READY', docs = $2, avg_length = $3, total = $2, done = $2, built_at = now(),
              kb_version = CASE WHEN $4 THEN (SELECT updated_at FROM knowledge_base WHERE id = kb_id) ELSE kb_version END
        WHERE id = $1`, [indexId, docs, avgLength, publishedVersion]);
    const { rows } = await client.query<{ id: number }>(
      `SELECT id FROM bm25_index WHERE kb_id = $1 AND relations = $2 AND stop_words = $3 AND stemming = $4 AND status = 'READY' AND id <> $5`,
      [kbId, relations, analyzer.stopWords, analyzer.stemming, indexId]);
    return rows.map((r) => r.id);
  });
  if (replaced.length) await db.query('DELETE FROM bm25_index WHERE id = ANY($1::int[])', [replaced]);
  return { id: indexId, docs, avgLength, analyzer: { stopWords: analyzer.stopWords, stemming: analyzer.stemming } };
}

/** An import's index, built while the import goes on. */
export interface ImportIndexBuild {
  /** Follows the build's progress from now on. */
  follow(onProgress: BuildProgress): void;
  /** Once the import has published the version the build reads: waits for the build and makes it current. */
  publish(): Promise<Bm25Index>;
  /** The import failed: stops the build and deletes what it wrote. */
  discard(): Promise<void>;
}

/**
 * Starts building the default index of the version an import is loading, from its staging entity table
 * (keyed already), so that the build's analysis here and its writes overlap the import's index builds on the
 * server. The row stays BUILDING until `publish`, which dates it to the published version; searches meanwhile
 * use the previous version's index, and after publishing wait for this one. Null when another build of the
 * variant is running: the import then builds after publishing, as `ensureIndex` does.
 */
export async function startImportIndexBuild(db: Database, kbId: number, tables: { staging: string; live: string }, documents: number): Promise<ImportIndexBuild | null> {
  const analyzer = DEFAULT_ANALYZER;
  const row = await inTransaction(db, async (client) => {
    await lockIndexes(client, kbId);
    await removeAbandonedBuilds(client, kbId);
    return (await runningBuild(client, kbId, false, analyzer)) === null ? insertBuildRow(client, kbId, false, analyzer, documents) : null;
  });
  if (!row) return null;
  let follower: BuildProgress | undefined;
  let last: [number, number] = [0, row.total];
  let stopped = false;
  const filled = fill(db, kbId, false, analyzer, row, (done, total) => { last = [done, total]; follower?.(done, total); },
    { tables: [tables.staging, tables.live], stop: () => stopped });
  filled.catch(() => undefined);
  // A finished build waits for the import to publish: its heartbeat shows other hosts it is not abandoned.
  const heartbeat = setInterval(() => {
    db.query('UPDATE bm25_index SET heartbeat_at = now() WHERE id = $1', [row.id]).catch(() => undefined);
  }, 60_000);
  heartbeat.unref();
  const remove = async () => {
    clearInterval(heartbeat);
    await dropBuild(db, row.id);
  };
  return {
    follow(onProgress) {
      follower = onProgress;
      onProgress(...last);
    },
    async publish() {
      try {
        const index = await makeCurrent(db, kbId, false, analyzer, row.id, await filled, true);
        clearInterval(heartbeat);
        buildRows.delete(row.id);
        return index;
      } catch (err) {
        await remove();
        throw err;
      }
    },
    async discard() {
      stopped = true;
      await filled.catch(() => undefined);
      await remove();
    },
  };
}
