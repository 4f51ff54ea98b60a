import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimNext } from '../../lib/authoring/assignments';
import { createCampaign } from '../../lib/authoring/campaigns';
import { assignmentDifficulty, bm25Ranks, difficultyLabel } from '../../lib/authoring/difficulty';
import { judge, saveDraft } from '../../lib/authoring/drafts';
import { approveQuery } from '../../lib/authoring/review';
import { submitAssignment } from '../../lib/authoring/submit';
import { createUser } from '../../lib/auth/users';
import { Role } from '../../lib/auth/roles';
import { importKnowledgeBase } from '../../lib/ingest/importer';
import { memorySource } from '../../lib/ingest/memory-source';
import { difficultyDistribution } from '../../lib/queries/difficulty-stats';
import { exportFiles } from '../../lib/queries/export';
import { importQueries } from '../../lib/queries/import';
import { evaluateRun } from '../../lib/queries/metrics';
import { storeEvaluation, type RunTarget } from '../../lib/queries/runs';
import { getQuerySet } from '../../lib/queries/sets';
import type { SourcedQuery } from '../../lib/queries/types';
import { ensureIndex } from '../../lib/retrieval/bm25-index';
import { importEmbeddings } from '../../lib/vectors/import';
import { readEmbeddingFile } from '../../lib/vectors/readers';
import { db, openAppDatabase, pool } from '../support/app-database';
import type { TestDatabase } from '../support/test-database';

let testDb: TestDatabase;
let kbId: number;
/** Internal ids by lower-case name. */
const idOf = new Map<string, number>();

/**
 * Six lamps and things. Cirrus and Drift have documents of the same words and length, so they tie on any
 * query without their names; Fjord shares no word but "a" with the others.
 */
const ENTITIES = [
  { externalId: '10', name: 'Aurora', details: 'A brass reading lamp with a linen shade.' },
  { externalId: '11', name: 'Borealis', details: 'A brass floor lamp.' },
  { externalId: '12', name: 'Cirrus', details: 'A ceramic table lamp with a linen shade and a dimmer.' },
  { externalId: '13', name: 'Drift', details: 'A ceramic table lamp with a linen shade and a dimmer.' },
  { externalId: '14', name: 'Ember', details: 'A candle holder of cast iron.' },
  { externalId: '15', name: 'Fjord', details: 'A blue glass vase.' },
];

beforeAll(async () => {
  testDb = await openAppDatabase();
  ({ kbId } = await importKnowledgeBase(pool(), memorySource({
    entities: ENTITIES.map((e) => ({ externalId: e.externalId, type: 'product', name: e.name, aliases: [], document: { details: e.details } })),
    edges: [],
  }), { slug: 'difficulty', format: 'test', files: [], visibility: 'PUBLIC' }));
  await ensureIndex(pool(), kbId, false);
  const { rows } = await pool().query<{ id: number; name: string }>('SELECT id, name FROM entity WHERE kb_id = $1', [kbId]);
  for (const r of rows) idOf.set(r.name.toLowerCase(), r.id);
});
afterAll(async () => testDb.drop());

/**
 * Okapi BM25 written out over the entities' stored documents: lower-cased letter/digit words, each distinct
 * query word once, k1 1.2, b 0.75, idf ln(1 + (N - n + 0.5) / (n + 0.5)); ranked by score, then internal id.
 * Entities without a query word are not ranked.
 */
async function referenceRanks(query: string): Promise<Map<number, number>> {
  const words = (s: string): string[] => s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const { rows } = await pool().query<{ id: number; text: string }>('SELECT id, text FROM entity WHERE kb_id = $1', [kbId]);
  const docs = rows.map((r) => ({ id: r.id, words: words(r.text) }));
  const avg = docs.reduce((n, d) => n + d.words.length, 0) / docs.length;
  const scored = docs.map((d) => {
    let score = 0;
    let matched = false;
    for (const term of new Set(words(query))) {
      const tf = d.words.filter((w) => w === term).length;
      if (!tf) continue;
      matched = true;
      const n = docs.filter((o) => o.words.includes(term)).length;
      const idf = Math.log(1 + (docs.length - n + 0.5) / (n + 0.5));
      score += (idf * tf * 2.2) / (tf + 1.2 * (1 - 0.75 + (0.75 * d.words.length) / avg));
    }
    return { id: d.id, score, matched };
  }).filter((d) => d.matched);
  scored.sort((a, b) => b.score - a.score || a.id - b.id);
  return new Map(scored.map((d, i) => [d.id, i + 1]));
}

/** The product's ranks of every entity, asked all at once; asked one at a time, each must come out the same. */
async function productRanks(query: string): Promise<Map<number, number>> {
  const ids = [...idOf.values()];
  const ranks = (await bm25Ranks(pool(), kbId, query, ids))!;
  expect(ranks.entities).toBe(ENTITIES.length);
  for (const id of ids) expect((await bm25Ranks(pool(), kbId, query, [id]))!.rankOf(id), `${query}: entity ${id} alone`).toBe(ranks.rankOf(id));
  return new Map(ids.flatMap((id) => (ranks.rankOf(id) === null ? [] : [[id, ranks.rankOf(id)!] as const])));
}

describe('BM25 ranks for the difficulty check', () => {
  it('agrees with BM25 written out by hand, ties by id, and leaves entities without a query word unranked', async () => {
    for (const query of ['a brass reading light with a linen shade', 'a light with a linen shade', 'brass lamp', 'ceramic lamp with dimmer', 'iron candle', 'nothing matches this']) {
      expect(await productRanks(query), query).toEqual(await referenceRanks(query));
    }
    const distinctive = await productRanks('brass reading lamp');
    expect(distinctive.get(idOf.get('aurora')!)).toBe(1);
    expect(distinctive.has(idOf.get('fjord')!)).toBe(false);
    // The twins score the same: the lower id ranks first, one place ahead.
    const twins = await productRanks('ceramic table lamp');
    const [first, second] = [idOf.get('cirrus')!, idOf.get('drift')!].sort((a, b) => a - b);
    expect(twins.get(second!)).toBe(twins.get(first!)! + 1);
  });

  it('labels ranks easy (top 5), medium (top 20), hard (beyond, or not retrieved)', () => {
    expect([1, 5, 6, 20, 21, null].map(difficultyLabel)).toEqual(['easy', 'easy', 'medium', 'medium', 'hard', 'hard']);
  });
});

describe('difficulty of an assignment', () => {
  it('follows the saved draft and the relevant judgments, warns within the campaign target, and is kept on approval', async () => {
    const [ann, rev] = await Promise.all(['ann', 'rev'].map((n, i) => createUser(db(), { email: `${n}-difficulty@example.org`, name: n, password: 'a long password', role: i ? Role.CURATOR : Role.ANNOTATOR })));
    const { id: campaignId } = await createCampaign(pool(), kbId, {
      name: 'lamps', guidelines: 'g', annotatorsPerSeed: 1, leaseMinutes: 60, leakPolicy: 'warn', bm25Target: 2, querySet: 'lamp-questions', annotatorIds: [ann!.id], open: true,
    }, { mode: 'list', text: '10\n', file: 'seeds.txt' }, null);
    const a = (await claimNext(pool(), campaignId, ann!.id))!;

    const before = await assignmentDifficulty(pool(), a.id);
    expect(before).toMatchObject({ version: 0, hasQuery: false, target: 2, withinTarget: [] });
    expect(before.baselines).toMatchObject([{ status: 'ranked', baseline: 'bm25', entities: 6, seed: { externalId: '10', rank: null, label: 'hard' }, answers: [] }]);

    // The seed's distinctive words: BM25 finds it first, within the target.
    const easy = 'Which brass reading lamp has a linen shade?';
    let { version } = await saveDraft(pool(), a.id, ann!.id, { text: easy, version: 0 });
    await judge(pool(), a.id, ann!.id, { entityId: idOf.get('cirrus')!, label: 'relevant', version: 0 });
    await judge(pool(), a.id, ann!.id, { entityId: idOf.get('ember')!, label: 'not_relevant', version: 0 });
    const ref = await referenceRanks(easy);
    const check = await assignmentDifficulty(pool(), a.id);
    expect(check).toMatchObject({ version, hasQuery: true });
    const bm25 = check.baselines[0]!;
    if (bm25.status !== 'ranked') throw new Error('expected ranks');
    expect(bm25.seed).toEqual({ entityId: idOf.get('aurora'), externalId: '10', name: 'Aurora', rank: 1, label: 'easy' });
    expect(bm25.answers).toEqual([{ entityId: idOf.get('cirrus'), externalId: '12', name: 'Cirrus', rank: ref.get(idOf.get('cirrus')!), label: difficultyLabel(ref.get(idOf.get('cirrus')!)!) }]);
    expect(check.withinTarget.map((e) => e.externalId)).toEqual(['10', ...(ref.get(idOf.get('cirrus')!)! <= 2 ? ['12'] : [])]);

    // Without them the seed falls behind the lamps that share the remaining words. The answer Cirrus, which
    // ties with Drift and has the lower id, now comes first: the warning names it instead of the seed.
    const hard = 'Which ceramic table lamp has a dimmer?';
    ({ version } = await saveDraft(pool(), a.id, ann!.id, { text: hard, version }));
    const harder = await assignmentDifficulty(pool(), a.id);
    const hardRef = await referenceRanks(hard);
    const seedRank = (harder.baselines[0] as { seed: { rank: number } }).seed.rank;
    expect(seedRank).toBe(hardRef.get(idOf.get('aurora')!));
    expect(seedRank).toBeGreaterThan(2);
    expect(Math.min(hardRef.get(idOf.get('cirrus')!)!, hardRef.get(idOf.get('drift')!)!)).toBe(1);
    expect(harder.withinTarget.map((e) => e.externalId)).toEqual(idOf.get('cirrus')! < idOf.get('drift')! ? ['12'] : []);

    // The ranks of the approved text and answers go into the query's metadata and its JSONL export.
    ({ version } = await saveDraft(pool(), a.id, ann!.id, { text: easy, version }));
    await submitAssignment(pool(), a.id, ann!.id, version);
    await approveQuery(pool(), a.id, rev!.id, { decisions: [{ entityId: idOf.get('cirrus')!, accept: true }] });
    const set = await getQuerySet(pool(), kbId, 'lamp-questions');
    const { rows: [q] } = await pool().query<{ metadata: { difficulty: unknown } }>('SELECT metadata FROM query WHERE set_id = $1', [set.id]);
    const stored = { bm25: { seedRank: 1, label: 'easy', entities: 6, answerRanks: [{ entity: '12', rank: ref.get(idOf.get('cirrus')!) }] } };
    expect(q!.metadata.difficulty).toEqual(stored);
    const [jsonl] = await exportFiles(pool(), { setId: set.id }, 'jsonl');
    let exported = '';
    for await (const chunk of jsonl!.content()) exported += chunk;
    expect(JSON.parse(exported).metadata.difficulty).toEqual(stored);
    const [csv] = await exportFiles(pool(), { setId: set.id }, 'stark');
    let text = '';
    for await (const chunk of csv!.content()) text += chunk;
    expect(text).toBe(`id,query,answer_ids,answer_ids_source\n0,${easy},"[10, 12]",[10]\n`);
  });

  it('says when the knowledge base has no index, and has no warnings then', async () => {
    const ann = await createUser(db(), { email: 'ann2-difficulty@example.org', name: 'ann2', password: 'a long password', role: Role.ANNOTATOR });
    const { id: campaignId } = await createCampaign(pool(), kbId, {
      name: 'unindexed', guidelines: 'g', annotatorsPerSeed: 1, leaseMinutes: 60, leakPolicy: 'warn', bm25Target: 100, querySet: 'unindexed-questions', annotatorIds: [ann!.id], open: true,
    }, { mode: 'list', text: '11\n', file: 'seeds.txt' }, null);
    const a = (await claimNext(pool(), campaignId, ann!.id))!;
    await saveDraft(pool(), a.id, ann!.id, { text: 'a brass floor lamp', version: 0 });
    await pool().query('DELETE FROM bm25_index WHERE kb_id = $1', [kbId]);
    try {
      expect(await assignmentDifficulty(pool(), a.id)).toMatchObject({ hasQuery: true, target: 100, baselines: [{ status: 'no-index', baseline: 'bm25' }], withinTarget: [] });
    } finally {
      await ensureIndex(pool(), kbId, false);
    }
    expect((await assignmentDifficulty(pool(), a.id)).withinTarget.map((e) => e.externalId)).toEqual(['11']);
  });
});

describe('the vector baseline beside BM25', () => {
  it('ranks the seed and answers by the embedded draft when the knowledge base has embeddings and a service embeds it', async () => {
    // Entity i points at 30i degrees; the service embeds a text mentioning brass at 10 degrees, others at 85.
    const at = (degrees: number) => [Math.cos((degrees * Math.PI) / 180), Math.sin((degrees * Math.PI) / 180)];
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skb-difficulty-'));
    const file = { path: path.join(dir, 'toy.jsonl'), name: 'toy.jsonl' };
    fs.writeFileSync(file.path, ENTITIES.map((e, i) => JSON.stringify({ id: e.externalId, vector: at(30 * i) })).join('\n') + '\n');
    await importEmbeddings(pool(), readEmbeddingFile(file, null), { kbId, querySetId: null }, { name: 'toy', fileName: file.name, userId: null });
    const server = http.createServer((req, res) => {
      let raw = '';
      req.on('data', (c: Buffer) => (raw += c.toString()));
      req.on('end', () => {
        const { model, input } = JSON.parse(raw) as { model: string; input: string[] };
        if (model !== 'toy') return void res.writeHead(404).end(`no model ${model}`);
        res.writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ data: input.map((t, index) => ({ index, embedding: at(/brass/i.test(t) ? 10 : 85) })) }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
      const ann = await createUser(db(), { email: 'ann3-difficulty@example.org', name: 'ann3', password: 'a long password', role: Role.ANNOTATOR });
      const { id: campaignId } = await createCampaign(pool(), kbId, {
        name: 'vectors', guidelines: 'g', annotatorsPerSeed: 1, leaseMinutes: 60, leakPolicy: 'warn', querySet: 'vector-questions', annotatorIds: [ann!.id], open: true,
      }, { mode: 'list', text: '10\n', file: 'seeds.txt' }, null);
      const a = (await claimNext(pool(), campaignId, ann!.id))!;
      let { version } = await saveDraft(pool(), a.id, ann!.id, { text: 'Which brass lamp reads well?', version: 0 });
      await judge(pool(), a.id, ann!.id, { entityId: idOf.get('drift')!, label: 'relevant', version: 0 });
      const ranks = (check: Awaited<ReturnType<typeof assignmentDifficulty>>) =>
        check.baselines.map((b) => (b.status === 'ranked' ? [b.name, b.entities, b.seed.rank, b.answers.map((e) => e.rank)] : [b.name, b.status]));

      const near = await assignmentDifficulty(pool(), a.id, { embeddings: { url, model: 'toy' } });
      const bm25 = await referenceRanks('Which brass lamp reads well?');
      // At 10 degrees: Aurora (0) first, Drift (90) fourth.
      expect(ranks(near)).toEqual([['BM25', 6, bm25.get(idOf.get('aurora')!), [bm25.get(idOf.get('drift')!)]], ['Vector (toy)', 6, 1, [4]]]);
      ({ version } = await saveDraft(pool(), a.id, ann!.id, { text: 'Which ceramic lamp has a dimmer?', version }));
      // At 85 degrees: Drift first, Aurora last.
      expect(ranks(await assignmentDifficulty(pool(), a.id, { embeddings: { url, model: 'toy' } }))[1]).toEqual(['Vector (toy)', 6, 6, [1]]);
      // A service that refuses says why, and BM25 still answers; without a service there is no vector baseline.
      const refused = await assignmentDifficulty(pool(), a.id, { embeddings: { url, model: 'other' } });
      expect(ranks(refused).map((r) => r.slice(0, 2))).toEqual([['BM25', 6], ['Vector (toy)', 'unavailable']]);
      expect(refused.baselines[1]).toMatchObject({ reason: expect.stringMatching(/answered 404: no model other/) });
      expect((await assignmentDifficulty(pool(), a.id)).baselines.map((b) => b.baseline)).toEqual(['bm25']);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('difficulty distribution of a query set', () => {
  it('gives each baseline\'s latest finished run\'s Hit@1 and Hit@5 shares, overall, per split and per origin', async () => {
    // Eight queries about the six entities: train/test, half of them marked as written by people.
    const records: SourcedQuery[] = Array.from({ length: 8 }, (_, i) => ({
      id: String(i), text: `question ${i}`, answers: [ENTITIES[i % 6]!.externalId], seeds: [], split: i < 6 ? 'train' : 'test',
      metadata: i % 2 ? { origin: 'human' } : {}, at: { file: 'q.jsonl', line: i + 1 },
    }));
    records.push({ id: '8', text: 'no answers', answers: [], seeds: [], split: 'test', metadata: {}, at: { file: 'q.jsonl', line: 9 } });
    async function* source() { yield* records; }
    const { setId } = await importQueries(pool(), source(), { kbId, setName: 'distribution', origin: 'synthesized', unknownIds: 'reject', userId: null, sourceName: 'q.jsonl' });
    const target: RunTarget = { setId, kbId, releaseId: null };
    const queries = records.map((r) => ({ id: r.id, split: r.split, answers: r.answers }));
    const filler = ENTITIES.map((e) => e.externalId);
    /** A run putting each query's answer at `rankOf(i)` (1-based; 0: not retrieved). */
    const store = async (name: string, baseline: boolean, rankOf: (i: number) => number) => {
      const run = new Map(records.map((r, i) => {
        const others = filler.filter((id) => !r.answers.includes(id));
        const at = rankOf(i);
        return [r.id, at ? [...others.slice(0, at - 1), ...r.answers] : others.slice(0, 3)];
      }));
      return storeEvaluation(pool(), target, evaluateRun({ queries, run }), { name, fileName: null, format: 'baseline', baseline, warnings: [], userId: null });
    };
    expect(await difficultyDistribution(pool(), { setId })).toEqual([]);
    await store('BM25', true, () => 1); // superseded by the later run of the same name
    await store('BM25', true, (i) => [1, 2, 5, 6, 0, 1, 3, 0][i] ?? 0);
    await store('Full-text baseline', true, (i) => (i < 4 ? 1 : 0));
    await store('uploaded', false, () => 1); // not a baseline
    const [bm25, fulltext, ...rest] = await difficultyDistribution(pool(), { setId });
    expect(rest).toEqual([]);
    expect(bm25!.run.name).toBe('BM25');
    // Ranks 1, 2, 5, 6, -, 1 (train) and 3, - (test); the query without answers is not scored.
    expect(bm25!.overall).toEqual({ queries: 8, hit1: 2 / 8, hit5: 5 / 8 });
    expect(bm25!.bySplit).toEqual([{ split: 'train', queries: 6, hit1: 2 / 6, hit5: 4 / 6 }, { split: 'test', queries: 2, hit1: 0, hit5: 1 / 2 }]);
    // Odd positions (ranks 2, 6, 1, -) are human; even ones (1, 5, -, 3) the set's origin.
    expect(bm25!.byOrigin).toEqual([{ origin: 'human', queries: 4, hit1: 1 / 4, hit5: 2 / 4 }, { origin: 'synthesized', queries: 4, hit1: 1 / 4, hit5: 3 / 4 }]);
    expect(fulltext).toMatchObject({ run: { name: 'Full-text baseline' }, overall: { queries: 8, hit1: 0.5, hit5: 0.5 } });
  });
});
