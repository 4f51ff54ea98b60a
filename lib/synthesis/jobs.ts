import { conflict } from '../errors';
import type { Database } from '../db/transaction';
import { ownerGone, thisProcess } from '../ingest/owner';
import { ABANDONED_AFTER_MINUTES } from '../ingest/recovery';
import { metapathSchema } from '../kb/metapath';
import { llmConfig } from '../llm/config';
import type { LlmConfig } from '../llm/types';
import { planCandidates } from './candidates';
import {
  addLlmUse, claimJob, createJob, finishJob, finishedPositions, getJob, jobRow, requestCancel, runningJobIds, touchHeartbeat, writeItem,
  type JobRow, type JobView, type LlmDelta,
} from './job-store';
import { itemOptions, llmEndpoints, resolveLlm, resolveTemplates, type JobSpec } from './spec';
import { synthesizeItem } from './synthesize-item';
import { templatesByKey } from './templates';
import type { Candidate } from './types';

/** A job stops when it has attempted this many positions per query asked, kept or not. */
export const ATTEMPTS_PER_QUERY = 20;
/** Items in flight at once on the deterministic pipeline (it is database-bound). */
const DETERMINISTIC_CONCURRENCY = 2;
/** Candidates planned at once. */
const PLAN_BATCH = 50;
const HEARTBEAT_MS = 30_000;

// The jobs this process runs, on globalThis because Next.js may load this module once per route bundle.
const globalForJobs = globalThis as unknown as { __skbSynthesisHere?: Set<number> };
const jobsHere = (globalForJobs.__skbSynthesisHere ??= new Set<number>());

export interface Progress {
  done: number;
  total: number;
  attempted: number;
}

export interface RunOptions {
  onProgress?: (p: Progress) => void;
  /** The LLM configuration; the environment's by default. */
  llm?: LlmConfig;
}

/**
 * Checks the request (templates, LLM, query set) and creates the job, owned by this process, which must then
 * run it with `runSynthesisJob`. Bad templates and sets are 400s naming them.
 */
export async function startSynthesisJob(db: Database, kbId: number, spec: JobSpec, userId: number | null, config: LlmConfig = llmConfig()): Promise<number> {
  const llm = resolveLlm(spec, config);
  const templates = await resolveTemplates(db, kbId, spec.templates, spec.seed);
  const id = await createJob(db, { kbId, spec, templates: templates.map((t) => t.key), llm, userId, owner: thisProcess() });
  jobsHere.add(id);
  return id;
}

const summaryLine = (kept: number, total: number, attempted: number) => `kept ${kept} of ${total} queries after ${attempted} attempts`;

/**
 * Runs a job this process owns until `total` queries are kept, the attempt cap or the templates' seeds run out,
 * the token budget is used up, someone cancels, or an error; then records how it ended. Positions go in order,
 * several at once; each finished one is written with its query in one transaction, and positions already written
 * (a resumed job) are skipped. Never more queries than asked: a position starts only while the kept and the
 * in-flight ones together are fewer, so no LLM call is paid for a query that would be thrown away.
 */
export async function runSynthesisJob(db: Database, jobId: number, opts: RunOptions = {}): Promise<JobView> {
  jobsHere.add(jobId);
  const heartbeat = setInterval(() => void touchHeartbeat(db, jobId).catch((err: Error) => console.warn(`Synthesis job ${jobId} heartbeat: ${err.message}`)), HEARTBEAT_MS);
  heartbeat.unref();
  let job: JobRow | null = null;
  try {
    job = await jobRow(db, jobId, ABANDONED_AFTER_MINUTES);
    const end = await runItems(db, job, opts);
    await finishJob(db, jobId, end.status, end.message);
  } catch (err) {
    await finishJob(db, jobId, 'FAILED', `The job stopped on an error: ${(err as Error).message}`).catch(() => undefined);
  } finally {
    clearInterval(heartbeat);
    jobsHere.delete(jobId);
  }
  return getJob(db, job?.kbId ?? (await jobRow(db, jobId, ABANDONED_AFTER_MINUTES)).kbId, jobId);
}

async function runItems(db: Database, job: JobRow, opts: RunOptions): Promise<{ status: 'SUCCEEDED' | 'FAILED' | 'CANCELLED'; message: string | null }> {
  const { spec } = job;
  const templates = templatesByKey(await metapathSchema(db, job.kbId), job.templates);
  const config = opts.llm ?? llmConfig();
  const budget = spec.tokenBudget === undefined ? null : Math.max(0, spec.tokenBudget - job.tokensUsed);
  const { options, client } = itemOptions(db, spec, job.id, job.llm, config, budget ?? undefined);
  const budgetMessage = () => `Stopped at the token budget of ${spec.tokenBudget} tokens: ${summaryLine(kept, job.total, attempted)}.`;
  if (budget === 0) return { status: 'FAILED', message: budgetMessage() };

  const done = await finishedPositions(db, job.id);
  let kept = job.done;
  let attempted = done.size;
  const cap = ATTEMPTS_PER_QUERY * job.total;
  let next = 0;
  let exhausted = false;
  const queue: Candidate[] = [];
  let stop: 'cancel' | 'budget' | null = null;
  let failure: Error | null = null;
  let inFlight = 0;

  // Planning runs one batch at a time, whichever worker asks.
  let planning: Promise<unknown> = Promise.resolve();
  const plan = async (): Promise<Candidate | null> => {
    while (!queue.length) {
      if (next >= cap || exhausted) return null;
      const n = Math.min(PLAN_BATCH, cap - next);
      const planned = await planCandidates(db, job.kbId, templates, spec.seed, next, n);
      // Positions go round the templates, and a template that ran out of anchors stays out: when the batch's last
      // round of positions plans nothing, every template has run out.
      if (n >= templates.length && !planned.some((c) => c.position >= next + n - templates.length)) exhausted = true;
      next += n;
      queue.push(...planned.filter((c) => !done.has(c.position)));
    }
    return queue.shift()!;
  };
  const take = () => {
    const p = planning.then(plan);
    planning = p.catch(() => undefined);
    return p;
  };

  const used = { calls: 0, failures: 0, tokens: 0 };
  const llmDelta = (): LlmDelta => {
    if (!client) return { calls: 0, failures: 0, tokens: 0 };
    const delta = { calls: client.callCount - used.calls, failures: client.failureCount - used.failures, tokens: client.tokensUsed - used.tokens };
    used.calls = client.callCount;
    used.failures = client.failureCount;
    used.tokens = client.tokensUsed;
    return delta;
  };
  const overBudget = () => client !== null && budget !== null && client.tokensUsed >= budget;

  const worker = async () => {
    while (!stop && !failure && kept + inFlight < job.total) {
      inFlight++;
      try {
        const candidate = await take();
        if (!candidate) return;
        const outcome = await synthesizeItem(db, job.kbId, candidate, options);
        // An item the budget cut short is no outcome of its own: its position stays open.
        if (outcome.status === 'failed' && overBudget()) {
          stop = 'budget';
          await addLlmUse(db, job.id, llmDelta());
          return;
        }
        const { written, cancelRequested } = await writeItem(db, job, candidate.position, outcome, llmDelta());
        if (written) {
          attempted++;
          if (outcome.status === 'kept') kept++;
          opts.onProgress?.({ done: kept, total: job.total, attempted });
        }
        if (cancelRequested) stop = 'cancel';
        if (overBudget()) stop = 'budget';
      } catch (err) {
        failure ??= err as Error;
      } finally {
        inFlight--;
      }
    }
  };
  // With an LLM, as many items as the client has call slots: an item's filter calls go out together, which keeps
  // the slots busy (twice as many items measured no better, docs/benchmarks.md).
  const concurrency = client ? config.concurrency : DETERMINISTIC_CONCURRENCY;
  await Promise.all(Array.from({ length: concurrency }, worker));
  if (failure) throw failure;

  if (stop === 'cancel') return { status: 'CANCELLED', message: `Cancelled: ${summaryLine(kept, job.total, attempted)}.` };
  if (stop === 'budget') return { status: 'FAILED', message: budgetMessage() };
  if (kept >= job.total) return { status: 'SUCCEEDED', message: null };
  if (exhausted) return { status: 'SUCCEEDED', message: `The templates ran out of seeds: ${summaryLine(kept, job.total, attempted)}.` };
  return { status: 'SUCCEEDED', message: `Stopped at the attempt cap (${ATTEMPTS_PER_QUERY} positions per query asked, ${cap} in all): ${summaryLine(kept, job.total, attempted)}.` };
}

/** Whether a running job's process is gone (dead owner on this host, or a stale heartbeat from another). */
const abandoned = (job: JobRow) => job.status === 'RUNNING' && (ownerGone({ host: job.ownerHost, pid: job.ownerPid, start: job.ownerStart }, () => jobsHere.has(job.id)) ?? job.stale);

/**
 * Takes over a cancelled, failed or abandoned job of the knowledge base and marks it running again, owned by this
 * process, which must then run it. 409 for a job that is still running elsewhere or has succeeded.
 */
export async function claimForResume(db: Database, kbId: number, jobId: number, config: LlmConfig = llmConfig()): Promise<void> {
  await getJob(db, kbId, jobId);
  const job = await jobRow(db, jobId, ABANDONED_AFTER_MINUTES);
  if (job.status === 'SUCCEEDED') throw conflict(`Synthesis job ${jobId} has finished; nothing to resume`);
  if (job.llm) llmEndpoints(job.llm, config);
  if (job.status === 'RUNNING' && !abandoned(job)) throw conflict(`Synthesis job ${jobId} is running (pid ${job.ownerPid} on ${job.ownerHost})`);
  if (!(await claimJob(db, job, thisProcess()))) throw conflict(`Synthesis job ${jobId} was just taken over by another process`);
  jobsHere.add(jobId);
}

/**
 * Asks a running job to stop; one whose process is gone is marked cancelled at once, as nobody else would.
 * False when the job is not running.
 */
export async function cancelSynthesisJob(db: Database, kbId: number, jobId: number): Promise<boolean> {
  if (!(await requestCancel(db, kbId, jobId))) return false;
  const job = await jobRow(db, jobId, ABANDONED_AFTER_MINUTES);
  if (abandoned(job)) await finishJob(db, jobId, 'CANCELLED', `Cancelled after its process had stopped: ${summaryLine(job.done, job.total, job.attempted)}.`);
  return true;
}

/**
 * Resumes, in the background, every running job whose process is gone (killed, crashed, machine restarted); the
 * app server calls it at start. Each job is taken by one process only. Returns the jobs it took.
 */
export async function resumeAbandonedJobs(db: Database): Promise<number[]> {
  const taken: number[] = [];
  for (const id of await runningJobIds(db)) {
    const job = await jobRow(db, id, ABANDONED_AFTER_MINUTES);
    if (!abandoned(job) || !(await claimJob(db, job, thisProcess()))) continue;
    jobsHere.add(id);
    taken.push(id);
    void runSynthesisJob(db, id).catch((err: Error) => console.warn(`Synthesis job ${id}: ${err.message}`));
  }
  return taken;
}
