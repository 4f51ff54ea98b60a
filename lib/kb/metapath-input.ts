import { z } from 'zod';
import { idSchema } from '../input';
import { MAX_STEPS } from './metapath';

const name = z.string().trim().min(1, 'must not be empty').max(200);

/** A metapath as clients send it: a start (entity or type) and 1 to MAX_STEPS typed steps. */
export const metapathInputSchema = z.object({
  start: z.union([
    z.object({ entity: idSchema }).strict(),
    z.object({ type: name }).strict(),
  ], { error: 'must be { entity: id } or { type: name }' }),
  steps: z.array(z.object({ relation: name, direction: z.enum(['out', 'in']), targetType: name }).strict()).min(1).max(MAX_STEPS),
});

/** One metapath, or up to three meeting at one type. */
export const metapathsInputSchema = z.array(metapathInputSchema).min(1).max(3);
