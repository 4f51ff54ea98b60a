import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBaseline, startBaseline } from '../../lib/queries/baseline';
import { readQueries } from '../../lib/queries/read';
import { createRelease } from '../../lib/queries/releases';
import { compareStoredRuns, evaluateRunFile, getRun, runQueries, type RunTarget } from '../../lib/queries/runs';
import { getQuerySet } from '../../lib/queries/sets';
import { openAppDatabase, pool } from '../support/app-database';
import { importIbd } from '../support/primekg-ibd';
import { importIbdQuerySet } from '../support/stark-qa';
import type { TestDatabase } from '../support/test-database';

let testDb: TestDatabase;
let target: RunTarget;
let queries: { id: string; answers: string[] }[];

beforeAll(async () => {
  testDb = await openAppDatabase();
  const kbId = await importIbd(pool());
  const setId = await importIbdQuerySet(pool(), kbId);
  target = { setId, kbId, releaseId: null };
  queries = [];
  for await (const q of readQueries(pool(), { setId })) queries.push({ id: q.id, answers: [...new Set(q.answers)] });
});
afterAll(async () => testDb.drop());

/** An entity of the knowledge base that answers none of the queries. */
const DECOY = '144';

describe('evaluating runs on the IBD query set', () => {
  it('scores a TREC run as computed by hand: a decoy first, then one answer', async () => {
    const usable = queries.filter((q) => !q.answers.includes(DECOY));
    const lines = usable.flatMap((q) => [`${q.id} Q0 ${DECOY} 1 2.0 handmade`, `${q.id} Q0 ${q.answers[0]} 2 1.0 handmade`]);
    const id = await evaluateRunFile(pool(), target, { name: '', fileName: 'handmade.run', text: `${lines.join('\n')}\n`, userId: null });
    const run = await getRun(pool(), target.setId, id);
    expect(run.name).toBe('handmade');
    expect(run.format).toBe('trec');
    const overall = run.summary!.overall;
    // Queries missing from the run count, with 0 on every metric.
    expect(overall.queries).toBe(queries.length);
    expect(overall.notRetrieved).toBe(queries.length - usable.length);
    const share = usable.length / queries.length;
    expect(overall.means!.hit1).toBe(0);
    expect(overall.means!.hit5).toBeCloseTo(share, 10);
    expect(overall.means!.mrr).toBeCloseTo(0.5 * share, 10);
    expect(overall.means!.p10).toBeCloseTo(0.1 * share, 10);
    const recall = usable.reduce((sum, q) => sum + 1 / q.answers.length, 0) / queries.length;
    expect(overall.means!.recall20).toBeCloseTo(recall, 10);
    const worst = await runQueries(pool(), target.setId, id, { sort: 'mrr', limit: 5, offset: 0 });
    expect(worst.total).toBe(queries.length);
    expect(worst.items[0]!.metrics!.mrr).toBe(0);
  });

  it('refuses a run naming queries the set does not have, with their lines; keeps ties as warnings', async () => {
    const q = queries[0]!;
    const bad = `${q.id} Q0 ${q.answers[0]} 1 1.0 r\nnot-a-query Q0 ${DECOY} 1 1.0 r\n`;
    await expect(evaluateRunFile(pool(), target, { name: 'bad', fileName: 'bad.run', text: bad, userId: null })).rejects.toThrow(/bad\.run: 1 query not in the query set \(first: not-a-query at line 2\)/);
    const tied = `${q.id} Q0 ${q.answers[0]} 1 1.0 r\n${q.id} Q0 ${DECOY} 2 1.0 r\n`;
    const id = await evaluateRunFile(pool(), target, { name: 'tied', fileName: 'tied.run', text: tied, userId: null });
    const run = await getRun(pool(), target.setId, id);
    expect(run.warnings.length).toBeGreaterThan(0);
    expect(run.warnings[0]!.line).toBe(2);
    const broken = `${q.id} Q0 ${DECOY} one 1.0 r\n`;
    await expect(evaluateRunFile(pool(), target, { name: 'broken', fileName: 'broken.run', text: broken, format: 'trec', userId: null })).rejects.toThrow(/broken\.run:1/);
  });

  it('computes the default baseline (BM25) with progress, and compares it with another run', async () => {
    const seen: number[] = [];
    const id = await startBaseline(pool(), target, null);
    expect((await getRun(pool(), target.setId, id)).status).toBe('RUNNING');
    await runBaseline(pool(), target, id, null, (done) => seen.push(done));
    const run = await getRun(pool(), target.setId, id);
    expect(run.status).toBe('DONE');
    expect(run.name).toBe('BM25 (k1 1.2, b 0.75)');
    expect([run.done, run.total]).toEqual([queries.length, queries.length]);
    expect(seen.at(-1)).toBe(queries.length);
    expect(seen.length).toBeGreaterThan(1);
    // A text ranking finds some answers of these entity-centric queries, and not all.
    expect(run.summary!.overall.means!.hit5).toBeGreaterThan(0.01);
    expect(run.summary!.overall.means!.hit1).toBeLessThan(1);
    const handmade = (await pool().query<{ id: number }>(`SELECT id FROM eval_run WHERE name = 'handmade'`)).rows[0]!.id;
    const cmp = await compareStoredRuns(pool(), target.setId, handmade, id);
    const mrr = cmp.metrics.find((m) => m.metric === 'mrr')!;
    expect(mrr.meanA).toBeCloseTo((await getRun(pool(), target.setId, handmade)).summary!.overall.means!.mrr, 10);
    expect(mrr.difference).toBeCloseTo(mrr.meanB - mrr.meanA, 10);
    expect(mrr.wins + mrr.losses + mrr.ties).toBe(cmp.queries);
    expect(mrr.pValue).toBeGreaterThanOrEqual(0);
    expect(mrr.pValue).toBeLessThanOrEqual(1);
  });

  it('scores against a release, which later edits of the set do not change', async () => {
    const set = await getQuerySet(pool(), target.kbId, 'ibd');
    const release = await createRelease(pool(), set, { name: 'IBD', slug: 'ibd' }, { name: 'v1', userId: null });
    const q = queries[0]!;
    const onRelease = { ...target, releaseId: release.id };
    const id = await evaluateRunFile(pool(), onRelease, { name: 'on release', fileName: 'one.run', text: `${q.id} Q0 ${q.answers[0]} 1 1.0 r\n`, userId: null });
    const run = await getRun(pool(), target.setId, id);
    expect(run.release).toBe(1);
    expect(run.summary!.overall.queries).toBe(queries.length);
  });
});
