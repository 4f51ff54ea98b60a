import { mulberry32 } from '../random';
import { krippendorffAlpha } from '../stats/agreement';
import { points, type Dimension } from './dimensions';

export interface RatedItem {
  id: number;
  source: string;
  queryExternalId: string | null;
  text: string;
  attention: { dimension: string; accept: number[] } | null;
}

export interface RatingRow {
  participantId: number;
  itemId: number;
  dimension: string;
  value: number | null;
  text: string | null;
}

export interface Summary {
  n: number;
  mean: number | null;
  /** How many ratings gave each point of the scale. */
  distribution: Record<string, number>;
  /** Share of ratings above the scale's midpoint (4-5 of 1-5), or of 1s for a binary dimension. */
  positive: number | null;
  /** Share at or above the midpoint (3-5 of 1-5); null for binary dimensions. */
  nonNegative: number | null;
}

export interface DimensionAgreement {
  /** Krippendorff's alpha (ordinal for scales, nominal for binary), items as units. */
  alpha: number | null;
  /** 95% percentile bootstrap interval, resampling items. */
  ci: [number, number] | null;
  units: number;
  /** Pairs of ratings of the same item. */
  pairs: number;
  /** Share of those pairs at most one point apart (BioKaLMA's measure; scales only) and exactly equal. */
  withinOne: number | null;
  exact: number | null;
}

export interface DimensionResult {
  key: string;
  label: string;
  kind: 'scale' | 'binary';
  points: number[];
  overall: Summary;
  bySource: (Summary & { source: string })[];
  agreement: DimensionAgreement;
}

export interface ItemResult {
  itemId: number;
  source: string;
  queryExternalId: string | null;
  text: string;
  raters: number;
  /** Per dimension: mean and standard deviation (the disagreement) of its ratings. */
  dimensions: Record<string, { n: number; mean: number; sd: number; min: number; max: number }>;
  /** The largest standard deviation over its dimensions: how much its raters disagree. */
  disagreement: number;
}

export interface AttentionFailure {
  participantId: number;
  failures: { itemId: number; text: string; dimension: string; given: number; accept: number[] }[];
}

export interface StudyResults {
  participants: number;
  ratings: number;
  attention: { checks: number; failed: AttentionFailure[]; excluded: boolean };
  dimensions: DimensionResult[];
  items: ItemResult[];
}

export interface ResultOptions {
  /** Leave out the ratings of participants who failed an attention check. */
  excludeFailed?: boolean;
  bootstrapSamples?: number;
  bootstrapSeed?: number;
}

/** The study's results from its items and ratings: what a paper's human-evaluation table reports. */
export function studyResults(dimensions: Dimension[], items: RatedItem[], all: RatingRow[], opts: ResultOptions = {}): StudyResults {
  const itemById = new Map(items.map((i) => [i.id, i]));
  const failed = attentionFailures(itemById, all);
  const excluded = new Set(opts.excludeFailed ? failed.map((f) => f.participantId) : []);
  const ratings = all.filter((r) => !excluded.has(r.participantId) && !itemById.get(r.itemId)?.attention);
  const numeric = ratedDimensions(dimensions);
  const sources = [...new Set(items.filter((i) => !i.attention).map((i) => i.source))].sort();

  const results: DimensionResult[] = numeric.map((d) => {
    const rows = ratings.filter((r) => r.dimension === d.key && r.value !== null);
    const summarise = (values: number[]): Summary => dimensionSummary(d, values);
    const byItem = groupValues(rows);
    return {
      key: d.key,
      label: d.label,
      kind: d.kind,
      points: points(d),
      overall: summarise(rows.map((r) => r.value!)),
      bySource: sources.map((source) => ({ source, ...summarise(rows.filter((r) => itemById.get(r.itemId)?.source === source).map((r) => r.value!)) })),
      agreement: agreement([...byItem.values()], d.kind === 'binary' ? 'nominal' : 'ordinal', opts),
    };
  });

  const ratingsOf = new Map<number, RatingRow[]>();
  for (const r of ratings) if (r.value !== null) ratingsOf.set(r.itemId, [...(ratingsOf.get(r.itemId) ?? []), r]);
  const itemResults: ItemResult[] = items.filter((i) => !i.attention).map((item) => {
    const mine = ratingsOf.get(item.id) ?? [];
    const dims: ItemResult['dimensions'] = {};
    for (const d of numeric) {
      const values = mine.filter((r) => r.dimension === d.key).map((r) => r.value!);
      if (values.length) dims[d.key] = { n: values.length, mean: mean(values), sd: sd(values), min: Math.min(...values), max: Math.max(...values) };
    }
    return {
      itemId: item.id, source: item.source, queryExternalId: item.queryExternalId, text: item.text,
      raters: new Set(mine.map((r) => r.participantId)).size,
      dimensions: dims,
      disagreement: Math.max(0, ...Object.values(dims).map((x) => x.sd)),
    };
  });

  return {
    participants: new Set(ratings.map((r) => r.participantId)).size,
    ratings: ratings.length,
    attention: { checks: items.filter((i) => i.attention).length, failed, excluded: !!opts.excludeFailed },
    dimensions: results,
    items: itemResults,
  };
}

function attentionFailures(itemById: Map<number, RatedItem>, ratings: RatingRow[]): AttentionFailure[] {
  const byParticipant = new Map<number, AttentionFailure['failures']>();
  for (const r of ratings) {
    const check = itemById.get(r.itemId)?.attention;
    if (!check || check.dimension !== r.dimension || r.value === null || check.accept.includes(r.value)) continue;
    const failure = { itemId: r.itemId, text: itemById.get(r.itemId)!.text, dimension: r.dimension, given: r.value, accept: check.accept };
    byParticipant.set(r.participantId, [...(byParticipant.get(r.participantId) ?? []), failure]);
  }
  return [...byParticipant].sort(([a], [b]) => a - b).map(([participantId, failures]) => ({ participantId, failures }));
}

/** The dimensions rated with a value: scales and binary ones (free text is only exported). */
export type RatedDimension = Exclude<Dimension, { kind: 'text' }>;
export const ratedDimensions = (dimensions: Dimension[]): RatedDimension[] => dimensions.filter((d): d is RatedDimension => d.kind !== 'text');

/** A rated dimension's summary of some values: counts per point, mean and the positive / non-negative shares. */
export function dimensionSummary(d: RatedDimension, values: number[]): Summary {
  const pts = points(d);
  return summary(values, pts, d.kind === 'binary' ? null : (pts[0]! + pts[pts.length - 1]!) / 2);
}

function summary(values: number[], pts: number[], mid: number | null): Summary {
  const distribution = Object.fromEntries(pts.map((p) => [String(p), values.filter((v) => v === p).length]));
  if (!values.length) return { n: 0, mean: null, distribution, positive: null, nonNegative: null };
  const share = (test: (v: number) => boolean) => values.filter(test).length / values.length;
  return {
    n: values.length,
    mean: mean(values),
    distribution,
    positive: mid === null ? share((v) => v === 1) : share((v) => v > mid),
    nonNegative: mid === null ? null : share((v) => v >= mid),
  };
}

function groupValues(rows: RatingRow[]): Map<number, number[]> {
  const byItem = new Map<number, number[]>();
  for (const r of rows) byItem.set(r.itemId, [...(byItem.get(r.itemId) ?? []), r.value!]);
  return byItem;
}

function agreement(units: number[][], metric: 'ordinal' | 'nominal', opts: ResultOptions): DimensionAgreement {
  const { alpha, units: counted } = krippendorffAlpha(units, metric);
  let pairs = 0;
  let within = 0;
  let same = 0;
  for (const u of units) {
    for (let i = 0; i < u.length; i++) {
      for (let j = i + 1; j < u.length; j++) {
        pairs++;
        if (Math.abs(u[i]! - u[j]!) <= 1) within++;
        if (u[i] === u[j]) same++;
      }
    }
  }
  return {
    alpha,
    ci: alpha === null ? null : bootstrapInterval(units.filter((u) => u.length >= 2), metric, opts.bootstrapSamples ?? 1000, opts.bootstrapSeed ?? 1),
    units: counted,
    pairs,
    // On a two-point scale every pair is within one point: the measure says nothing there.
    withinOne: pairs && metric === 'ordinal' ? within / pairs : null,
    exact: pairs ? same / pairs : null,
  };
}

/** The 2.5th and 97.5th percentiles of alpha over samples of the units drawn with replacement. */
export function bootstrapInterval(units: number[][], metric: 'ordinal' | 'nominal', samples: number, seed: number): [number, number] | null {
  const rng = mulberry32(seed);
  const alphas: number[] = [];
  for (let s = 0; s < samples; s++) {
    const drawn = Array.from({ length: units.length }, () => units[Math.floor(rng() * units.length)]!);
    const { alpha } = krippendorffAlpha(drawn, metric);
    if (alpha !== null) alphas.push(alpha);
  }
  if (!alphas.length) return null;
  alphas.sort((a, b) => a - b);
  const at = (q: number) => alphas[Math.min(alphas.length - 1, Math.max(0, Math.round(q * (alphas.length - 1))))]!;
  return [at(0.025), at(0.975)];
}

const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
/** Population standard deviation: the spread of the ratings an item got. */
const sd = (xs: number[]) => {
  const m = mean(xs);
  return Math.sqrt(xs.reduce((s, x) => s + (x - m) ** 2, 0) / xs.length);
};
