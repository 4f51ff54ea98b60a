import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importKnowledgeBase, type ImportProgress } from '../../lib/ingest/importer';
import { memorySource, type InMemoryKnowledgeBase } from '../../lib/ingest/memory-source';
import { processStart } from '../../lib/ingest/owner';
import { BM25_DEFAULTS } from '../../lib/retrieval/bm25';
import { buildIndexInBackground, currentIndex, ensureIndex, removeAbandonedBuilds, type Bm25Index } from '../../lib/retrieval/bm25-index';
import { bm25Positions, scoreBm25 } from '../../lib/retrieval/bm25-score';
import { createPostingTable } from '../../lib/retrieval/bm25-write';
import { openAppDatabase, pool } from '../support/app-database';
import type { TestDatabase } from '../support/test-database';

let testDb: TestDatabase;
beforeAll(async () => { testDb = await openAppDatabase(); });
afterAll(async () => testDb.drop());

const doc = (externalId: string, name: string, details: string) => ({ externalId, type: 'record', name, aliases: [], document: { details } });
const KB: InMemoryKnowledgeBase = {
  entities: [
    doc('a', 'Bowel inflammation', 'Chronic inflammation of the bowel.'),
    doc('b', 'Word soup', 'The the the of of of the a the of.'),
    doc('c', 'Disease registry', 'Registries of inflammatory diseases.'),
    doc('d', 'Disease', 'A disease.'),
  ],
  edges: [],
};

async function importKb(slug: string, onProgress?: (p: ImportProgress) => void): Promise<number> {
  return (await importKnowledgeBase(pool(), memorySource(KB), { slug, format: 'test', files: [], onProgress })).kbId;
}

const names = async (kbId: number, index: Bm25Index, text: string) => {
  const [top] = await scoreBm25(pool(), index, BM25_DEFAULTS, [text], 10);
  const { rows } = await pool().query<{ id: number; external_id: string }>('SELECT id, external_id FROM entity WHERE kb_id = $1', [kbId]);
  const external = new Map(rows.map((r) => [r.id, r.external_id]));
  return top!.map((s) => external.get(s.entityId));
};
const hasTerm = async (index: Bm25Index, term: string) =>
  (await pool().query('SELECT 1 FROM bm25_term WHERE index_id = $1 AND term = $2', [index.id, term])).rows.length > 0;

describe('BM25 analyzer options', () => {
  it('index stop-word-free and stemmed terms as separate variants, and queries go through the same analyzer', async () => {
    const kbId = await importKb('bm25-analyzer');
    const plain = (await currentIndex(pool(), kbId, false))!;
    const noStops = await ensureIndex(pool(), kbId, false, { stopWords: true, stemming: false });
    const stemmed = await ensureIndex(pool(), kbId, false, { stopWords: false, stemming: true });
    expect(new Set([plain.id, noStops.id, stemmed.id]).size).toBe(3);
    expect(noStops.analyzer).toEqual({ stopWords: true, stemming: false });

    // Terms: stop words only without the option, stems only with it.
    expect(await hasTerm(plain, 'the')).toBe(true);
    expect(await hasTerm(noStops, 'the')).toBe(false);
    expect(await hasTerm(plain, 'diseases')).toBe(true);
    expect(await hasTerm(stemmed, 'diseases')).toBe(false);
    expect(await hasTerm(stemmed, 'diseas')).toBe(true);
    // Lengths count the analysed terms: the word soup has 11 tokens, none of them left without stop words.
    expect(noStops.avgLength).toBeLessThan(plain.avgLength);

    // Stop words rank the word soup first as written, and match nothing once dropped.
    expect((await names(kbId, plain, 'the of'))[0]).toBe('b');
    expect(await names(kbId, noStops, 'the of')).toEqual([]);
    // "diseases" finds only the registry as written; stemmed, the plain "Disease" entity too.
    expect(await names(kbId, plain, 'diseases')).toEqual(['c']);
    expect(new Set(await names(kbId, stemmed, 'diseases'))).toEqual(new Set(['c', 'd']));
    // Query words are stemmed as the documents were: "Bowels" meets "bowel".
    expect(await names(kbId, stemmed, 'Bowels')).toEqual(['a']);
    expect(await names(kbId, plain, 'Bowels')).toEqual([]);
  });
});

describe('BM25 positions of chosen entities', () => {
  it('are their places in the full ranking; entities sharing no word have none', async () => {
    const kbId = await importKb('bm25-positions');
    const index = (await currentIndex(pool(), kbId, false))!;
    const text = 'the disease of the bowel';
    const [top] = await scoreBm25(pool(), index, BM25_DEFAULTS, [text], 10);
    const { rows } = await pool().query<{ id: number }>('SELECT id FROM entity WHERE kb_id = $1 ORDER BY id', [kbId]);
    const all = rows.map((r) => r.id);
    const { ranks, matched } = await bm25Positions(pool(), index, BM25_DEFAULTS, text, all);
    expect(matched).toBe(top!.length);
    expect([...ranks].sort((x, y) => x[1] - y[1])).toEqual(top!.map((s, i) => [s.entityId, i + 1]));
    // Only the first entity speaks of the bowel.
    const only = await bm25Positions(pool(), index, BM25_DEFAULTS, 'bowel', all);
    expect(only.matched).toBe(1);
    expect([...only.ranks]).toEqual([[all[0], 1]]);
  });
});

describe('the BM25 index build as a job', () => {
  it('is built at the end of an import, which reports the phase and its progress', async () => {
    const seen: ImportProgress[] = [];
    const kbId = await importKb('bm25-import', (p) => seen.push(p));
    const index = await currentIndex(pool(), kbId, false);
    expect(index).toMatchObject({ docs: 4, analyzer: { stopWords: false, stemming: false } });
    const indexing = seen.filter((p) => p.phase === 'search-index');
    expect(indexing.at(-1)).toMatchObject({ indexDone: 4, indexTotal: 4 });
    const { rows: [job] } = await pool().query<{ status: string; phase: string; message: string | null }>('SELECT status, phase, message FROM import_job WHERE kb_id = $1', [kbId]);
    expect(job).toEqual({ status: 'SUCCEEDED', phase: 'done', message: null });
  });

  it('writes into an invisible row until it swaps, keeping the previous index until then', async () => {
    const kbId = await importKb('bm25-swap');
    const old = (await currentIndex(pool(), kbId, false))!;
    // A newer version of the knowledge base (as a re-import marks it) needs a new index.
    await pool().query('UPDATE knowledge_base SET updated_at = updated_at + interval \'1 second\' WHERE id = $1', [kbId]);
    const progress: [number, number][] = [];
    const fresh = await ensureIndex(pool(), kbId, false, undefined, (done, total) => progress.push([done, total]));
    expect(progress[0]).toEqual([0, 4]);
    expect(progress.at(-1)).toEqual([4, 4]);
    expect(fresh.id).not.toBe(old.id);
    expect((await currentIndex(pool(), kbId, false))!.id).toBe(fresh.id);
    const { rows } = await pool().query<{ id: number; status: string }>('SELECT id, status FROM bm25_index WHERE kb_id = $1', [kbId]);
    expect(rows).toEqual([{ id: fresh.id, status: 'READY' }]);
    expect((await pool().query('SELECT 1 FROM bm25_block WHERE index_id = $1', [old.id])).rows).toEqual([]);
  });

  it("a build's row stays out of sight while it runs; the old index's postings stay until the swap", async () => {
    const kbId = await importKb('bm25-visible');
    const old = (await currentIndex(pool(), kbId, false, { stopWords: false, stemming: false }))!;
    await pool().query('UPDATE knowledge_base SET updated_at = updated_at + interval \'1 second\' WHERE id = $1', [kbId]);
    const checks: Promise<{ building: number; oldPostings: number; current: Bm25Index | null }>[] = [];
    await ensureIndex(pool(), kbId, false, undefined, (done) => {
      if (done === 0) {
        checks.push((async () => ({
          building: (await pool().query(`SELECT 1 FROM bm25_index WHERE kb_id = $1 AND status = 'BUILDING'`, [kbId])).rows.length,
          oldPostings: (await pool().query('SELECT 1 FROM bm25_block WHERE index_id = $1', [old.id])).rows.length,
          current: await currentIndex(pool(), kbId, false),
        }))());
      }
    });
    const [check] = await Promise.all(checks);
    expect(check!.building).toBe(1);
    expect(check!.oldPostings).toBeGreaterThan(0);
    // The stale old index is not current (another version), and the building one is not either.
    expect(check!.current).toBeNull();
  });

  it('cleans up a build whose process died, waits for one whose process lives, and builds once per variant in a process', async () => {
    const kbId = await importKb('bm25-owners');
    await pool().query('DELETE FROM bm25_index WHERE kb_id = $1', [kbId]);
    const insertBuilding = async (pid: number, start: string | null) => (await pool().query<{ id: number }>(
      `INSERT INTO bm25_index (kb_id, relations, status, kb_version, docs, avg_length, done, total, owner_host, owner_pid, owner_start)
       SELECT id, false, 'BUILDING', updated_at, 0, 0, 1, 4, $2, $3, $4 FROM knowledge_base WHERE id = $1 RETURNING id`,
      [kbId, os.hostname(), pid, start])).rows[0]!.id;

    // A process that has exited: its half-written build is removed, postings table and all.
    const dead = await insertBuilding(process.pid, 'not-this-process-start');
    await createPostingTable(pool(), dead);
    await pool().query(`INSERT INTO bm25_block_${dead} (index_id, term_id, last_entity, entity_ids, tfs) VALUES ($1, 1, 1, '{1}', '{1}')`, [dead]);
    expect(await removeAbandonedBuilds(pool(), kbId)).toBe(1);
    expect((await pool().query('SELECT to_regclass($1) AS t', [`bm25_block_${dead}`])).rows).toEqual([{ t: null }]);

    // A live process (the test runner's parent) is building: a caller follows its progress and waits; when that
    // build goes away (it failed), the caller builds the index itself.
    const live = await insertBuilding(process.ppid, processStart(process.ppid));
    const heard: [number, number][] = [];
    let settled = false;
    const waiting = ensureIndex(pool(), kbId, false, undefined, (done, total) => heard.push([done, total])).finally(() => { settled = true; });
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(settled).toBe(false);
    expect(heard[0]).toEqual([1, 4]);
    expect(await removeAbandonedBuilds(pool(), kbId)).toBe(0);
    await pool().query('DELETE FROM bm25_index WHERE id = $1', [live]);
    const built = await waiting;
    expect(built.docs).toBe(4);
    expect(heard.at(-1)).toEqual([4, 4]);

    // Started twice in the background and asked for once more: one build, one index.
    await pool().query('DELETE FROM bm25_index WHERE kb_id = $1', [kbId]);
    buildIndexInBackground(pool(), kbId);
    buildIndexInBackground(pool(), kbId);
    const joined = await ensureIndex(pool(), kbId, false);
    const { rows } = await pool().query<{ id: number }>('SELECT id FROM bm25_index WHERE kb_id = $1', [kbId]);
    expect(rows).toEqual([{ id: joined.id }]);
  });
});

describe("an import's BM25 index", () => {
  const blockTables = async () =>
    (await pool().query<{ t: string }>(`SELECT relname AS t FROM pg_class WHERE relname ~ '^bm25_block_[0-9]+$' ORDER BY 1`)).rows.map((r) => r.t);
  const rows = async (kbId: number) =>
    (await pool().query<{ id: number; status: string; current: boolean }>(
      `SELECT i.id, i.status, i.kb_version = k.updated_at AS current FROM bm25_index i JOIN knowledge_base k ON k.id = i.kb_id WHERE i.kb_id = $1 ORDER BY i.id`,
      [kbId])).rows;
  const kbOfJob = async (jobId: number) => (await pool().query<{ kb_id: number }>('SELECT kb_id FROM import_job WHERE id = $1', [jobId])).rows[0]!.kb_id;

  it('is analysed while the server builds the other indexes (PostgreSQL), is current for the published version, and ranks as one built afterwards', async () => {
    // What the import's statistics phase sees: on PostgreSQL the build has begun, in a row no search uses yet.
    const seen: Promise<{ status: string; current: boolean }[]>[] = [];
    const { kbId } = await importKnowledgeBase(pool(), memorySource(KB), {
      slug: 'bm25-during-import', format: 'test', files: [],
      onProgress: (p) => { if (p.phase === 'statistics' && !seen.length) seen.push(kbOfJob(p.jobId).then(rows)); },
    });
    const during = await seen[0]!;
    expect(during).toEqual(testDb.kind === 'postgres' ? [expect.objectContaining({ status: 'BUILDING' })] : []);

    const index = (await currentIndex(pool(), kbId, false))!;
    expect(await rows(kbId)).toEqual([{ id: index.id, status: 'READY', current: true }]);
    // The same index as one built from the published tables (which replaces it): documents, lengths, terms and ranking.
    const terms = async (i: Bm25Index) => (await pool().query('SELECT term, df FROM bm25_term WHERE index_id = $1 ORDER BY term', [i.id])).rows;
    const query = 'inflammation of the bowel disease';
    const [imported, importedTerms] = [await names(kbId, index, query), await terms(index)];
    expect(importedTerms.length).toBeGreaterThan(10);
    await pool().query(`UPDATE knowledge_base SET updated_at = updated_at + interval '1 second' WHERE id = $1`, [kbId]);
    const rebuilt = await ensureIndex(pool(), kbId, false);
    expect(rebuilt).toMatchObject({ docs: index.docs, avgLength: index.avgLength });
    expect(await terms(rebuilt)).toEqual(importedTerms);
    expect(await names(kbId, rebuilt, query)).toEqual(imported);
    expect(imported[0]).toBe('a');
  });

  it('replaces the previous version’s index when a re-import publishes, and a cancelled re-import leaves the old one and no build behind', async () => {
    const { kbId } = await importKnowledgeBase(pool(), memorySource(KB), { slug: 'bm25-reimport', format: 'test', files: [] });
    const first = (await currentIndex(pool(), kbId, false))!;
    await importKnowledgeBase(pool(), memorySource(KB), { slug: 'bm25-reimport', format: 'test', files: [], replace: true });
    const second = (await currentIndex(pool(), kbId, false))!;
    expect(second.id).not.toBe(first.id);
    expect(await rows(kbId)).toEqual([{ id: second.id, status: 'READY', current: true }]);
    const tables = await blockTables();
    expect(tables).toContain(`bm25_block_${second.id}`);
    expect(tables).not.toContain(`bm25_block_${first.id}`);

    // Cancelled once the statistics phase has begun (after the build started on PostgreSQL), before publishing.
    const cancelling = importKnowledgeBase(pool(), memorySource(KB), {
      slug: 'bm25-reimport', format: 'test', files: [], replace: true,
      onProgress: (p) => { if (p.phase === 'statistics') void pool().query('UPDATE import_job SET cancel_requested = true WHERE id = $1', [p.jobId]); },
    });
    await expect(cancelling).rejects.toThrow(/cancelled/i);
    expect(await rows(kbId)).toEqual([{ id: second.id, status: 'READY', current: true }]);
    expect(await blockTables()).toEqual(tables);
    expect(await names(kbId, second, 'bowel')).toEqual(['a']);
  });
});
