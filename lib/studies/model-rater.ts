import { z } from 'zod';
import { badRequest, conflict, notFound } from '../errors';
import { auditSql, inTransaction, type Database, type Queryable } from '../db/transaction';
import { ownerGone, thisProcess } from '../ingest/owner';
import { ABANDONED_AFTER_MINUTES } from '../ingest/recovery';
import { LlmClient } from '../llm/client';
import { renderPrompt } from '../llm/prompts';
import type { LlmConfig, LlmEndpoint } from '../llm/types';
import type { Dimension } from './dimensions';
import { ratePromptVars, ratingResponseSchema } from './model-rater-prompt';
import { finishModelRater, itemsLeftToRate, listModelRaters, saveItemOutcome, type ItemOutcome, type ItemToRateRow, type ModelRaterView } from './model-rater-store';
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
  /** Set by a cancel (here, or seen on the row after an item): no further item is started. */
  cancelled: boolean;
}

// The raters running in this process, on globalThis because Next.js may load this module once per route bundle.
// Which process runs a rater is on its row (owner_*): this map only lets a cancel here act at once, and tests wait.
const globalForRaters = globalThis as unknown as { __skbModelRaters?: Map<number, Run> };
const running = (globalForRaters.__skbModelRaters ??= new Map());

/** How often a running rater touches its heartbeat besides after every item (an LLM call may be slow). */
const HEARTBEAT_MS = 30_000;

interface RaterOwnerRow {
  id: number;
  status: string;
  host: string | null;
  pid: number | null;
  start: string | null;
  stale: boolean;
}
const OWNER_COLUMNS = `id, status, owner_host AS host, owner_pid AS pid, owner_start AS start,
  heartbeat_at < now() - make_interval(mins => ${ABANDONED_AFTER_MINUTES}) AS stale`;

/** A RUNNING rater whose process is gone: on this host as soon as it died, on another once its heartbeat is stale. */
const interrupted = (row: RaterOwnerRow) => row.status === 'RUNNING' && (ownerGone(row, () => running.has(row.id)) ?? row.stale);

/** The study's model raters, each saying whether it is a run its process left (killed or restarted) unfinished. */
export async function listModelRatersState(db: Queryable, studyId: number): Promise<(ModelRaterView & { interrupted: boolean })[]> {
  const [raters, owners] = await Promise.all([
    listModelRaters(db, studyId),
    db.query<RaterOwnerRow>(`SELECT ${OWNER_COLUMNS} FROM study_model_rater WHERE study_id = $1`, [studyId]),
  ]);
  const gone = new Set(owners.rows.filter(interrupted).map((r) => r.id));
  return raters.map((r) => ({ ...r, interrupted: gone.has(r.id) }));
}

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
 * Adds a model rater to the study, or resumes it (the same model again): it rates in the background, in this
 * process, every item it has not rated yet, attention checks aside, and records progress on its row. Refused
 * without a configured LLM, for a study with nothing but free-text dimensions, and while the same model is rating
 * in any live process (adds take turns on a lock per study, so two at once start one run).
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

  const owner = thisProcess();
  const raterId = await inTransaction(db, async (client) => {
    await client.query(`SELECT pg_advisory_xact_lock(hashtext('study_model_rater'), $1)`, [studyId]);
    const { rows: [existing] } = await client.query<RaterOwnerRow>(
      `SELECT ${OWNER_COLUMNS} FROM study_model_rater WHERE study_id = $1 AND model = $2`, [studyId, endpoint.model]);
    if (existing?.status === 'RUNNING' && !interrupted(existing)) throw conflict(`${endpoint.model} is already rating this study`);
    const { rows: [row] } = await client.query<{ id: number }>(
      `INSERT INTO study_model_rater (study_id, model, base_url_host, status, done, total, created_by, owner_host, owner_pid, owner_start)
       SELECT $1, $2, $3, 'RUNNING', count(*) FILTER (WHERE EXISTS (
                SELECT 1 FROM study_model_rating r WHERE r.study_id = $1 AND r.item_id = i.id AND r.model = $2 AND r.value IS NOT NULL)),
              count(*), $4, $5, $6, $7
         FROM study_item i WHERE i.study_id = $1 AND i.attention IS NULL
       ON CONFLICT (study_id, model) DO UPDATE SET status = 'RUNNING', base_url_host = EXCLUDED.base_url_host, done = EXCLUDED.done,
              total = EXCLUDED.total, failures = 0, message = NULL, finished_at = NULL, cancel_requested = false,
              owner_host = EXCLUDED.owner_host, owner_pid = EXCLUDED.owner_pid, owner_start = EXCLUDED.owner_start, heartbeat_at = now()
       RETURNING id`, [studyId, endpoint.model, new URL(endpoint.baseUrl).host, userId, owner.host, owner.pid, owner.start]);
    await auditSql(client, { userId, action: 'study.model-rater', targetType: 'study', targetId: studyId, kbId: study.kbId, details: { model: endpoint.model, resumed: !!existing } });
    return row!.id;
  });

  const client = new LlmClient(db, opts.config, { fetch: opts.fetch });
  const run: Run = { promise: Promise.resolve(), cancelled: false };
  const heartbeat = setInterval(() => {
    db.query('UPDATE study_model_rater SET heartbeat_at = now() WHERE id = $1', [raterId]).catch((err: Error) => console.warn(`Model rater ${raterId} heartbeat: ${err.message}`));
  }, HEARTBEAT_MS);
  heartbeat.unref();
  run.promise = rateItems(db, client, { id: raterId, studyId, model: endpoint.model }, study, dimensions, endpoint, opts.config.concurrency, run)
    .catch(async (err: Error) => {
      console.warn(`Model rater ${raterId} (study ${studyId}, ${endpoint.model}): ${err.message}`);
      await finishModelRater(db, raterId, 'FAILED', `Stopped by an error: ${err.message}`).catch(() => undefined);
    })
    .finally(() => {
      clearInterval(heartbeat);
      running.delete(raterId);
    });
  running.set(raterId, run);
  return { id: raterId };
}

const CANCELLED = 'Cancelled; add the model again to resume';

/**
 * Cancels a model's rating: the run, in whichever app process, starts no further item and ends CANCELLED once
 * the requests in flight are answered (their ratings are kept); a run whose process is gone ends at once. 409
 * unless the model is rating.
 */
export async function cancelModelRater(db: Queryable, studyId: number, model: string, userId: number | null): Promise<{ id: number }> {
  const { rows: [rater] } = await db.query<RaterOwnerRow & { kbId: number }>(
    `UPDATE study_model_rater m SET cancel_requested = (m.status = 'RUNNING') FROM study s
      WHERE s.id = m.study_id AND m.study_id = $1 AND m.model = $2
      RETURNING m.id, m.status, m.owner_host AS host, m.owner_pid AS pid, m.owner_start AS start,
                m.heartbeat_at < now() - make_interval(mins => ${ABANDONED_AFTER_MINUTES}) AS stale, s.kb_id AS "kbId"`, [studyId, model]);
  if (!rater) throw notFound(`No model rater "${model}" in this study`);
  if (rater.status !== 'RUNNING') throw conflict(`${model} is not rating this study (${rater.status.toLowerCase()})`);
  const run = running.get(rater.id);
  if (run) run.cancelled = true;
  else if (interrupted(rater)) await finishModelRater(db, rater.id, 'CANCELLED', CANCELLED);
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
      const { cancelRequested } = await saveItemOutcome(db, rater, item.id, keys, outcome);
      if (cancelRequested) run.cancelled = true;
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
