import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_BASELINE, runBaseline, startBaseline } from '../../lib/queries/baseline';
import { getRun, type RunTarget } from '../../lib/queries/runs';
import { importKnowledgeBase } from '../../lib/ingest/importer';
import { memorySource } from '../../lib/ingest/memory-source';
import { retrieverText } from '../../lib/kb/retriever-text';
import { currentIndex, ensureIndex } from '../../lib/retrieval/bm25-index';
import { tokenise } from '../../lib/retrieval/tokenise';
import { openAppDatabase, pool } from '../support/app-database';
import { IBD_DIR, importIbd } from '../support/primekg-ibd';
import { IBD_QA_CSV, importIbdQuerySet } from '../support/stark-qa';
import type { TestDatabase } from '../support/test-database';

let testDb: TestDatabase;
let target: RunTarget;
/** The first 40 IBD queries: enough to tell rankings apart, and quick to rank three ways. */
let small: RunTarget;

beforeAll(async () => {
  testDb = await openAppDatabase();
  const kbId = await importIbd(pool());
  target = { setId: await importIbdQuerySet(pool(), kbId), kbId, releaseId: null };
  small = { setId: await importIbdQuerySet(pool(), kbId, 'ibd-small', 40), kbId, releaseId: null };
});
afterAll(async () => testDb.drop());

/**
 * A plain BM25 written from the fixture files alone: each node's document as STaRK's get_doc_info flattens
 * it (name, type, then the node's fields: its description and source id; no relation lines), lower-cased
 * letter/digit words, every document scored for every query with k1 1.2 and b 0.75.
 */
function referenceBm25(): { hit1: number; mrr: number } {
  const words = (s: string) => s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const nodes = fs.readFileSync(path.join(IBD_DIR, 'nodes.jsonl'), 'utf8').split('\n').filter((l) => l.trim())
    .map((l) => JSON.parse(l) as { node_id: string; node_attr: string; node_index: number; node_name: string; node_type: string });
  const docs = nodes.map((n) => {
    const lines = [`- name: ${n.node_name}`, `- type: ${n.node_type}`];
    if (n.node_attr) lines.push(`- description: ${n.node_attr}`);
    lines.push(`- source_id: ${n.node_id}`);
    const tokens = words(lines.join('\n'));
    const tf = new Map<string, number>();
    for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
    return { id: String(n.node_index), length: tokens.length, tf };
  });
  const N = docs.length;
  const avg = docs.reduce((a, d) => a + d.length, 0) / N;
  const df = new Map<string, number>();
  for (const d of docs) for (const t of d.tf.keys()) df.set(t, (df.get(t) ?? 0) + 1);
  const k1 = 1.2;
  const b = 0.75;
  const rows = parse(fs.readFileSync(IBD_QA_CSV), { columns: true }) as { id: string; query: string; answer_ids: string }[];
  let hit1 = 0;
  let mrr = 0;
  let counted = 0;
  for (const row of rows) {
    const answers = new Set((JSON.parse(row.answer_ids) as number[]).map(String));
    if (!answers.size) continue;
    counted += 1;
    const terms = [...new Set(words(row.query))];
    const scored: { id: string; score: number }[] = [];
    for (const d of docs) {
      let score = 0;
      let matched = false;
      for (const t of terms) {
        const f = d.tf.get(t);
        if (!f) continue;
        matched = true;
        const n = df.get(t)!;
        score += Math.log(1 + (N - n + 0.5) / (n + 0.5)) * (f * (k1 + 1)) / (f + k1 * (1 - b + b * d.length / avg));
      }
      if (matched) scored.push({ id: d.id, score });
    }
    scored.sort((x, y) => y.score - x.score);
    const top = scored.slice(0, 100);
    if (top[0] && answers.has(top[0].id)) hit1 += 1;
    const rank = top.findIndex((s) => answers.has(s.id));
    if (rank >= 0) mrr += 1 / (rank + 1);
  }
  return { hit1: hit1 / counted, mrr: mrr / counted };
}

async function baselineMeans(options?: Parameters<typeof runBaseline>[5], on: RunTarget = target) {
  const id = await startBaseline(pool(), on, null, options);
  await runBaseline(pool(), on, id, null, undefined, options);
  const run = await getRun(pool(), on.setId, id);
  expect(run.status).toBe('DONE');
  return { run, means: run.summary!.overall.means! };
}

describe('the BM25 baseline on the IBD subset', () => {
  // The import built the index; ranking the 829 queries took 3.5 s on either database (idle), the reference
  // about as long; the budget is five times the whole test's slower measured time.
  it('agrees with a plain reference implementation on Hit@1 and MRR', { timeout: 120_000 }, async () => {
    const started = Date.now();
    const { run, means } = await baselineMeans();
    const productMs = Date.now() - started;
    expect(run.name).toBe('BM25 (k1 1.2, b 0.75)');
    const reference = referenceBm25();
    console.info(`BM25 on IBD: product ${productMs} ms (829 queries); reference`, reference, 'product', { hit1: means.hit1, mrr: means.mrr });
    // Far from zero, so the comparison says something.
    expect(reference.mrr).toBeGreaterThan(0.05);
    expect(Math.abs(means.hit1 - reference.hit1)).toBeLessThanOrEqual(0.01);
    expect(Math.abs(means.mrr - reference.mrr)).toBeLessThanOrEqual(0.01);
  });

  it('builds the index once per knowledge base version: later runs reuse it, a re-import builds the new one', async () => {
    const before = await currentIndex(pool(), target.kbId, false);
    expect(before).not.toBeNull();
    expect((await ensureIndex(pool(), target.kbId, false)).id).toBe(before!.id);
    const postings = async (id: number) => (await pool().query<{ n: number }>('SELECT coalesce(sum(cardinality(entity_ids)), 0)::int AS n FROM bm25_block WHERE index_id = $1', [id])).rows[0]!.n;
    const built = await postings(before!.id);
    await importIbd(pool(), 'ibd', { replace: true });
    // The import built the new version's index before it finished.
    const after = await currentIndex(pool(), target.kbId, false);
    expect(after).not.toBeNull();
    expect(after!.id).not.toBe(before!.id);
    expect(after!.docs).toBe(before!.docs);
    expect(await postings(after!.id)).toBe(built);
    // The stale index went with its postings.
    expect(await postings(before!.id)).toBe(0);
  });

  it('runs BM25 with stop words removed and stemming on an index of their own, built with progress', async () => {
    const analyzer = { stopWords: true, stemming: true };
    expect(await currentIndex(pool(), small.kbId, false, analyzer)).toBeNull();
    const heard: [number, number][] = [];
    const options = { ...DEFAULT_BASELINE, ...analyzer };
    const id = await startBaseline(pool(), small, null, options);
    await runBaseline(pool(), small, id, null, undefined, options, (done, total) => heard.push([done, total]));
    const run = await getRun(pool(), small.setId, id);
    expect(run.name).toBe('BM25 (k1 1.2, b 0.75; stop words removed, Porter stemming)');
    expect(run.message).toBeNull();
    const documents = (await currentIndex(pool(), small.kbId, false))!.docs;
    expect(heard[0]).toEqual([0, documents]);
    expect(heard.at(-1)).toEqual([documents, documents]);
    expect(heard.length).toBeGreaterThan(2);
    const index = (await currentIndex(pool(), small.kbId, false, analyzer))!;
    expect(index.id).not.toBe((await currentIndex(pool(), small.kbId, false))!.id);
    // Fewer terms per document, and the run ranks differently from the plain one.
    expect(index.avgLength).toBeLessThan((await currentIndex(pool(), small.kbId, false))!.avgLength);
    const plain = await baselineMeans(undefined, small);
    expect(run.summary!.overall.means!.mrr).not.toBeCloseTo(plain.means.mrr, 4);
  });

  it('names runs by baseline and parameters; k1 and b change the ranking; ts_rank stays a choice', async () => {
    const flat = await baselineMeans({ ...DEFAULT_BASELINE, k1: 0, b: 0 }, small);
    expect(flat.run.name).toBe('BM25 (k1 0, b 0)');
    const { means } = await baselineMeans(undefined, small);
    expect(flat.means.mrr).not.toBeCloseTo(means.mrr, 4);
    const fulltext = await baselineMeans({ ...DEFAULT_BASELINE, method: 'fulltext' }, small);
    expect(fulltext.run.name).toBe('Full-text baseline (PostgreSQL ts_rank)');
  });

  it('indexes documents with relation lines as a separate variant', async () => {
    // A small knowledge base of its own: the variant reads every entity's relations, which is what it tests.
    const { kbId } = await importKnowledgeBase(pool(), memorySource({
      entities: [
        { externalId: 'g1', type: 'gene', name: 'SMAD3', aliases: [], document: { details: 'A signal transducer.' } },
        { externalId: 'd1', type: 'disease', name: 'Crohn disease', aliases: [], document: { details: 'An inflammatory bowel disease.' } },
        { externalId: 'd2', type: 'disease', name: 'Ulcerative colitis', aliases: [], document: {} },
      ],
      edges: [{ source: 'g1', relation: 'associated with', target: 'd1' }],
    }), { slug: 'bm25-relations', format: 'test', files: [] });
    const plain = await ensureIndex(pool(), kbId, false);
    const withRelations = await ensureIndex(pool(), kbId, true);
    expect(withRelations.id).not.toBe(plain.id);
    expect(withRelations.avgLength).toBeGreaterThan(plain.avgLength);
    // SMAD3's document names its neighbour Crohn disease only in a relation line.
    const { rows: [smad3] } = await pool().query<{ id: number; text: string }>(`SELECT id, text FROM entity WHERE kb_id = $1 AND external_id = 'g1'`, [kbId]);
    expect(smad3!.text).not.toMatch(/crohn/i);
    const length = async (index: number) => (await pool().query<{ length: number }>('SELECT length FROM bm25_doc WHERE index_id = $1 AND entity_id = $2', [index, smad3!.id])).rows[0]!.length;
    expect(await length(withRelations.id)).toBe(tokenise(await retrieverText(pool(), kbId, smad3!.id)).length);
    expect(await length(plain.id)).toBe(tokenise(smad3!.text).length);
    const crohnPostings = async (index: number) => (await pool().query(
      `SELECT 1 FROM bm25_term t JOIN bm25_block b ON b.index_id = t.index_id AND b.term_id = t.id
        WHERE t.index_id = $1 AND t.term = 'crohn' AND $2 = ANY(b.entity_ids)`, [index, smad3!.id])).rows.length;
    expect(await crohnPostings(withRelations.id)).toBe(1);
    expect(await crohnPostings(plain.id)).toBe(0);
  });
});
