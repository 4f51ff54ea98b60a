/**
 * A scored run's metrics by query group (split, origin, answer count, or a metadata field such as a STaRK
 * template), from the per-query scores already stored, and the comparison of two runs group by group.
 * Conventions are documented in docs/evaluation.md ("Metrics by query group").
 */
import { z } from 'zod';
import { METRICS, means, type MetricComparison, type MetricMeans, type MetricValues } from './metrics';
import { compareSplits } from './set-stats';

/** The groupings every run has; a metadata field is grouped by as `metadata.<key>`. */
export const BUILTIN_GROUPINGS = ['split', 'origin', 'answers'] as const;
export const METADATA_PREFIX = 'metadata.';
/** Longer metadata keys are not offered: they are data, not field names. */
export const MAX_GROUP_KEY_LENGTH = 64;
/** Groups listed; the smaller ones are merged into one "(other)" group. */
export const MAX_GROUPS = 50;
const NO_VALUE = '(none)';
const OTHER_GROUP = '(other)';

/** A grouping: `split`, `origin`, `answers`, or `metadata.<key>`. */
export type GroupBy = (typeof BUILTIN_GROUPINGS)[number] | `metadata.${string}`;

/** The `groupBy` request parameter; whether a metadata key exists is checked against the run's queries. */
export const groupBySchema = z.string().refine(
  (v) => (BUILTIN_GROUPINGS as readonly string[]).includes(v) || (v.startsWith(METADATA_PREFIX) && v.length > METADATA_PREFIX.length && v.length <= METADATA_PREFIX.length + MAX_GROUP_KEY_LENGTH),
  `unknown grouping; use ${BUILTIN_GROUPINGS.join(', ')} or ${METADATA_PREFIX}<key> (a key of at most ${MAX_GROUP_KEY_LENGTH} characters)`,
).transform((v) => v as GroupBy);

/** Answer-count buckets: upper bound (inclusive) and label. */
const ANSWER_BUCKETS: [number, string][] = [[0, '0'], [1, '1'], [5, '2–5'], [20, '6–20'], [Infinity, '>20']];

export function answerBucket(answers: number): string {
  return ANSWER_BUCKETS.find(([max]) => answers <= max)![1];
}

/** One query's stored score with the value it is grouped by (null: the query has none). */
export interface GroupedScore {
  id: string;
  value: string | null;
  retrieved: number;
  metrics: MetricValues | null;
}

export type GroupMeans = MetricMeans & { group: string };

/** Group labels in display order: splits as the split table, buckets by size, the rest largest first. */
function orderGroups(by: GroupBy, sizes: Map<string | null, number>): (string | null)[] {
  const values = [...sizes.keys()];
  if (by === 'split') return values.sort(compareSplits);
  if (by === 'answers') {
    const labels = ANSWER_BUCKETS.map(([, label]) => label);
    return values.sort((a, b) => labels.indexOf(a!) - labels.indexOf(b!));
  }
  return values.sort((a, b) => (a === null ? 1 : b === null ? -1 : sizes.get(b)! - sizes.get(a)! || (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * Splits the scores into labelled groups: queries without a value form "(none)" (for splits, "(no split)" as
 * the split table says), and past MAX_GROUPS the rest are merged into "(other)".
 */
function partition<T extends { id: string; value: string | null }>(by: GroupBy, rows: readonly T[]): { group: string; rows: T[] }[] {
  const members = new Map<string | null, T[]>();
  for (const r of rows) {
    const list = members.get(r.value);
    if (list) list.push(r);
    else members.set(r.value, [r]);
  }
  const order = orderGroups(by, new Map([...members].map(([v, list]) => [v, list.length])));
  const label = (v: string | null) => v ?? (by === 'split' ? '(no split)' : NO_VALUE);
  const shown = order.slice(0, MAX_GROUPS).map((v) => ({ group: label(v), rows: members.get(v)! }));
  const rest = order.slice(MAX_GROUPS).flatMap((v) => members.get(v)!);
  return rest.length ? [...shown, { group: OTHER_GROUP, rows: rest }] : shown;
}

/** The metrics of each group, with the same rules as the overall means. */
export function groupMeans(by: GroupBy, rows: readonly GroupedScore[]): GroupMeans[] {
  return partition(by, rows).map(({ group, rows: members }) => ({ group, ...means(members) }));
}

/** As the overall comparison, without a test: groups are often too small for one. */
export type GroupMetricComparison = Omit<MetricComparison, 'pValue'>;

export interface GroupComparison {
  group: string;
  /** Queries with answers in the group, compared. */
  queries: number;
  metrics: GroupMetricComparison[];
}

/**
 * Two runs of the same queries, group by group: the means, the difference and the queries where B wins,
 * loses or ties. Queries without answers, or scored in one run only, are left out (the overall comparison
 * refuses the latter).
 */
export function compareGroups(by: GroupBy, a: readonly GroupedScore[], b: ReadonlyMap<string, MetricValues | null>): GroupComparison[] {
  const pairs = a.flatMap((r) => {
    const other = b.get(r.id);
    return r.metrics && other ? [{ id: r.id, value: r.value, x: r.metrics, y: other }] : [];
  });
  return partition(by, pairs).map(({ group, rows }) => ({
    group,
    queries: rows.length,
    metrics: METRICS.map((metric): GroupMetricComparison => {
      let sumA = 0;
      let sumB = 0;
      let wins = 0;
      let losses = 0;
      for (const { x, y } of rows) {
        sumA += x[metric];
        sumB += y[metric];
        if (y[metric] > x[metric]) wins += 1;
        else if (y[metric] < x[metric]) losses += 1;
      }
      const n = rows.length || 1;
      return { metric, meanA: sumA / n, meanB: sumB / n, difference: (sumB - sumA) / n, wins, losses, ties: rows.length - wins - losses };
    }),
  }));
}
