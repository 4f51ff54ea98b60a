import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportFiles } from '../../lib/queries/export';
import { importQueries, QueryImportError } from '../../lib/queries/import';
import { cliQueryFiles, readQueryInput } from '../../lib/queries/input';
import { createRelease, diffReleases } from '../../lib/queries/releases';
import { getQuerySet, listQueries } from '../../lib/queries/sets';
import { getQuery, updateQuery } from '../../lib/queries/edit';
import { querySourceStats } from '../../lib/queries/stats';
import type { QueryFormat } from '../../lib/queries/types';
import { openAppDatabase, pool } from '../support/app-database';
import { importIbd } from '../support/primekg-ibd';
import { IBD_QA_CSV, starkQaFiles } from '../support/stark-qa';
import type { TestDatabase } from '../support/test-database';

let testDb: TestDatabase;
let kbId: number;

beforeAll(async () => {
  testDb = await openAppDatabase();
  kbId = await importIbd(pool());
});
afterAll(async () => testDb.drop());

async function importFiles(name: string, format: QueryFormat, files: string[], opts: { splits?: string; unknownIds?: 'reject' | 'keep' } = {}) {
  const input = await readQueryInput(format, cliQueryFiles(format, files, opts.splits));
  return importQueries(pool(), input.records, { kbId, setName: name, origin: 'imported', splits: input.splits, unknownIds: opts.unknownIds ?? 'reject', userId: null, sourceName: files.map((f) => path.basename(f)).join(', ') });
}

async function exported(setId: number, format: QueryFormat): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  for (const file of await exportFiles(pool(), { setId }, format)) {
    let text = '';
    for await (const chunk of file.content()) text += chunk;
    out.set(file.path, Buffer.from(text, 'utf8'));
  }
  return out;
}

const setNameOf = (label: string) => label.replace(/[^A-Za-z0-9]+/g, '-');

describe('query sets: STaRK files round trip byte for byte', () => {
  for (const file of starkQaFiles()) {
    it(`${file.label}${file.splits ? ' with its splits' : ''}`, async () => {
      // The STaRK knowledge bases are not loaded: their answers stay unresolved, as a curator may choose.
      const name = setNameOf(file.label);
      const summary = await importFiles(name, 'stark', [file.csv], { splits: file.splits, unknownIds: 'keep' });
      expect(summary.unresolved.count).toBeGreaterThan(0);
      const files = await exported(summary.setId, 'stark');
      const csvName = path.basename(file.csv);
      expect([...files.keys()].sort()).toEqual([csvName, ...(file.splits ? ['split/test.index', 'split/train.index', 'split/val.index'] : [])].sort());
      expect(files.get(csvName)!.equals(fs.readFileSync(file.csv))).toBe(true);
      for (const split of ['train', 'val', 'test']) {
        if (file.splits) expect(files.get(`split/${split}.index`)!.equals(fs.readFileSync(path.join(file.splits, `${split}.index`)))).toBe(true);
      }
    });
  }

  it('the PrimeKG IBD subset, every answer resolved in the imported knowledge base', async () => {
    const summary = await importFiles('ibd-subset', 'stark', [IBD_QA_CSV]);
    expect(summary.queries).toBe(829);
    expect(summary.unresolved.count).toBe(0);
    const files = await exported(summary.setId, 'stark');
    expect([...files.keys()]).toEqual(['stark_qa.csv']);
    expect(files.get('stark_qa.csv')!.equals(fs.readFileSync(IBD_QA_CSV))).toBe(true);
  });
});

describe('query sets: statistics as the STaRK paper reports them', () => {
  it('Prime synthesized: 11,204 queries, 4,188 with several answers, 2.56 answers on average', async () => {
    const set = await getQuerySet(pool(), kbId, setNameOf('prime/stark_qa.csv'));
    const stats = await querySourceStats(pool(), kbId, { setId: set.id });
    expect(stats.queries).toBe(11_204);
    expect(stats.multiAnswer).toBe(4_188);
    expect(stats.averageAnswers.toFixed(2)).toBe('2.56');
    expect(stats.splits.map((s) => [s.split, s.queries])).toEqual([['train', 6_162], ['val', 2_241], ['test', 2_801]]);
    expect(stats.unresolvedAnswers).toBeGreaterThan(0);
  });

  it('Prime human-generated: 109 / 43 / 2.61, every query with its seed', async () => {
    const set = await getQuerySet(pool(), kbId, setNameOf('prime/stark_qa_human_generated_eval.csv'));
    const stats = await querySourceStats(pool(), kbId, { setId: set.id });
    expect([stats.queries, stats.multiAnswer, stats.averageAnswers.toFixed(2), stats.withSeeds]).toEqual([109, 43, '2.61', 109]);
  });
});

describe('query sets: bad input is reported with its place and nothing is imported', () => {
  const dir = fs.mkdtempSync(path.join(process.env.TMPDIR ?? '/tmp', 'skb-qs-'));
  const write = (name: string, text: string) => { const f = path.join(dir, name); fs.writeFileSync(f, text); return f; };
  const expectRefused = async (name: string, run: () => Promise<unknown>, reasons: RegExp[]) => {
    const err = await run().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(QueryImportError);
    const issues = (err as QueryImportError).issues.map((i) => `${i.file}:${i.line}: ${i.reason}`);
    for (const r of reasons) expect(issues.some((i) => r.test(i))).toBe(true);
    await expect(getQuerySet(pool(), kbId, name)).rejects.toThrow(/No query set/);
  };

  it('answer ids missing from the knowledge base, under "reject"', async () => {
    const csv = write('unknown.csv', 'id,query,answer_ids\n1,fine,[144]\n2,"not here, at all",[999999999]\n');
    await expectRefused('unknown-answers', () => importFiles('unknown-answers', 'stark', [csv]), [/unknown\.csv:3: query 2: entity id 999999999 not in the knowledge base/]);
  });

  it('duplicate query ids, malformed rows and ids that are not integers', async () => {
    const csv = write('bad.csv', 'id,query,answer_ids\n1,a,[144]\n1,b,[144]\nx,c,[144]\n4,d,[1.5]\n');
    await expectRefused('bad-rows', () => importFiles('bad-rows', 'stark', [csv]), [/bad\.csv:3: duplicate query id 1 \(first at bad\.csv:2\)/, /bad\.csv:4:/, /bad\.csv:5:/]);
  });

  it('split files naming queries the set does not have, or one query twice', async () => {
    const csv = write('ok.csv', 'id,query,answer_ids\n1,a,[144]\n2,b,[144]\n');
    const splits = path.join(dir, 'split');
    fs.mkdirSync(splits);
    fs.writeFileSync(path.join(splits, 'train.index'), '1\n7');
    fs.writeFileSync(path.join(splits, 'test.index'), '1');
    await expectRefused('bad-splits', () => importFiles('bad-splits', 'stark', [csv], { splits }), [
      /split\/train\.index:2: split train names query 7, which is not in the query file/,
      /query 1 is in split (train|test) and already in split (train|test)/,
    ]);
  });
});

describe('query sets: editing, releases and diffs', () => {
  it('edits with optimistic locking and keeps every version', async () => {
    const set = await getQuerySet(pool(), kbId, 'ibd-subset');
    const first = (await listQueries(pool(), set.id, { limit: 1, offset: 0 })).items[0]!;
    const changed = await updateQuery(pool(), kbId, set.id, first.id, { text: `${first.text} (reworded)`, version: 1, reason: 'clearer' }, null);
    expect(changed.version).toBe(2);
    expect(changed.revisions.map((r) => [r.version, r.reason])).toEqual([[2, 'clearer'], [1, 'imported from stark_prime_qa_ibd_subset.csv']]);
    await expect(updateQuery(pool(), kbId, set.id, first.id, { text: 'lost update', version: 1, reason: 'stale' }, null)).rejects.toThrow(/changed by someone else \(now version 2/);
    await expect(updateQuery(pool(), kbId, set.id, first.id, { answers: ['999999999'], version: 2, reason: 'x' }, null)).rejects.toThrow(/Not in the knowledge base: entity id 999999999/);
    expect((await getQuery(pool(), kbId, set.id, first.id)).answers.every((a) => a.entityId !== null)).toBe(true);
  });

  it('freezes releases with the hash of their JSONL export, refuses changes, and diffs them', async () => {
    const set = await getQuerySet(pool(), kbId, 'ibd-subset');
    const kb = { name: 'IBD', slug: 'ibd' };
    const r1 = await createRelease(pool(), set, kb, { name: 'first', userId: null });
    expect([r1.number, r1.queryCount, r1.stats.queries]).toEqual([1, 829, 829]);
    const jsonl = (await exported(set.id, 'jsonl')).get('queries.jsonl')!;
    expect(r1.contentHash).toBe(crypto.createHash('sha256').update(jsonl).digest('hex'));
    expect(r1.card).toContain(`sha256:${r1.contentHash}`);
    await expect(createRelease(pool(), set, kb, { name: 'again', userId: null })).rejects.toThrow(/Nothing changed since release 1/);
    await expect(pool().query(`UPDATE release_query SET text = 'tampered' WHERE release_id = $1`, [r1.id])).rejects.toThrow(/releases are immutable/);

    const page = await listQueries(pool(), set.id, { limit: 2, offset: 5 });
    const [a, b] = page.items;
    await updateQuery(pool(), kbId, set.id, a!.id, { answers: [...a!.answers, '144'].filter((x, i, all) => all.indexOf(x) === i), version: a!.version, reason: 'one more answer' }, null);
    await updateQuery(pool(), kbId, set.id, b!.id, { split: 'test', version: b!.version, reason: 'held out' }, null);
    const r2 = await createRelease(pool(), set, kb, { name: 'second', userId: null });
    const diff = await diffReleases(pool(), set.id, 1, 2, { limit: 10, offset: 0 });
    expect([diff.added, diff.removed, diff.changed, diff.splitChanged, diff.unchanged]).toEqual([0, 0, 2, 1, 827]);
    expect(diff.answersChanged).toBe(a!.answers.includes('144') ? 0 : 1);
    expect(diff.items.map((i) => i.id).sort()).toEqual([a!.id, b!.id].sort());
    expect(r2.number).toBe(2);
  });
});
