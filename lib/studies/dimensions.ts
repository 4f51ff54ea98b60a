import { z } from 'zod';

/**
 * What participants rate each item on. A scale has integer points from `min` to `max` with an optional
 * label for each (anchors); binary is 0/1 (with labels for both); text is a free comment.
 */
const keySchema = z.string().regex(/^[a-z][a-z0-9_]{0,39}$/, 'a lower-case key: letters, digits and _, starting with a letter');

export const dimensionSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('scale'),
    key: keySchema,
    label: z.string().trim().min(1).max(100),
    question: z.string().max(1000).default(''),
    min: z.number().int().min(-10).max(10),
    max: z.number().int().min(-9).max(20),
    anchors: z.record(z.string().max(3), z.string().max(100)).default({}),
    required: z.boolean().default(true),
  }).strict().refine((d) => d.max > d.min && d.max - d.min <= 10, { message: 'max must be above min, with at most 11 points' })
    .refine((d) => Object.keys(d.anchors).every((k) => Number.isInteger(Number(k)) && Number(k) >= d.min && Number(k) <= d.max), { message: 'anchors label points of the scale' }),
  z.object({
    kind: z.literal('binary'),
    key: keySchema,
    label: z.string().trim().min(1).max(100),
    question: z.string().max(1000).default(''),
    anchors: z.record(z.string().max(3), z.string().max(100)).default({ 0: 'No', 1: 'Yes' }),
    required: z.boolean().default(true),
  }).strict(),
  z.object({
    kind: z.literal('text'),
    key: keySchema,
    label: z.string().trim().min(1).max(100),
    question: z.string().max(1000).default(''),
    required: z.boolean().default(false),
  }).strict(),
]);
export type Dimension = z.infer<typeof dimensionSchema>;

export const dimensionsSchema = z.array(dimensionSchema).min(1).max(20)
  .refine((ds) => new Set(ds.map((d) => d.key)).size === ds.length, { message: 'dimension keys must be unique' });

const FIVE_POINTS = { 1: 'Strongly disagree', 2: 'Disagree', 3: 'Neutral', 4: 'Agree', 5: 'Strongly agree' };

/** STaRK's three dimensions, on its 5-point scale (positive = 4-5, non-negative = 3-5). */
export const DEFAULT_DIMENSIONS: Dimension[] = [
  { kind: 'scale', key: 'naturalness', label: 'Naturalness', question: 'The query reads like something a real person would write or say.', min: 1, max: 5, anchors: FIVE_POINTS, required: true },
  { kind: 'scale', key: 'diversity', label: 'Diversity', question: 'The query differs from the others in what it asks and how it asks it.', min: 1, max: 5, anchors: FIVE_POINTS, required: true },
  { kind: 'scale', key: 'practicality', label: 'Practicality', question: 'The query is useful: someone would need this answer in practice.', min: 1, max: 5, anchors: FIVE_POINTS, required: true },
];

/** The points a participant can choose on a scale or binary dimension. */
export function points(d: Dimension): number[] {
  if (d.kind === 'text') return [];
  const [lo, hi] = d.kind === 'binary' ? [0, 1] : [d.min, d.max];
  return Array.from({ length: hi - lo + 1 }, (_, i) => lo + i);
}

/** Why a value does not fit the dimension, or null when it does. */
export function invalidAnswer(d: Dimension, answer: { value?: number | null; text?: string | null }): string | null {
  if (d.kind === 'text') {
    if (typeof answer.text !== 'string') return `${d.key}: a text answer is expected`;
    if (answer.text.length > 2000) return `${d.key}: at most 2,000 characters`;
    return null;
  }
  const allowed = points(d);
  if (typeof answer.value !== 'number' || !allowed.includes(answer.value)) {
    return `${d.key}: ${answer.value ?? 'nothing'} is not on the scale (${allowed[0]} to ${allowed[allowed.length - 1]})`;
  }
  return null;
}
