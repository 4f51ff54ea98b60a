import { inTransaction, type Database, type Queryable } from '../db/transaction';
import { ownerGone, thisProcess } from '../ingest/owner';
import { retrieverText } from '../kb/retriever-text';
import { keepCommonPostings } from './bm25-warm';
import { analyse, DEFAULT_ANALYZER, termCounts, type Analyzer } from './tokenise';
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

type Claim = { index: Bm25Index } | { waitFor: number } | { build: number; total: number };

async function claimAndBuild(db: Database, kbId: number, relations: boolean, analyzer: Analyzer, onProgress: BuildProgress): Promise<Bm25Index> {
  for (;;) {
    const claim = await inTransaction(db, async (client): Promise<Claim> => {
      await client.query(`SELECT pg_advisory_xact_lock(hashtext('bm25_index'), $1)`, [kbId]);
      await removeAbandonedBuilds(client, kbId);
      const index = await currentIndex(client, kbId, relations, analyzer);
      if (index) return { index };
      const { rows: [other] } = await client.query<{ id: number }>(
        `SELECT id FROM bm25_index WHERE kb_id = $1 AND relations = $2 AND stop_words = $3 AND stemming = $4 AND status = 'BUILDING'`,
        [kbId, relations, analyzer.stopWords, analyzer.stemming]);
      if (other) return { waitFor: other.id };
      const owner = thisProcess();
      const { rows } = await client.query<{ id: number; total: number }>(
        `INSERT INTO bm25_index (kb_id, relations, stop_words, stemming, status, kb_version, docs, avg_length, total, owner_host, owner_pid, owner_start)
         SELECT id, $2, $3, $4, 'BUILDING', updated_at, 0, 0, entity_count, $5, $6, $7 FROM knowledge_base WHERE id = $1
         RETURNING id, total`, [kbId, relations, analyzer.stopWords, analyzer.stemming, owner.host, owner.pid, owner.start]);
      await createPostingTable(client, rows[0]!.id);
      buildRows.add(rows[0]!.id);
      return { build: rows[0]!.id, total: rows[0]!.total };
    });
    if ('index' in claim) return claim.index;
    if ('build' in claim) return build(db, kbId, relations, analyzer, claim.build, claim.total, onProgress);
    await waitForBuild(db, claim.waitFor, onProgress);
  }
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

  /**
   * One page of documents (in entity id order) as postings grouped by term, entity ids rising within each
   * term. Grouped by a counting sort over the page's terms: a map of lists per term cost twice as much.
   */
  page(docs: { id: number; words: string[] }[]): PostingPage {
    const lengths = { entity: [] as number[], length: [] as number[] };
    const term: number[] = [];
    const entity: number[] = [];
    const tf: number[] = [];
    const touched: number[] = [];
    for (const d of docs) {
      for (const [word, n] of termCounts(d.words)) {
        let id = this.ids.get(word);
        if (id === undefined) {
          id = this.ids.size + 1;
          this.ids.set(word, id);
          this.df[id] = 0;
          this.onPage[id] = 0;
        }
        this.df[id]! += 1;
        if (this.onPage[id] === 0) touched.push(id);
        this.onPage[id]! += 1;
        term.push(id);
        entity.push(d.id);
        tf.push(n);
      }
      lengths.entity.push(d.id);
      lengths.length.push(d.words.length);
      this.tokens += d.words.length;
    }
    // Each touched term's count becomes where its postings start, then the next free place as they are laid out.
    touched.sort((a, b) => a - b);
    let at = 0;
    for (const id of touched) {
      const n = this.onPage[id]!;
      this.onPage[id] = at;
      at += n;
    }
    const page: PostingPage = { term: new Array<number>(at), entity: new Array<number>(at), tf: new Array<number>(at), lengths };
    for (let i = 0; i < term.length; i++) {
      const place = this.onPage[term[i]!]!++;
      page.term[place] = term[i]!;
      page.entity[place] = entity[i]!;
      page.tf[place] = tf[i]!;
    }
    for (const id of touched) this.onPage[id] = 0;
    return page;
  }
}

/**
 * Fills the claimed row: reads entities in id order a page at a time and analyses them here while earlier pages
 * are written into the build's own postings table (each page's postings grouped by term, so that a term's
 * postings lie together in the table), recording the progress; then the table is keyed and attached, and the
 * terms and collection statistics are written, when the row turns ready and the variant's previous index is
 * deleted. Until then scoring never reads the row; on failure it is deleted, and its table with it.
 */
async function build(db: Database, kbId: number, relations: boolean, analyzer: Analyzer, indexId: number, total: number, onProgress: BuildProgress): Promise<Bm25Index> {
  // A promise kept for later gets a handler now, so that failing before it is awaited is not "unhandled".
  const later = <T,>(p: Promise<T>) => { p.catch(() => undefined); return p; };
  try {
    const vocabulary = new Vocabulary();
    const postings = await postingWriter(db, indexId);
    const fetch = (after: number) => later(db.query<{ id: number; text: string }>(
      'SELECT id, text FROM entity WHERE kb_id = $1 AND id > $2 ORDER BY id LIMIT $3', [kbId, after, PAGE]));
    let docs = 0;
    let written = 0;
    const writing: Promise<void>[] = [];
    let next = fetch(0);
    onProgress(0, total);
    for (;;) {
      const { rows } = await next;
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
    await postings.finish();
    const { ids: termIds, df, tokens } = vocabulary;
    const terms = [...termIds];
    for (let i = 0; i < terms.length; i += 10 * PAGE) {
      const slice = terms.slice(i, i + 10 * PAGE);
      await db.query('INSERT INTO bm25_term (index_id, id, term, df) SELECT $1, * FROM unnest($2::int[], $3::text[], $4::int[])',
        [indexId, slice.map(([, id]) => id), slice.map(([term]) => term), slice.map(([, id]) => df[id]!)]);
    }
    // Fresh statistics: planned on empty tables' estimates, lookups take a hundred times longer (the
    // postings got theirs as they were attached).
    await db.query('ANALYZE bm25_term, bm25_doc');
    const avgLength = docs ? tokens / docs : 0;
    const replaced = await inTransaction(db, async (client) => {
      await client.query(`SELECT pg_advisory_xact_lock(hashtext('bm25_index'), $1)`, [kbId]);
      await client.query(`UPDATE bm25_index SET status = 'READY', docs = $2, avg_length = $3, total = $2, done = $2, built_at = now() WHERE id = $1`, [indexId, docs, avgLength]);
      const { rows } = await client.query<{ id: number }>(
        `SELECT id FROM bm25_index WHERE kb_id = $1 AND relations = $2 AND stop_words = $3 AND stemming = $4 AND status = 'READY' AND id <> $5`,
        [kbId, relations, analyzer.stopWords, analyzer.stemming, indexId]);
      return rows.map((r) => r.id);
    });
    // The previous index goes once the new one is current (its postings go by trigger, which takes a while).
    if (replaced.length) await db.query('DELETE FROM bm25_index WHERE id = ANY($1::int[])', [replaced]);
    return { id: indexId, docs, avgLength, analyzer: { stopWords: analyzer.stopWords, stemming: analyzer.stemming } };
  } catch (err) {
    await db.query('DELETE FROM bm25_index WHERE id = $1', [indexId]).catch(() => undefined);
    throw err;
  } finally {
    buildRows.delete(indexId);
  }
}
