import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importQueries } from '../../lib/queries/import';
import { cliQueryFiles, readQueryInput } from '../../lib/queries/input';
import { readQueries } from '../../lib/queries/read';
import { compareStoredRuns, evaluateRunFile, getRun, runGroups, type RunTarget } from '../../lib/queries/runs';
import type { SourcedQuery } from '../../lib/queries/types';
import { IngestIssue } from '../../lib/ingest/source';
import { openAppDatabase, pool } from '../support/app-database';
import { importIbd } from '../support/primekg-ibd';
import { IBD_QA_CSV } from '../support/stark-qa';
import type { TestDatabase } from '../support/test-database';

let testDb: TestDatabase;
let target: RunTarget;
let queries: { id: string; answers: string[]; template: string }[];

/** Metadata by position: two templates; every third query written by a person; the fourth has no template. */
function withMetadata(record: SourcedQuery, i: number): SourcedQuery {
  const metadata: Record<string, unknown> = { ...record.metadata, rank: i % 2, nested: { template: 'x' } };
  if (i !== 3) metadata.template = i % 2 ? 'drug-disease' : 'gene-disease';
  if (i % 3 === 0) metadata.origin = 'human';
  return { ...record, metadata };
}

beforeAll(async () => {
  testDb = await openAppDatabase();
  const kbId = await importIbd(pool());
  const input = await readQueryInput('stark', cliQueryFiles('stark', [IBD_QA_CSV]));
  async function* records(): AsyncIterable<SourcedQuery | IngestIssue> {
    let i = 0;
    for await (const r of input.records) yield r instanceof IngestIssue ? r : withMetadata(r, i++);
  }
  const { setId } = await importQueries(pool(), records(), { kbId, setName: 'ibd-grouped', origin: 'synthesized', unknownIds: 'reject', userId: null, sourceName: 'ibd.csv' });
  target = { setId, kbId, releaseId: null };
  queries = [];
  for await (const q of readQueries(pool(), { setId })) queries.push({ id: q.id, answers: [...new Set(q.answers)], template: (q.metadata.template as string | undefined) ?? '(none)' });
});
afterAll(async () => testDb.drop());

/** A run ranking the first answer first for the queries `pick` selects, and nothing for the others. */
async function scoreRun(name: string, pick: (index: number) => boolean): Promise<number> {
  const lines = queries.flatMap((q, i) => (pick(i) ? [`${q.id} Q0 ${q.answers[0]} 1 1.0 ${name}`] : []));
  return evaluateRunFile(pool(), target, { name, fileName: `${name}.run`, text: `${lines.join('\n')}\n`, userId: null });
}

describe('metrics by query group', () => {
  it('groups a run by a metadata field, by origin, by split and by answer count, with counts and means', async () => {
    const id = await scoreRun('even', (i) => i % 2 === 0);
    const byTemplate = await runGroups(pool(), target.setId, id, 'metadata.template');
    // Text and number fields are offered; the nested object is not.
    expect(byTemplate.keys).toEqual(['origin', 'rank', 'template']);
    const count = (t: string) => queries.filter((q) => q.template === t).length;
    const rows = Object.fromEntries(byTemplate.groups.map((g) => [g.group, g]));
    expect(Object.keys(rows).sort()).toEqual(['(none)', 'drug-disease', 'gene-disease']);
    // Even positions have the gene-disease template and are all found first; odd ones are not ranked.
    expect(rows['gene-disease']).toMatchObject({ queries: count('gene-disease'), notRetrieved: 0, means: { hit1: 1, mrr: 1 } });
    expect(rows['drug-disease']).toMatchObject({ queries: count('drug-disease'), notRetrieved: count('drug-disease'), means: { hit1: 0 } });
    expect(rows['(none)']).toMatchObject({ queries: 1, means: { hit1: 0 } });

    const byOrigin = await runGroups(pool(), target.setId, id, 'origin');
    const human = queries.filter((_, i) => i % 3 === 0).length;
    expect(byOrigin.groups.map((g) => [g.group, g.queries])).toEqual([['synthesized', queries.length - human], ['human', human]].sort((a, b) => (b[1] as number) - (a[1] as number)));
    const humanHits = queries.filter((_, i) => i % 3 === 0 && i % 2 === 0).length / human;
    expect(byOrigin.groups.find((g) => g.group === 'human')!.means!.hit1).toBeCloseTo(humanHits, 10);

    const bySplit = await runGroups(pool(), target.setId, id, 'split');
    expect(bySplit.groups.map(({ group: _, ...g }) => g)).toEqual((await getRun(pool(), target.setId, id)).summary!.bySplit.map(({ split: _, ...s }) => s));

    const byAnswers = await runGroups(pool(), target.setId, id, 'answers');
    expect(byAnswers.groups.reduce((n, g) => n + g.queries, 0)).toBe(queries.length);
    expect(byAnswers.groups.find((g) => g.group === '1')?.queries).toBe(queries.filter((q) => q.answers.length === 1).length);
  });

  it('refuses a metadata key no query has, naming the parameter and the keys there are', async () => {
    const id = await scoreRun('none', () => false);
    await expect(runGroups(pool(), target.setId, id, 'metadata.nested')).rejects.toThrow(/groupBy: no query has the metadata field "nested".*metadata\.origin, metadata\.rank, metadata\.template/);
  });

  it('compares two runs per group: means, difference, wins and losses, with the overall test kept', async () => {
    const a = await scoreRun('a-even', (i) => i % 2 === 0);
    const b = await scoreRun('b-all', () => true);
    const plain = await compareStoredRuns(pool(), target.setId, a, b);
    expect(plain.grouping).toBeUndefined();
    const c = await compareStoredRuns(pool(), target.setId, a, b, 'metadata.template');
    expect(c.metrics).toEqual(plain.metrics);
    const drug = c.grouping!.groups.find((g) => g.group === 'drug-disease')!;
    expect(drug.queries).toBe(queries.filter((q) => q.template === 'drug-disease').length);
    expect(drug.metrics.find((m) => m.metric === 'hit1')).toEqual({ metric: 'hit1', meanA: 0, meanB: 1, difference: 1, wins: drug.queries, losses: 0, ties: 0 });
    const gene = c.grouping!.groups.find((g) => g.group === 'gene-disease')!;
    expect(gene.metrics.find((m) => m.metric === 'mrr')).toMatchObject({ difference: 0, wins: 0, losses: 0, ties: gene.queries });
  });
});
