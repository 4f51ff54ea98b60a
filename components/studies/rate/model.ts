import { points, type Dimension } from '@/lib/studies/dimensions';

/** One answer as the screen holds it: a point, or a comment for a text dimension. */
export interface Answer {
  value: number | null;
  text: string | null;
}

/** A dimension answered with a point: a scale or binary one. */
export type PointDimension = Exclude<Dimension, { kind: 'text' }>;
export const isPoint = (d: Dimension): d is PointDimension => d.kind !== 'text';

export const answerKey = (itemId: number, dimension: string) => `${itemId}:${dimension}`;

/** Whether every required dimension of the item has an answer (what the server counts as complete). */
export function isComplete(itemId: number, dimensions: Dimension[], answers: ReadonlyMap<string, Answer>): boolean {
  return dimensions.every((d) => !d.required || answers.has(answerKey(itemId, d.key)));
}

/** The first item without all its required answers, or -1 when all are complete. */
export function firstIncomplete(items: { itemId: number }[], dimensions: Dimension[], answers: ReadonlyMap<string, Answer>): number {
  return items.findIndex((i) => !isComplete(i.itemId, dimensions, answers));
}

/**
 * The number key for each point of a scale: the point itself when every point is a digit (1–5, 0–1, 0–9),
 * else the position (1–9, then 0 for the tenth); an eleventh point has no key.
 */
export function shortcutKeys(d: Dimension): Map<string, number> {
  const pts = points(d);
  if (pts.every((p) => p >= 0 && p <= 9)) return new Map(pts.map((p) => [String(p), p]));
  return new Map(pts.slice(0, 10).map((p, i) => [String((i + 1) % 10), p]));
}
