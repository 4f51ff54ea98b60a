import { describe, expect, it } from 'vitest';
import { METRICS, type MetricValues } from '../../../lib/queries/metrics';
import { answerBucket, compareGroups, groupBySchema, groupMeans, MAX_GROUPS, type GroupedScore } from '../../../lib/queries/run-groups';

/** Every metric at `x`. */
const all = (x: number) => Object.fromEntries(METRICS.map((m) => [m, x])) as MetricValues;
const score = (id: string, value: string | null, x: number | null, retrieved = 1): GroupedScore => ({ id, value, retrieved, metrics: x === null ? null : all(x) });

describe('answer-count buckets', () => {
  it('puts each count in its bucket, edges included', () => {
    expect([0, 1, 2, 5, 6, 20, 21, 1000].map(answerBucket)).toEqual(['0', '1', '2–5', '2–5', '6–20', '6–20', '>20', '>20']);
  });
});

describe('metrics by query group', () => {
  it('averages each group over its queries with answers and counts the rest', () => {
    const rows = [score('1', 'a', 1), score('2', 'a', 0.5), score('3', 'b', 0, 0), score('4', null, 0.25), score('5', 'a', null)];
    const groups = groupMeans('metadata.template', rows);
    expect(groups.map((g) => [g.group, g.queries, g.withoutAnswers, g.notRetrieved])).toEqual([['a', 2, 1, 0], ['b', 1, 0, 1], ['(none)', 1, 0, 0]]);
    expect(groups[0]!.means!.mrr).toBe(0.75);
    expect(groups[1]!.means!.hit1).toBe(0);
    expect(groups[2]!.means!.ndcg10).toBe(0.25);
  });

  it('orders splits as the split table and answer buckets by size, others largest first then by name', () => {
    expect(groupMeans('split', [score('1', 'test', 1), score('2', null, 1), score('3', 'train', 1), score('4', 'val', 1)]).map((g) => g.group))
      .toEqual(['train', 'val', 'test', '(no split)']);
    expect(groupMeans('answers', ['>20', '1', '6–20', '0', '2–5'].map((b, i) => score(String(i), b, 1))).map((g) => g.group)).toEqual(['0', '1', '2–5', '6–20', '>20']);
    expect(groupMeans('origin', [score('1', 'z', 1), score('2', 'b', 1), score('3', 'b', 1), score('4', 'a', 1)]).map((g) => g.group)).toEqual(['b', 'a', 'z']);
  });

  it('merges the groups past the cap into "(other)"', () => {
    const rows = Array.from({ length: MAX_GROUPS + 3 }, (_, i) => score(String(i), `t${String(i).padStart(3, '0')}`, i < MAX_GROUPS ? 1 : 0));
    const groups = groupMeans('metadata.template', rows);
    expect(groups).toHaveLength(MAX_GROUPS + 1);
    expect(groups.at(-1)).toMatchObject({ group: '(other)', queries: 3, means: { hit1: 0 } });
  });
});

describe('comparing two runs by group', () => {
  it('gives per group both means, the difference and wins, losses and ties of B against A', () => {
    const a = [score('1', 'x', 0.5), score('2', 'x', 0.5), score('3', 'x', 1), score('4', 'y', 0), score('5', 'y', null)];
    const b = new Map([['1', all(1)], ['2', all(0)], ['3', all(1)], ['4', all(0.5)], ['5', null]]);
    const [x, y] = compareGroups('metadata.template', a, b);
    expect(x).toMatchObject({ group: 'x', queries: 3 });
    expect(x!.metrics.find((m) => m.metric === 'mrr')).toEqual({ metric: 'mrr', meanA: 2 / 3, meanB: 2 / 3, difference: 0, wins: 1, losses: 1, ties: 1 });
    expect(y).toMatchObject({ group: 'y', queries: 1 });
    expect(y!.metrics[0]).toEqual({ metric: 'hit1', meanA: 0, meanB: 0.5, difference: 0.5, wins: 1, losses: 0, ties: 0 });
  });
});

describe('the groupBy parameter', () => {
  it('takes the built-in groupings and metadata keys of bounded length, nothing else', () => {
    for (const ok of ['split', 'origin', 'answers', 'metadata.template', `metadata.${'k'.repeat(64)}`]) expect(groupBySchema.safeParse(ok).success).toBe(true);
    for (const bad of ['', 'template', 'metadata.', `metadata.${'k'.repeat(65)}`, 'Split']) expect(groupBySchema.safeParse(bad).success).toBe(false);
  });
});
