import { describe, expect, it } from 'vitest';
import { compareRuns, evaluateRun, METRICS, unknownRunQueries, type EvalQuery, type Evaluation, type MetricValues } from '../../../lib/queries/metrics';
import { orderRun, parseRun } from '../../../lib/queries/run-files';

const entities = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i + 1}`);

// Six queries covering the conventions; every expected value below is worked out by hand in its comment.
const QUERIES: EvalQuery[] = [
  { id: 'q1', split: 'train', answers: ['a', 'b'] },
  { id: 'q2', split: 'train', answers: ['z'] },
  {
    id: 'q3',
    split: 'test',
    answers: ['a', 'b', 'd'],
    judgments: [
      { entity: 'a', grade: 3 },
      { entity: 'b', grade: 1 },
      { entity: 'c', grade: 0 },
      { entity: 'd', grade: 2 },
    ],
  },
  { id: 'q4', split: 'test', answers: ['k'] },
  { id: 'q5', split: null, answers: [] },
  { id: 'q6', split: 'test', answers: ['m'] },
];
const RUN = new Map<string, string[]>([
  ['q1', ['x', 'a', 'y', 'b']],
  // The answer at rank 25: MRR and MAP count it, Recall@20 does not.
  ['q2', [...entities('e', 24), 'z']],
  ['q3', ['b', 'c', 'a', 'x']],
  // q4 is absent from the run.
  ['q5', ['a']],
  ['q6', []],
]);

const byId = (e: Evaluation, id: string) => e.perQuery.find((r) => r.id === id)!;

function expectMetrics(got: MetricValues | null, want: MetricValues) {
  expect(got).not.toBeNull();
  for (const m of METRICS) expect(got![m], m).toBeCloseTo(want[m], 6);
}

describe('evaluateRun', () => {
  const evaluation = evaluateRun({ queries: QUERIES, run: RUN });

  it('scores a binary query over its full ranking', () => {
    // Answers at ranks 2 and 4. AP = (1/2 + 2/4) / 2. nDCG@10 = (1/log2 3 + 1/log2 5) / (1 + 1/log2 3).
    expectMetrics(byId(evaluation, 'q1').metrics, { hit1: 0, hit5: 1, recall20: 1, mrr: 0.5, map: 0.5, p10: 0.2, ndcg10: 0.6509209 });
    expect(byId(evaluation, 'q1').retrieved).toBe(4);
  });

  it('counts an answer beyond rank 20 in MRR and MAP but not in Recall@20', () => {
    expectMetrics(byId(evaluation, 'q2').metrics, { hit1: 0, hit5: 0, recall20: 0, mrr: 1 / 25, map: 1 / 25, p10: 0, ndcg10: 0 });
  });

  it('uses graded judgments for nDCG and the answers for the binary metrics', () => {
    // DCG = 1/log2 2 + 0 + 3/log2 4 = 2.5; ideal = 3 + 2/log2 3 + 1/log2 4 = 4.76186. AP = (1/1 + 2/3) / 3.
    expectMetrics(byId(evaluation, 'q3').metrics, { hit1: 1, hit5: 1, recall20: 2 / 3, mrr: 1, map: 5 / 9, p10: 0.2, ndcg10: 0.5250050 });
  });

  it('scores queries absent from the run or with an empty ranking 0 and keeps them in the means', () => {
    const zero = { hit1: 0, hit5: 0, recall20: 0, mrr: 0, map: 0, p10: 0, ndcg10: 0 };
    expect(byId(evaluation, 'q4')).toEqual({ id: 'q4', split: 'test', retrieved: 0, metrics: zero });
    expect(byId(evaluation, 'q6')).toEqual({ id: 'q6', split: 'test', retrieved: 0, metrics: zero });
  });

  it('lists queries without answers with no metrics and leaves them out of the means', () => {
    expect(byId(evaluation, 'q5')).toEqual({ id: 'q5', split: null, retrieved: 1, metrics: null });
  });

  it('averages over the queries with answers', () => {
    const { queries, withoutAnswers, notRetrieved, means } = evaluation.overall;
    expect({ queries, withoutAnswers, notRetrieved }).toEqual({ queries: 5, withoutAnswers: 1, notRetrieved: 2 });
    // Sums over q1, q2, q3 (q4, q6 are 0) divided by 5.
    expectMetrics(means, {
      hit1: 1 / 5,
      hit5: 2 / 5,
      recall20: (1 + 2 / 3) / 5,
      mrr: (0.5 + 0.04 + 1) / 5,
      map: (0.5 + 0.04 + 5 / 9) / 5,
      p10: 0.4 / 5,
      ndcg10: (0.6509209 + 0.525005) / 5,
    });
  });

  it('averages per split, train before test, no split last', () => {
    expect(evaluation.bySplit.map((s) => [s.split, s.queries, s.withoutAnswers, s.notRetrieved])).toEqual([
      ['train', 2, 0, 0],
      ['test', 3, 0, 2],
      [null, 0, 1, 0],
    ]);
    expect(evaluation.bySplit[0]!.means!.mrr).toBeCloseTo((0.5 + 0.04) / 2, 9);
    expect(evaluation.bySplit[1]!.means!.ndcg10).toBeCloseTo(0.525005 / 3, 6);
    expect(evaluation.bySplit[2]!.means).toBeNull();
  });

  it('ranks tied scores as trec_eval does before scoring', () => {
    // d3, d2 and d10 tie; by id descending as strings they come d3, d2, d10, so d2 is third, not fourth.
    const parsed = parseRun('1 Q0 d10 1 1.0 r\n1 Q0 d2 2 1.0 r\n1 Q0 d1 3 2.0 r\n1 Q0 d3 4 1.0 r\n', 'run.txt', 'trec');
    const run = orderRun(parsed.run);
    expect(run.get('1')).toEqual(['d1', 'd3', 'd2', 'd10']);
    const e = evaluateRun({ queries: [{ id: '1', split: null, answers: ['d2'] }], run });
    expect(e.perQuery[0]!.metrics!.mrr).toBeCloseTo(1 / 3, 12);
  });

  it('treats nDCG without judgments as binary and takes the ideal from all answers', () => {
    // 12 answers, 2 of them at ranks 1 and 3: DCG = 1 + 1/2; ideal = ten gains of 1.
    const answers = entities('r', 12);
    const e = evaluateRun({ queries: [{ id: 'q', split: null, answers }], run: new Map([['q', ['r1', 'n', 'r2']]]) });
    const ideal = entities('', 10).reduce((s, _, i) => s + 1 / Math.log2(i + 2), 0);
    expect(e.perQuery[0]!.metrics!.ndcg10).toBeCloseTo(1.5 / ideal, 12);
    expect(e.perQuery[0]!.metrics!.recall20).toBeCloseTo(2 / 12, 12);
  });

  it('refuses a ranking with an entity twice and a set with a query twice', () => {
    expect(() => evaluateRun({ queries: [{ id: 'q', split: null, answers: ['a'] }], run: new Map([['q', ['a', 'b', 'a']]]) })).toThrow(
      'query "q": entity "a" is ranked twice',
    );
    expect(() => evaluateRun({ queries: [QUERIES[0]!, QUERIES[0]!], run: RUN })).toThrow('query "q1" appears twice');
  });
});

describe('unknownRunQueries', () => {
  it('lists the run queries that are not in the set, in run order', () => {
    const run = new Map([
      ['q9', []],
      ['q1', []],
      ['q0', []],
    ]);
    expect(unknownRunQueries(new Set(['q1', 'q2']), run)).toEqual(['q9', 'q0']);
  });
});

describe('compareRuns', () => {
  const queries = (n: number): EvalQuery[] => Array.from({ length: n }, (_, i) => ({ id: `q${i}`, split: null, answers: [`a${i}`] }));
  /** A run that finds query i's answer at rank ranks[i] (0: not at all). */
  const runAt = (ranks: number[]) =>
    evaluateRun({
      queries: queries(ranks.length),
      run: new Map(ranks.map((r, i) => [`q${i}`, r === 0 ? ['x'] : [...entities('x', r - 1), `a${i}`]])),
    });

  it('counts wins, losses and ties and gives the mean difference', () => {
    const a = runAt([1, 2, 0, 1]);
    const b = runAt([1, 1, 1, 0]);
    const mrr = compareRuns(a, b, { permutations: 100 }).metrics.find((m) => m.metric === 'mrr')!;
    expect(mrr).toMatchObject({ meanA: 2.5 / 4, meanB: 3 / 4, wins: 2, losses: 1, ties: 1 });
    expect(mrr.difference).toBeCloseTo(0.5 / 4, 12);
  });

  it('approaches the exact randomization p-value', () => {
    // Three differences of +1: 2 of the 8 sign assignments reach |sum| = 3, p = 0.25.
    const three = compareRuns(runAt([0, 0, 0]), runAt([1, 1, 1]), { permutations: 20_000 }).metrics.find((m) => m.metric === 'hit1')!;
    expect(three.pValue).toBeGreaterThan(0.235);
    expect(three.pValue).toBeLessThan(0.265);
    // Ten differences of +1: p = 2 / 1024, about 0.002.
    const ten = compareRuns(runAt(Array(10).fill(0)), runAt(Array(10).fill(1))).metrics.find((m) => m.metric === 'hit1')!;
    expect(ten.pValue).toBeGreaterThan(0.0005);
    expect(ten.pValue).toBeLessThan(0.004);
  });

  it('gives p = 1 when every sign assignment is as extreme and when the runs agree', () => {
    // Differences +1, +1, −1: every assignment has |sum| 1 or 3, at least the observed 1.
    const mixed = compareRuns(runAt([0, 0, 1]), runAt([1, 1, 0]), { permutations: 500 }).metrics.find((m) => m.metric === 'hit1')!;
    expect(mixed.pValue).toBe(1);
    const same = compareRuns(runAt([1, 3]), runAt([1, 3]));
    expect(same.metrics.every((m) => m.pValue === 1 && m.ties === 2 && m.difference === 0)).toBe(true);
  });

  it('is reproducible from its seed', () => {
    const a = runAt([0, 2, 0, 5, 1, 0, 3]);
    const b = runAt([1, 1, 2, 0, 1, 4, 1]);
    const p = (seed: number) => compareRuns(a, b, { permutations: 2000, seed }).metrics.map((m) => m.pValue);
    expect(p(7)).toEqual(p(7));
    expect(p(7)).not.toEqual(p(8));
  });

  it('refuses evaluations of different query sets', () => {
    expect(() => compareRuns(runAt([1, 1]), runAt([1, 1, 1]))).toThrow('query "q2" is scored in B only');
    expect(() => compareRuns(runAt([1, 1, 1]), runAt([1, 1]))).toThrow('query "q2" is scored in A only');
  });
});
