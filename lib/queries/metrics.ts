/**
 * Scores a retrieval run against a query set: the STaRK metrics (Hit@1, Hit@5, Recall@20, MRR), the
 * KeySearchWiki ones (MAP, P@10) and nDCG@10, per query, overall and per split, and compares two runs
 * with a paired randomization test. Formulas and conventions are documented in docs/evaluation.md.
 */
import { mulberry32 } from '../random';
import { compareSplits } from './set-stats';

export const METRICS = ['hit1', 'hit5', 'recall20', 'mrr', 'map', 'p10', 'ndcg10'] as const;
export type Metric = (typeof METRICS)[number];
export type MetricValues = Record<Metric, number>;

export const METRIC_LABELS: Record<Metric, string> = {
  hit1: 'Hit@1',
  hit5: 'Hit@5',
  recall20: 'Recall@20',
  mrr: 'MRR',
  map: 'MAP',
  p10: 'P@10',
  ndcg10: 'nDCG@10',
};

export interface EvalQuery {
  id: string;
  split: string | null;
  /** The relevant entities. */
  answers: string[];
  /** Graded relevance for nDCG; when absent or empty, every answer has grade 1. */
  judgments?: { entity: string; grade: number }[];
}

export interface EvaluationInput {
  queries: readonly EvalQuery[];
  /** Query id to ranked entity ids, best first, each entity once (see orderRun). */
  run: ReadonlyMap<string, readonly string[]>;
}

export interface QueryEvaluation {
  id: string;
  split: string | null;
  /** Entities the run ranked for the query; 0 when it is absent from the run. */
  retrieved: number;
  /** null for a query without answers, which is left out of the means. */
  metrics: MetricValues | null;
}

export interface MetricMeans {
  /** Queries averaged: those with answers. */
  queries: number;
  /** Queries left out of the means because they have no answers. */
  withoutAnswers: number;
  /** Averaged queries the run ranked nothing for; they score 0 on every metric. */
  notRetrieved: number;
  /** null when no query is averaged. */
  means: MetricValues | null;
}

export interface Evaluation {
  perQuery: QueryEvaluation[];
  overall: MetricMeans;
  bySplit: (MetricMeans & { split: string | null })[];
}

/** Query ids of the run that are not in the set, in run order; the caller reports them as an error. */
export function unknownRunQueries(queryIds: ReadonlySet<string>, run: ReadonlyMap<string, unknown>): string[] {
  return [...run.keys()].filter((id) => !queryIds.has(id));
}

function gainsOf(q: EvalQuery): Map<string, number> {
  if (q.judgments && q.judgments.length > 0) return new Map(q.judgments.map((j) => [j.entity, Math.max(j.grade, 0)]));
  return new Map(q.answers.map((a) => [a, 1]));
}

function dcg(gains: Iterable<number>): number {
  let sum = 0;
  let rank = 0;
  for (const g of gains) {
    rank += 1;
    sum += g / Math.log2(rank + 1);
  }
  return sum;
}

/** The metrics of one query with answers, over its full ranking. */
function scoreQuery(q: EvalQuery, ranking: readonly string[]): MetricValues {
  const relevant = new Set(q.answers);
  const gains = gainsOf(q);
  const seen = new Set<string>();
  let found = 0;
  let firstRank = 0;
  let precisionSum = 0;
  let in10 = 0;
  let in20 = 0;
  for (const [i, entity] of ranking.entries()) {
    if (seen.has(entity)) throw new Error(`query "${q.id}": entity "${entity}" is ranked twice`);
    seen.add(entity);
    if (!relevant.has(entity)) continue;
    const rank = i + 1;
    found += 1;
    if (firstRank === 0) firstRank = rank;
    precisionSum += found / rank;
    if (rank <= 10) in10 += 1;
    if (rank <= 20) in20 += 1;
  }
  const ideal = dcg([...gains.values()].filter((g) => g > 0).sort((a, b) => b - a).slice(0, 10));
  const actual = dcg(ranking.slice(0, 10).map((e) => gains.get(e) ?? 0));
  return {
    hit1: firstRank === 1 ? 1 : 0,
    hit5: firstRank >= 1 && firstRank <= 5 ? 1 : 0,
    recall20: in20 / relevant.size,
    mrr: firstRank === 0 ? 0 : 1 / firstRank,
    map: precisionSum / relevant.size,
    p10: in10 / 10,
    ndcg10: ideal === 0 ? 0 : actual / ideal,
  };
}

function zeros(): MetricValues {
  return Object.fromEntries(METRICS.map((m) => [m, 0])) as MetricValues;
}

/** The means of scored queries: the whole set, a split, or any query group. */
export function means(rows: readonly Pick<QueryEvaluation, 'retrieved' | 'metrics'>[]): MetricMeans {
  const scored = rows.filter((r) => r.metrics !== null);
  const sums = zeros();
  for (const r of scored) for (const m of METRICS) sums[m] += r.metrics![m];
  return {
    queries: scored.length,
    withoutAnswers: rows.length - scored.length,
    notRetrieved: scored.filter((r) => r.retrieved === 0).length,
    means: scored.length === 0 ? null : (Object.fromEntries(METRICS.map((m) => [m, sums[m] / scored.length])) as MetricValues),
  };
}

/**
 * Scores every query of the set. Queries without answers are listed with null metrics and left out of the
 * means; queries the run does not rank (absent or empty) score 0 and count (trec_eval -c). Run queries not
 * in the set are ignored here: check them first with unknownRunQueries.
 */
export function evaluateRun(input: EvaluationInput): Evaluation {
  const ids = new Set<string>();
  const perQuery = input.queries.map((q): QueryEvaluation => {
    if (ids.has(q.id)) throw new Error(`query "${q.id}" appears twice in the query set`);
    ids.add(q.id);
    const ranking = input.run.get(q.id) ?? [];
    const metrics = q.answers.length === 0 ? null : ranking.length === 0 ? zeros() : scoreQuery(q, ranking);
    return { id: q.id, split: q.split, retrieved: ranking.length, metrics };
  });
  const splits = [...new Set(perQuery.map((r) => r.split))].sort(compareSplits);
  return {
    perQuery,
    overall: means(perQuery),
    bySplit: splits.map((split) => ({ split, ...means(perQuery.filter((r) => r.split === split)) })),
  };
}

export interface MetricComparison {
  metric: Metric;
  meanA: number;
  meanB: number;
  /** meanB − meanA. */
  difference: number;
  /** Queries where run B scores higher than run A. */
  wins: number;
  /** Queries where run B scores lower than run A. */
  losses: number;
  ties: number;
  /** Two-sided p-value of the paired randomization test of the mean difference. */
  pValue: number;
}

export interface RunComparison {
  /** Queries compared: those with answers. */
  queries: number;
  permutations: number;
  seed: number;
  metrics: MetricComparison[];
}

export interface ComparisonOptions {
  /** Random sign assignments drawn; 10,000 by default. */
  permutations?: number;
  /** Seed of the random draws, so a comparison can be reproduced; 1 by default. */
  seed?: number;
}

/**
 * Paired randomization (sign-flip) test: under the null hypothesis that the two runs are exchangeable, each
 * query's difference is equally likely to have either sign. The p-value is the share of random sign
 * assignments whose |sum of differences| reaches the observed one, counting the observed assignment itself
 * ((extreme + 1) / (permutations + 1)), so it is never 0.
 */
function randomizationPValue(differences: readonly number[], permutations: number, seed: number): number {
  const nonZero = Float64Array.from(differences.filter((d) => d !== 0));
  if (nonZero.length === 0) return 1;
  let observed = 0;
  let scale = 0;
  for (const d of nonZero) {
    observed += d;
    scale += Math.abs(d);
  }
  // Sums equal in exact arithmetic may differ by rounding when added in another order.
  const threshold = Math.abs(observed) - 1e-10 * scale;
  const random = mulberry32(seed);
  let extreme = 0;
  for (let p = 0; p < permutations; p++) {
    let sum = 0;
    let bits = 0;
    for (let i = 0; i < nonZero.length; i++) {
      // One draw gives 32 random signs: mulberry32 returns a 32-bit integer divided by 2^32.
      if ((i & 31) === 0) bits = (random() * 4294967296) >>> 0;
      sum += bits & 1 ? -nonZero[i]! : nonZero[i]!;
      bits >>>= 1;
    }
    if (Math.abs(sum) >= threshold) extreme += 1;
  }
  return (extreme + 1) / (permutations + 1);
}

/** Compares two evaluations of the same query set, metric by metric; B is compared with A. */
export function compareRuns(a: Evaluation, b: Evaluation, options: ComparisonOptions = {}): RunComparison {
  const permutations = options.permutations ?? 10_000;
  const seed = options.seed ?? 1;
  if (!Number.isInteger(permutations) || permutations < 1) throw new RangeError(`permutations must be a positive integer, got ${permutations}`);
  const scored = (e: Evaluation) => new Map(e.perQuery.filter((r) => r.metrics !== null).map((r) => [r.id, r.metrics!]));
  const scoredA = scored(a);
  const scoredB = scored(b);
  const notSameSet = (id: string, only: string) => new Error(`the evaluations are not of the same query set: query "${id}" is scored in ${only} only`);
  const pairs: [MetricValues, MetricValues][] = [];
  for (const [id, metrics] of scoredA) {
    const other = scoredB.get(id);
    if (!other) throw notSameSet(id, 'A');
    pairs.push([metrics, other]);
  }
  for (const id of scoredB.keys()) if (!scoredA.has(id)) throw notSameSet(id, 'B');
  return {
    queries: pairs.length,
    permutations,
    seed,
    metrics: METRICS.map((metric): MetricComparison => {
      const differences = pairs.map(([x, y]) => y[metric] - x[metric]);
      const meanA = pairs.reduce((s, [x]) => s + x[metric], 0) / (pairs.length || 1);
      const meanB = pairs.reduce((s, [, y]) => s + y[metric], 0) / (pairs.length || 1);
      return {
        metric,
        meanA,
        meanB,
        difference: meanB - meanA,
        wins: differences.filter((d) => d > 0).length,
        losses: differences.filter((d) => d < 0).length,
        ties: differences.filter((d) => d === 0).length,
        pValue: randomizationPValue(differences, permutations, seed),
      };
    }),
  };
}
