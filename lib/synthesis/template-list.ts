import { z } from 'zod';
import type { Database } from '../db/transaction';
import { metapathSchema } from '../kb/metapath';
import { llmConfig } from '../llm/config';
import type { LlmConfig } from '../llm/types';
import { enumerateTemplates, MAX_TEMPLATE_STEPS, measureTemplatesCached } from './templates';
import type { SynthesisTemplate, TemplateSize } from './types';

const typeName = z.string().min(1, 'must not be empty').max(200, 'must be at most 200 characters');

/** GET synthesis/templates's query: filters, whether to measure the page's templates, and the page. */
export const templateListSchema = z.object({
  seedType: typeName.optional(),
  answerType: typeName.optional(),
  steps: z.coerce.number().int('must be a whole number').min(1, 'must be at least 1').max(MAX_TEMPLATE_STEPS, `must be at most ${MAX_TEMPLATE_STEPS}`).optional(),
  measure: z.enum(['0', '1', 'true', 'false'], { error: 'must be 1 or 0' }).transform((v) => v === '1' || v === 'true').default(false),
  // Measuring costs a few metapath evaluations per template: pages stay small.
  limit: z.coerce.number().int('must be a whole number').min(1, 'must be at least 1').max(100, 'must be at most 100').default(50),
  offset: z.coerce.number().int('must be a whole number').min(0, 'must be at least 0').max(1_000_000, 'must be at most 1000000').default(0),
  seed: z.coerce.number().int('must be a whole number').min(0, 'must be at least 0').max(2_147_483_647, 'must be at most 2147483647').default(0),
}).strict();
export type TemplateListQuery = z.output<typeof templateListSchema>;

/** Seeds measured per listed template. */
export const LIST_SAMPLE = 10;

export interface LlmStatus {
  configured: boolean;
  model: string | null;
  filterModels: string[];
}

export function llmStatus(config: LlmConfig = llmConfig()): LlmStatus {
  return { configured: config.main !== null, model: config.main?.model ?? null, filterModels: config.filterModels.map((e) => e.model) };
}

/** The knowledge base's templates that match the filters, a page of them, measured on a seeded sample when asked. */
export async function listTemplates(db: Database, kbId: number, q: TemplateListQuery): Promise<{ total: number; items: (SynthesisTemplate & { size?: TemplateSize })[] }> {
  const all = enumerateTemplates(await metapathSchema(db, kbId)).filter((t) =>
    (!q.seedType || t.branches.some((b) => b.startType === q.seedType))
    && (!q.answerType || t.answerType === q.answerType)
    && (q.steps === undefined || t.steps === q.steps));
  const page = all.slice(q.offset, q.offset + q.limit);
  if (!q.measure) return { total: all.length, items: page };
  const sizes = await measureTemplatesCached(db, kbId, page, { sample: LIST_SAMPLE, seed: q.seed });
  return { total: all.length, items: page.map((t, i) => ({ ...t, size: sizes[i]! })) };
}
