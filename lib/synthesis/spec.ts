import { z } from 'zod';
import { badRequest } from '../errors';
import type { Database, Queryable } from '../db/transaction';
import { metapathSchema } from '../kb/metapath';
import { LlmClient } from '../llm/client';
import { llmConfig } from '../llm/config';
import type { LlmConfig, LlmEndpoint } from '../llm/types';
import { setNameSchema } from '../queries/sets';
import { type ItemOptions } from './synthesize-item';
import { enumerateTemplates, measureTemplatesCached, templatesByKey } from './templates';
import type { SynthesisTemplate } from './types';

export const MAX_JOB_COUNT = 10_000;
export const MAX_PREVIEW_COUNT = 10;
const MAX_ANSWERS = 1000;
const sizeSchema = (name: string) => z.number().int(`${name} must be a whole number`).min(1, `${name} must be at least 1`).max(MAX_ANSWERS, `${name} must be at most ${MAX_ANSWERS}`);
const modelName = z.string().trim().min(1, 'a model name must not be empty').max(200, 'a model name has at most 200 characters');

const keysSchema = z.array(z.string().min(1, 'a template key must not be empty').max(1000, 'a template key has at most 1000 characters'))
  .min(1, 'give at least one template').max(1000, 'give at most 1000 templates');
const rangeSchema = z.object({ minAnswers: sizeSchema('minAnswers'), maxAnswers: sizeSchema('maxAnswers') }).strict()
  .refine((r) => r.minAnswers <= r.maxAnswers, 'minAnswers must not be above maxAnswers');

/**
 * Template keys as the templates route lists them, or "every template whose measured median size lies in a range";
 * told apart by the value's shape, so a problem is reported against the form that was meant.
 */
const templatesField = z.unknown().transform((value, ctx): z.output<typeof keysSchema> | z.output<typeof rangeSchema> => {
  if (!Array.isArray(value) && (value === null || typeof value !== 'object')) {
    ctx.addIssue({ code: 'custom', message: 'must be a list of template keys or {"minAnswers": n, "maxAnswers": n}' });
    return z.NEVER;
  }
  const parsed = (Array.isArray(value) ? keysSchema : rangeSchema).safeParse(value);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
  return z.NEVER;
});

const specFields = {
  templates: templatesField,
  seed: z.number().int('seed must be a whole number').min(0, 'seed must be at least 0').max(2_147_483_647, 'seed must be at most 2147483647').default(0),
  // Default: an LLM when one is configured (SKB_LLM_BASE_URL), the deterministic pipeline otherwise.
  useLlm: z.boolean().optional(),
  // Models on the configured endpoint that judge the filter (SKB_LLM_FILTER_MODELS when not given).
  filterModels: z.array(modelName).min(1, 'give at least one filter model').max(8, 'give at most 8 filter models').optional(),
  agreement: z.enum(['all', 'majority']).default('all'),
  maxAnswers: sizeSchema('maxAnswers').default(20),
  minAnswers: sizeSchema('minAnswers').default(1),
  tokenBudget: z.number().int('tokenBudget must be a whole number').min(1, 'tokenBudget must be at least 1').max(1e12, 'tokenBudget must be at most 10^12').optional(),
};
const answersInOrder = (s: { minAnswers: number; maxAnswers: number }) => s.minAnswers <= s.maxAnswers;
const ANSWERS_ORDER = { message: 'minAnswers must not be above maxAnswers', path: ['minAnswers'] };

/** What POST synthesis/jobs takes (and `skb synthesize`, through the same checks). */
export const jobSpecSchema = z.object({
  querySet: setNameSchema,
  count: z.number().int('count must be a whole number').min(1, 'count must be at least 1').max(MAX_JOB_COUNT, `count must be at most ${MAX_JOB_COUNT}`),
  ...specFields,
}).strict().refine(answersInOrder, ANSWERS_ORDER);
export type JobSpec = z.output<typeof jobSpecSchema>;

/** What POST synthesis/preview takes: a job's request without the set, a few items. */
export const previewSpecSchema = z.object({
  count: z.number().int('count must be a whole number').min(1, 'count must be at least 1').max(MAX_PREVIEW_COUNT, `count must be at most ${MAX_PREVIEW_COUNT}`).default(5),
  ...specFields,
}).strict().refine(answersInOrder, ANSWERS_ORDER);
export type PreviewSpec = z.output<typeof previewSpecSchema>;

/** Seeds measured per template when a job picks templates by their answer-set size. */
export const SIZE_SAMPLE = 5;
/**
 * Templates measured, at most, for a size range: the first in the enumeration's order (fewest steps first). Each
 * costs a few metapath evaluations, about a second at Prime size, where there are thousands of templates: measuring
 * all would keep a request waiting for most of an hour.
 */
export const RANGE_TEMPLATES = 60;

/** The models a job runs with: `model` extracts properties and writes the query, `filterModels` judge. */
export interface JobLlm {
  model: string;
  filterModels: string[];
}

/**
 * The templates a request names: its keys (400 naming every unknown one), or every template among the first
 * RANGE_TEMPLATES whose median answer-set size on a small seeded sample lies in the range (400 when none does).
 */
export async function resolveTemplates(db: Database, kbId: number, templates: JobSpec['templates'], seed: number): Promise<SynthesisTemplate[]> {
  const schema = await metapathSchema(db, kbId);
  if (Array.isArray(templates)) return templatesByKey(schema, templates);
  const all = enumerateTemplates(schema);
  const measured = all.slice(0, RANGE_TEMPLATES);
  const sizes = await measureTemplatesCached(db, kbId, measured, { sample: SIZE_SAMPLE, seed });
  const chosen = measured.filter((_t, i) => sizes[i]!.nonEmpty > 0 && sizes[i]!.median >= templates.minAnswers && sizes[i]!.median <= templates.maxAnswers);
  if (!chosen.length) {
    throw badRequest(`templates: no template of this knowledge base has a median answer-set size of ${templates.minAnswers}-${templates.maxAnswers} ` +
      `(the first ${Math.min(RANGE_TEMPLATES, all.length)} of ${all.length} templates, fewest steps first, measured on ${SIZE_SAMPLE} seeds each)`);
  }
  return chosen;
}

/** The models a request runs with, or null for the deterministic pipeline; 400 when it asks for an LLM there is none of. */
export function resolveLlm(spec: { useLlm?: boolean; filterModels?: string[] }, config: LlmConfig = llmConfig()): JobLlm | null {
  const useLlm = spec.useLlm ?? config.main !== null;
  if (!useLlm) {
    if (spec.filterModels) throw badRequest('filterModels: filter models need the LLM (useLlm is false)');
    return null;
  }
  if (!config.main) throw badRequest('useLlm: no LLM is configured on this server (set SKB_LLM_BASE_URL and SKB_LLM_MODEL), so only the deterministic pipeline can run');
  return { model: config.main.model, filterModels: spec.filterModels ?? config.filterModels.map((e) => e.model) };
}

/** The endpoints of a job's models: all on the configured base URL and key. */
export function llmEndpoints(llm: JobLlm, config: LlmConfig = llmConfig()): { main: LlmEndpoint; filters: LlmEndpoint[] } {
  if (!config.main) throw badRequest('This job uses an LLM, and none is configured on this server now (SKB_LLM_BASE_URL)');
  const at = (model: string): LlmEndpoint => ({ ...config.main!, model });
  return { main: at(llm.model), filters: llm.filterModels.map(at) };
}

/** Relational answer sets this large are dropped before any property is read: the filter would judge each one. */
const maxCandidatesFor = (maxAnswers: number) => Math.max(100, maxAnswers * 5);
/** Properties extracted per answer. */
const PROPERTY_COUNT = 3;

/** What each item of a job (or a preview, `jobId` null) runs with, and the LLM client it calls through, if any. */
export function itemOptions(db: Queryable, spec: Pick<JobSpec, 'minAnswers' | 'maxAnswers' | 'agreement'>, jobId: number | null, llm: JobLlm | null, config: LlmConfig, tokenBudget?: number): { options: ItemOptions; client: LlmClient | null } {
  const options: ItemOptions = {
    llm: null, jobId, minAnswers: spec.minAnswers, maxAnswers: spec.maxAnswers,
    maxCandidates: maxCandidatesFor(spec.maxAnswers), propertyCount: PROPERTY_COUNT, agreement: spec.agreement,
  };
  if (!llm) return { options, client: null };
  const { main, filters } = llmEndpoints(llm, config);
  const client = new LlmClient(db, config, tokenBudget === undefined ? {} : { tokenBudget });
  options.llm = { client, properties: main, compose: main, filters };
  return { options, client };
}
