import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importKnowledgeBase } from '../../lib/ingest/importer';
import { memorySource } from '../../lib/ingest/memory-source';
import { importQueries } from '../../lib/queries/import';
import { baselineSchema, runBaseline, startBaseline, type BaselineOptions } from '../../lib/queries/baseline';
import { getRun, type RunTarget } from '../../lib/queries/runs';
import { embeddingRanker } from '../../lib/vectors/baseline';
import { vectorRankOf } from '../../lib/vectors/rank-of';
import { EmbeddingImportError, importEmbeddings, type EmbeddingOwner } from '../../lib/vectors/import';
import { readEmbeddingFile } from '../../lib/vectors/readers';
import { listEmbeddingSets } from '../../lib/vectors/sets';
import type { SourcedQuery } from '../../lib/queries/types';
import { openAppDatabase, pool } from '../support/app-database';
import type { TestDatabase } from '../support/test-database';

/*
 * Nearest neighbours known by construction: entity e<i> points at angle 15i degrees (i = 0..11, lengths
 * differ, which cosine ignores), so a query at angle a ranks the entities by |15i - a|. Each entity's name
 * holds one word of its own, but e5's is "alpha" and e2's and e8's "beta", which BM25 sees.
 */
const N = 12;
const WORD: Record<number, string> = { 2: 'beta', 5: 'alpha', 8: 'beta' };
const at = (degrees: number, length = 1) => [length * Math.cos((degrees * Math.PI) / 180), length * Math.sin((degrees * Math.PI) / 180)];
const e = (i: number) => `e${i}`;
/** Entities by angular distance from `degrees` (no ties for the angles used). */
const byAngle = (degrees: number) => Array.from({ length: N }, (_, i) => i).sort((a, b) => Math.abs(15 * a - degrees) - Math.abs(15 * b - degrees)).map(e);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skb-vectors-'));
let testDb: TestDatabase;
let kbId: number;
let target: RunTarget;

function jsonl(name: string, rows: { id: string | number; vector: unknown }[] | string): { path: string; name: string } {
  const file = path.join(dir, name);
  fs.writeFileSync(file, typeof rows === 'string' ? rows : rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  return { path: file, name };
}

const load = (owner: EmbeddingOwner, name: string, file: { path: string; name: string }) =>
  importEmbeddings(pool(), readEmbeddingFile(file, null), owner, { name, fileName: file.name, userId: null });

async function* queries(): AsyncIterable<SourcedQuery> {
  const q = (id: string, text: string, answers: string[], line: number): SourcedQuery =>
    ({ id, text, answers, seeds: [], split: null, metadata: {}, at: { file: 'q.jsonl', line } });
  yield q('q1', 'alpha', [e(1)], 1);
  yield q('q2', 'beta', [e(7)], 2);
  // No vector is imported for q3.
  yield q('q3', 'alpha', [e(5)], 3);
}

beforeAll(async () => {
  testDb = await openAppDatabase();
  ({ kbId } = await importKnowledgeBase(pool(), memorySource({
    entities: Array.from({ length: N }, (_, i) => ({ externalId: e(i), type: 'thing', name: `item ${WORD[i] ?? `w${i}`}`, aliases: [], document: {} })),
    edges: [],
  }), { slug: 'angles', format: 'test', files: [] }));
  const { setId } = await importQueries(pool(), queries(), { kbId, setName: 'angles', origin: 'synthesized', unknownIds: 'reject', userId: null, sourceName: 'q.jsonl' });
  target = { kbId, setId, releaseId: null };
  await load({ kbId, querySetId: null }, 'toy', jsonl('entities.jsonl', Array.from({ length: N }, (_, i) => ({ id: e(i), vector: at(15 * i, i + 1) }))));
  await load({ kbId, querySetId: setId }, 'toy', jsonl('queries.jsonl', [{ id: 'q1', vector: at(7) }, { id: 'q2', vector: at(100, 3) }]));
});
afterAll(async () => {
  fs.rmSync(dir, { recursive: true, force: true });
  await testDb.drop();
});

async function baseline(options: Partial<BaselineOptions>) {
  const full = baselineSchema.parse(options);
  const id = await startBaseline(pool(), target, null, full);
  await runBaseline(pool(), target, id, null, undefined, full);
  return getRun(pool(), target.setId, id);
}

describe('vector baseline from imported embeddings', () => {
  it('lists the sets it imported', async () => {
    expect((await listEmbeddingSets(pool(), kbId)).map((s) => [s.name, s.count, s.dimension])).toEqual([['toy', N, 2]]);
    expect((await listEmbeddingSets(pool(), kbId, target.setId)).map((s) => [s.name, s.count, s.dimension])).toEqual([['toy', 2, 2]]);
  });

  it('ranks entities by exact cosine, as the angles say', async () => {
    const ranker = await embeddingRanker(pool(), kbId, target.setId, 'toy', 100);
    const rankings = await ranker.rank([{ id: 'q1', text: '' }, { id: 'q2', text: '' }, { id: 'q3', text: '' }]);
    expect(rankings).toEqual([byAngle(7), byAngle(100), []]);
    expect(rankings[1]!.slice(0, 3)).toEqual(['e7', 'e6', 'e8']);
    expect(ranker.missing()).toBe(1);
  });

  it('gives the rank of chosen entities for a query vector, as the full ranking orders them', async () => {
    const { rows } = await pool().query<{ external_id: string; id: number }>('SELECT external_id, id FROM entity WHERE kb_id = $1', [kbId]);
    const id = new Map(rows.map((r) => [r.external_id, r.id]));
    const found = await vectorRankOf(pool(), kbId, 'toy', at(100, 5), [id.get('e7')!, id.get('e8')!, id.get('e0')!, 999_999]);
    expect(found!.total).toBe(N);
    expect([...found!.ranks]).toEqual([[id.get('e7'), 1], [id.get('e8'), 3], [id.get('e0'), 12], [999_999, null]]);
    expect(await vectorRankOf(pool(), kbId, 'other', at(100), [id.get('e7')!])).toBeNull();
    await expect(vectorRankOf(pool(), kbId, 'toy', [1, 0, 0], [])).rejects.toThrow('vector: has 3 values; "toy" has 2 dimensions');
  });

  it('scores the vector run: q1 finds its answer second, q2 first, q3 has no vector', async () => {
    const run = await baseline({ method: 'vector', embeddings: 'toy' });
    expect(run.status).toBe('DONE');
    expect(run.name).toBe('Vector (toy, exact cosine)');
    const means = run.summary!.overall.means!;
    expect(means.hit1).toBeCloseTo(1 / 3, 12);
    expect(means.mrr).toBeCloseTo((1 / 2 + 1 + 0) / 3, 12);
    expect(run.warnings).toEqual([{ file: 'query embeddings "toy"', line: 0, reason: '1 of 3 queries have no embedding and rank nothing' }]);
  });

  it('fuses BM25 and the vectors by reciprocal rank (k 60), ties by entity id', async () => {
    const ranker = await embeddingRanker(pool(), kbId, target.setId, 'toy', 100, async (batch) => batch.map((q) => (q.text === 'alpha' ? ['e5'] : ['e2', 'e8'])));
    const [q1, q2, q3] = await ranker.rank([{ id: 'q1', text: 'alpha' }, { id: 'q2', text: 'beta' }, { id: 'q3', text: 'alpha' }]);
    // q1: e5 gets 1/61 (BM25) + 1/66 (6th by angle), above e0's 1/61.
    expect(q1).toEqual(['e5', 'e0', 'e1', 'e2', 'e3', 'e4', 'e6', 'e7', 'e8', 'e9', 'e10', 'e11']);
    // q2: e8 1/62 + 1/63, e2 1/61 + 1/70, then e7 1/61, e6 1/62, and the rest by angle.
    expect(q2).toEqual(['e8', 'e2', 'e7', 'e6', 'e5', 'e9', 'e4', 'e10', 'e3', 'e11', 'e1', 'e0']);
    expect(q3).toEqual(['e5']);
  });

  it('scores the hybrid run from the real BM25 ranking', async () => {
    const run = await baseline({ method: 'hybrid', embeddings: 'toy' });
    expect(run.name).toBe('Hybrid: BM25 (k1 1.2, b 0.75) + vector (toy), reciprocal-rank fusion k 60');
    const means = run.summary!.overall.means!;
    // q1's answer e1 and q2's e7 come third; q3, without a vector, has BM25's e5 first.
    expect(means.mrr).toBeCloseTo((1 / 3 + 1 / 3 + 1) / 3, 12);
    expect(means.hit1).toBeCloseTo(1 / 3, 12);
    expect(run.warnings[0]!.reason).toBe('1 of 3 queries have no embedding and are ranked by BM25 alone');
  });

  it('refuses a baseline without embeddings or with a name the set lacks, before creating a run', async () => {
    await expect(baseline({ method: 'vector' })).rejects.toThrow('embeddings: a vector baseline needs the name of the embedding set to rank by');
    await expect(baseline({ method: 'hybrid', embeddings: 'other' })).rejects.toThrow('embeddings: the knowledge base has no entity embeddings named "other"');
    const runs = await pool().query('SELECT count(*)::int AS n FROM eval_run WHERE set_id = $1', [target.setId]);
    expect(runs.rows[0].n).toBe(2);
  });
});

/** The import's refusal; fails the test if the import went through. */
async function refusal(importing: Promise<unknown>): Promise<EmbeddingImportError> {
  const err = await importing.then(() => null, (x: unknown) => x);
  expect(err).toBeInstanceOf(EmbeddingImportError);
  return err as EmbeddingImportError;
}

describe('importing embeddings', () => {
  const owner = () => ({ kbId, querySetId: null });
  const count = async (name: string) => (await pool().query('SELECT count(*)::int AS n FROM embedding_vector v JOIN embedding_set s ON s.id = v.set_id WHERE s.kb_id = $1 AND s.name = $2', [kbId, name])).rows[0].n as number;

  it('refuses each bad vector with its line and field, and writes nothing', async () => {
    const lines = [
      { id: 'e0', vector: [1, 0] },
      { id: 'e1', vector: [1, 0, 0] },
      { id: 'e0', vector: [0, 1] },
      { id: 'nobody', vector: [0, 1] },
      { id: 'e3', vector: [0, 0] },
    ].map((r) => JSON.stringify(r));
    lines.push('{"id": "e4", "vector": [NaN, 1]}');
    const err = await refusal(load(owner(), 'bad', jsonl('bad.jsonl', lines.join('\n'))));
    expect(err.status).toBe(400);
    expect(err.details).toEqual([
      { file: 'bad.jsonl', line: 2, field: 'vector', reason: 'has 3 values, expected 2 (as line 1)' },
      { file: 'bad.jsonl', line: 3, field: 'id', reason: 'e0 is repeated (first at line 1)' },
      { file: 'bad.jsonl', line: 5, field: 'vector', reason: 'the vector is all zeros, so it has no direction to compare by cosine' },
      { file: 'bad.jsonl', line: 6, field: 'vector', reason: 'holds NaN or Infinity' },
      { file: 'bad.jsonl', line: 4, field: 'id', reason: 'nobody is not an entity of the knowledge base' },
    ]);
    expect(err.message).toMatch(/^5 problems in the embeddings; nothing was imported\. First: bad\.jsonl line 2, vector: has 3 values/);
    expect(await count('bad')).toBe(0);
    expect((await listEmbeddingSets(pool(), kbId)).map((s) => s.name)).toEqual(['toy']);
  });

  it('refuses query vectors of another width than the entity vectors of the name, and unknown query ids', async () => {
    const err = await refusal(load({ kbId, querySetId: target.setId }, 'toy', jsonl('q-bad.jsonl', [{ id: 'q1', vector: [1, 2, 3] }, { id: 'q9', vector: [1, 2] }])));
    expect(err.details).toEqual([
      { file: 'q-bad.jsonl', line: 1, field: 'vector', reason: 'has 3 values, expected 2 (as the knowledge base\'s "toy" entity vectors)' },
      { file: 'q-bad.jsonl', line: 2, field: 'id', reason: 'q9 is not a query of the query set' },
    ]);
    // The query set's vectors are untouched.
    expect((await listEmbeddingSets(pool(), kbId, target.setId))[0]!.count).toBe(2);
  });

  it('replaces a set of the same name atomically; a refused replacement keeps the old one', async () => {
    const first = await load(owner(), 'swap', jsonl('swap1.jsonl', [{ id: 'e0', vector: [1, 0] }, { id: 'e1', vector: [0, 1] }]));
    expect(first).toMatchObject({ name: 'swap', kind: 'entity', count: 2, dimension: 2, replaced: false });
    await expect(load(owner(), 'swap', jsonl('swap2.jsonl', [{ id: 'e0', vector: [1, 0, 0] }, { id: 'e9', vector: [0, 1, 0] }, { id: 'zz', vector: [0, 0, 1] }]))).rejects.toThrow(/line 3, id: zz is not an entity/);
    expect(await count('swap')).toBe(2);
    const second = await load(owner(), 'swap', jsonl('swap3.jsonl', [{ id: 'e0', vector: [1, 0, 0] }, { id: 'e1', vector: [0, 1, 0] }, { id: 'e2', vector: [0, 0, 1] }]));
    expect(second).toMatchObject({ count: 3, dimension: 3, replaced: true });
    expect(second.id).not.toBe(first.id);
    expect(await count('swap')).toBe(3);
  });
});
