import { z } from 'zod';
import { points } from './dimensions';
import type { RatedDimension } from './results';

/** What a model rates an item from: the query, and its answers' names when the study shows them to people. */
export interface ItemToRate {
  text: string;
  answerNames: string[];
}

/**
 * The dimensions as the prompt states them: per dimension its key (the name the answer uses), label and
 * question, the points it takes and the label of each point that has one (the anchors people see).
 */
export function describeDimensions(dimensions: RatedDimension[]): string {
  return dimensions.map((d) => {
    const pts = points(d);
    const anchors = pts.filter((p) => d.anchors[p]).map((p) => `${p} = ${d.anchors[p]}`);
    return [
      `- "${d.key}" (${d.label})${d.question ? `: ${d.question}` : ''}`,
      `  An integer from ${pts[0]} to ${pts[pts.length - 1]}${anchors.length ? ` (${anchors.join('; ')})` : ''}.`,
    ].join('\n');
  }).join('\n');
}

/** The variables of the 'study.rate' prompt for one item. */
export function ratePromptVars(study: { instructions: string; showAnswers: boolean }, dimensions: RatedDimension[], item: ItemToRate): Record<string, string> {
  return {
    instructions: study.instructions,
    dimensions: describeDimensions(dimensions),
    query: item.text,
    answers: study.showAnswers && item.answerNames.length
      ? item.answerNames.map((name) => `- ${name}`).join('\n')
      : '(The answers are not shown in this study: rate the query on its own.)',
  };
}

const REASON_CHARS = 2000;

/**
 * What the model must answer: `{"ratings": {"<key>": <integer on the scale>, …}, "reason": "…"}`, with every
 * rated dimension present and on its scale; anything else is a failure of the item. Extra keys are ignored,
 * and the reason is kept to 2,000 characters.
 */
export function ratingResponseSchema(dimensions: RatedDimension[]) {
  const ratings = Object.fromEntries(dimensions.map((d) => {
    const pts = points(d);
    return [d.key, z.number().int().min(pts[0]!).max(pts[pts.length - 1]!)];
  }));
  return z.object({
    ratings: z.object(ratings),
    reason: z.string().optional().transform((s) => (s ?? '').slice(0, REASON_CHARS)),
  });
}
export type RatingResponse = z.infer<ReturnType<typeof ratingResponseSchema>>;
