import type { Database } from '../db/transaction';
import { llmConfig } from '../llm/config';
import type { LlmConfig } from '../llm/types';
import { planCandidates } from './candidates';
import { itemOptions, resolveLlm, resolveTemplates, type PreviewSpec } from './spec';
import { synthesizeItem } from './synthesize-item';
import type { ItemOutcome } from './types';

/**
 * The first `count` candidates a job with this request would attempt, through the whole pipeline, without
 * writing any query (the LLM calls are stored, with no job). What the curator looks at before a full run.
 */
export async function previewSynthesis(db: Database, kbId: number, spec: PreviewSpec, config: LlmConfig = llmConfig()): Promise<(ItemOutcome & { position: number })[]> {
  const llm = resolveLlm(spec, config);
  const templates = await resolveTemplates(db, kbId, spec.templates, spec.seed);
  const { options } = itemOptions(db, spec, null, llm, config, spec.tokenBudget);
  const candidates = await planCandidates(db, kbId, templates, spec.seed, 0, spec.count);
  // The LLM client holds its own concurrency limit; the deterministic items are few and quick.
  const outcomes = await Promise.all(candidates.map((c) => synthesizeItem(db, kbId, c, options)));
  return outcomes.map((o, i) => ({ ...o, position: candidates[i]!.position }));
}
