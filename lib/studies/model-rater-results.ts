import { krippendorffAlpha } from '../stats/agreement';
import { points, type Dimension } from './dimensions';
import { dimensionSummary, ratedDimensions, type RatedDimension, type RatingRow, type Summary } from './results';

export type ModelRaterStatus = 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'CANCELLED';

/** A model rater as its results need it (see model-rater-store.ts). */
export interface ModelRaterRow {
  model: string;
  status: ModelRaterStatus;
  done: number;
  total: number;
  /** Items whose answer could not be used in the latest run. */
  failures: number;
}

/** One value a model gave (failures, which have none, are not read for results). */
export interface ModelRatingRow {
  model: string;
  itemId: number;
  dimension: string;
  value: number;
}

export interface ModelAgreement {
  /** Krippendorff's alpha between the model and the human median, items as units; null without variation. */
  alpha: number | null;
  /** Items with a model rating and at least one human rating. */
  units: number;
}

export interface ModelDimensionResult {
  key: string;
  label: string;
  kind: 'scale' | 'binary';
  points: number[];
  /** The model's ratings alone, in the same shape as the human `overall`. */
  summary: Summary;
  agreementWithHumans: ModelAgreement;
}

export interface ModelRaterResult extends ModelRaterRow {
  /** Values stored (one per item and dimension). */
  ratings: number;
  dimensions: ModelDimensionResult[];
}

/**
 * The median of an item's human ratings. With an even count it is the lower of the two middle values: a
 * point of the scale that a rater gave, as an ordinal value should be (a mean of two points may fall between
 * points, and rounding it would lean one way as much as taking the lower one leans the other).
 */
export function humanMedian(values: readonly number[]): number {
  if (!values.length) throw new Error('The median of no values');
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

/**
 * Agreement of a model with the people on one dimension: each item with a model value and at least one human
 * value is a unit of two values, the model's and the human median; alpha is ordinal for scales and nominal
 * for binary dimensions, as for the agreement among the people.
 */
export function agreementWithHumans(model: ReadonlyMap<number, number>, humans: ReadonlyMap<number, readonly number[]>, metric: 'ordinal' | 'nominal'): ModelAgreement {
  const units: number[][] = [];
  for (const [itemId, value] of model) {
    const given = humans.get(itemId);
    if (given?.length) units.push([value, humanMedian(given)]);
  }
  const { alpha } = krippendorffAlpha(units, metric);
  return { alpha, units: units.length };
}

/**
 * Each model rater's results, kept apart from the human ones: per rated dimension the model's own summary and
 * its agreement with the human median. `humanRatings` are the ones the human figures count (a participant left
 * out for failed attention checks is left out here too).
 */
export function modelRaterResults(dimensions: Dimension[], raters: ModelRaterRow[], modelRatings: ModelRatingRow[], humanRatings: RatingRow[]): ModelRaterResult[] {
  const rated = ratedDimensions(dimensions);
  const humansByDimension = new Map(rated.map((d) => [d.key, new Map<number, number[]>()]));
  for (const r of humanRatings) {
    const byItem = humansByDimension.get(r.dimension);
    if (!byItem || r.value === null) continue;
    byItem.set(r.itemId, [...(byItem.get(r.itemId) ?? []), r.value]);
  }
  return raters.map((rater) => {
    const mine = modelRatings.filter((r) => r.model === rater.model);
    return {
      ...rater,
      ratings: mine.length,
      dimensions: rated.map((d) => dimensionResult(d, mine.filter((r) => r.dimension === d.key), humansByDimension.get(d.key)!)),
    };
  });
}

function dimensionResult(d: RatedDimension, rows: ModelRatingRow[], humans: ReadonlyMap<number, number[]>): ModelDimensionResult {
  return {
    key: d.key,
    label: d.label,
    kind: d.kind,
    points: points(d),
    summary: dimensionSummary(d, rows.map((r) => r.value)),
    agreementWithHumans: agreementWithHumans(new Map(rows.map((r) => [r.itemId, r.value])), humans, d.kind === 'binary' ? 'nominal' : 'ordinal'),
  };
}
