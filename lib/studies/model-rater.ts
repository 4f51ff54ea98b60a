import { z } from 'zod';
import { badRequest, conflict, notFound } from '../errors';
import { auditSql, inTransaction, type Database, type Queryable } from '../db/transaction';
import { LlmClient } from '../llm/client';
import { renderPrompt } from '../llm/prompts';
import type { LlmConfig, LlmEndpoint } from '../llm/types';
import type { Dimension } from './dimensions';
import { ratePromptVars, ratingResponseSchema } from './model-rater-prompt';
import { finishModelRater, itemsLeftToRate, saveItemOutcome, type ItemOutcome, type ItemToRateRow } from './model-rater-store';
import { ratedDimensions, type RatedDimension } from './results';

export const modelRaterInputSchema = z.object({
  /** A model on the configured LLM's base URL; the configured model (SKB_LLM_MODEL) when absent. */
  model: z.string().trim().min(1).max(200).optional(),
}).strict();
export type ModelRaterInput = z.infer<typeof modelRaterInputSchema>;

export interface ModelRaterOptions {
  config: LlmConfig;
  /** For tests: the HTTP client the LLM client uses. */
  fetch?: typeof fetch;
}

interface Run {
  promise: Promise<void>;
  /** Set by a cancel: no further item is started. */
  cancelled: boolean;
}

// The raters running in this process, on globalThis because Next.js may load this module once per route bundle.
const globalForRaters = globalThis as unknown as { __skbModelRaters?: Map<number, Run>; __skbModelRaterClaims?: Set<string> };
const running = (globalForRaters.__skbModelRaters ??= new Map());
/** Study and model of each run here, from before its row says RUNNING until it ends: two adds at once start one run. */
const claims = (globalForRaters.__skbModelRaterClaims ??= new Set());

/** Whether the rater is running in this process (a RUNNING row that is not was stopped by a restart). */
export const ratesHere = (raterId: number): boolean => running.has(raterId);

/** The run of a rater started here, to wait for (tests); resolved at once when none runs. */
export const modelRaterRun = (raterId: number): Promise<void> => running.get(raterId)?.promise ?? Promise.resolve();

interface StudyToRate {
  id: number;
  kbId: number;
  instructions: string;
  showAnswers: boolean;
  dimensions: Dimension[];
}

/**
 * Adds a model rater to the study, or resumes it (the same model again): it rates in the background every
 * item it has not rated yet, attention checks aside, and records progress on its row. Refused without a
 * configured LLM, for a study with nothing but free-text dimensions, and while the same model is rating here.
 */
export async function startModelRater(db: Database, studyId: number, input: ModelRaterInput, userId: number | null, opts: ModelRaterOptions): Promise<{ id: number }> {
  const main = opts.config.main;
  if (!main) throw badRequest('No LLM is configured: set SKB_LLM_BASE_URL and SKB_LLM_MODEL to add a model rater');
  const endpoint: LlmEndpoint = { ...main, model: input.model ?? main.model };
  const { rows: [study] } = await db.query<StudyToRate>(
    'SELECT id, kb_id AS "kbId", instructions, show_answers AS "showAnswers", dimensions FROM study WHERE id = $1', [studyId]);
  if (!study) throw notFound(`No study ${studyId}`);
  const dimensions = ratedDimensions(study.dimensions);
  if (!dimensions.length) throw badRequest('This study has only free-text dimensions: a model has nothing to rate');

  const claim = `${studyId}\u0000${endpoint.model}`;
  if (claims.has(claim)) throw conflict(`${endpoint.model} is already rating this study`);
  claims.add(claim);
  const raterId = await inTransaction(db, async (client) => {
    const { rows: [existing] } = await client.query<{ id: number }>('SELECT id FROM study_model_rater WHERE study_id = $1 AND model = $2', [studyId, endpoint.model]);
    const { rows: [row] } = await client.query<{ id: number }>(
      `INSERT INTO study_model_rater (study_id, model, base_url_host, status, done, total, created_by)
       SELECT $1, $2, $3, 'RUNNING', count(*) FILTER (WHERE EXISTS (
                SELECT 1 FROM study_model_rating r WHERE r.study_id = $1 AND r.item_id = i.id AND r.model = $2 AND r.value IS NOT NULL)),
              count(*), $4
         FROM study_item i WHERE i.study_id = $1 AND i.attention IS NULL
       ON CONFLICT (study_id, model) DO UPDATE SET status = 'RUNNING', base_url_host = EXCLUDED.base_url_host, done = EXCLUDED.done,
              total = EXCLUDED.total, failures = 0, message = NULL, finished_at = NULL
       RETURNING id`, [studyId, endpoint.model, new URL(endpoint.baseUrl).host, userId]);
    await auditSql(client, { userId, action: 'study.model-rater', targetType: 'study', targetId: studyId, kbId: study.kbId, details: { model: endpoint.model, resumed: !!existing } });
    return row!.id;
  }).catch((err: unknown) => {
    claims.delete(claim);
    throw err;
  });

  const client = new LlmClient(db, opts.config, { fetch: opts.fetch });
  const run: Run = { promise: Promise.resolve(), cancelled: false };
  run.promise = rateItems(db, client, { id: raterId, studyId, model: endpoint.model }, study, dimensions, endpoint, opts.config.concurrency, run)
    .catch(async (err: Error) => {
      console.warn(`Model rater ${raterId} (study ${studyId}, ${endpoint.model}): ${err.message}`);
      await finishModelRater(db, raterId, 'FAILED', `Stopped by an error: ${err.message}`).catch(() => undefined);
    })
    .finally(() => {
      running.delete(raterId);
      claims.delete(claim);
    });
  running.set(raterId, run);
  return { id: raterId };
}

const CANCELLED = 'Cancelled; add the model again to resume';

/**
 * Cancels a model's rating: a run here starts no further item and ends CANCELLED once the requests in flight
 * are answered (their ratings are kept); a run a restart stopped ends at once. 409 unless the model is rating.
 */
export async function cancelModelRater(db: Queryable, studyId: number, model: string, userId: number | null): Promise<{ id: number }> {
  const { rows: [rater] } = await db.query<{ id: number; status: string; kbId: number }>(
    'SELECT m.id, m.status, s.kb_id AS "kbId" FROM study_model_rater m JOIN study s ON s.id = m.study_id WHERE m.study_id = $1 AND m.model = $2', [studyId, model]);
  if (!rater) throw notFound(`No model rater "${model}" in this study`);
  if (rater.status !== 'RUNNING') throw conflict(`${model} is not rating this study (${rater.status.toLowerCase()})`);
  const run = running.get(rater.id);
  if (run) run.cancelled = true;
  else await finishModelRater(db, rater.id, 'CANCELLED', CANCELLED);
  await auditSql(db, { userId, action: 'study.model-rater.cancel', targetType: 'study', targetId: studyId, kbId: rater.kbId, details: { model } });
  return { id: rater.id };
}

/** Rates the items left with as many requests in flight as the LLM client allows, then closes the run. */
async function rateItems(db: Database, client: LlmClient, rater: { id: number; studyId: number; model: string }, study: StudyToRate,
  dimensions: RatedDimension[], endpoint: LlmEndpoint, concurrency: number, run: Run): Promise<void> {
  const items = await itemsLeftToRate(db, study.id, rater.model);
  const schema = ratingResponseSchema(dimensions);
  const keys = dimensions.map((d) => d.key);
  let next = 0;
  let rated = 0;
  const worker = async () => {
    for (let item = items[next++]; item && !run.cancelled; item = items[next++]) {
      const outcome = await rateItem(client, study, dimensions, schema, endpoint, item);
      if (outcome.ok) rated++;
      await saveItemOutcome(db, rater, item.id, keys, outcome);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, worker));
  if (run.cancelled) {
    await finishModelRater(db, rater.id, 'CANCELLED', CANCELLED);
    return;
  }
  const failed = items.length - rated;
  if (items.length && !rated) {
    await finishModelRater(db, rater.id, 'FAILED', `No item could be rated (${failed} failed); see the failures in the model ratings download`);
  } else {
    await finishModelRater(db, rater.id, 'SUCCEEDED', failed ? `${failed} item${failed === 1 ? '' : 's'} could not be rated; add the model again to retry ${failed === 1 ? 'it' : 'them'}` : null);
  }
}

async function rateItem(client: LlmClient, study: StudyToRate, dimensions: RatedDimension[], schema: ReturnType<typeof ratingResponseSchema>,
  endpoint: LlmEndpoint, item: ItemToRateRow): Promise<ItemOutcome> {
  const result = await client.call({
    endpoint,
    prompt: renderPrompt('study.rate', ratePromptVars(study, dimensions, item)),
    schema,
    context: { kbId: study.kbId, studyId: study.id, purpose: 'rate', itemKey: `item ${item.id}` },
    temperature: 0,
  });
  if (!result.ok) return { ok: false, failure: `${result.reason}: ${result.message}`, callId: result.callId };
  return { ok: true, values: result.value.ratings, reason: result.value.reason, callId: result.callId };
}
