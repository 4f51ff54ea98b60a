import cliProgress from 'cli-progress';
import { pool } from '../../../lib/db/client';
import { kbIdBySlug } from '../../../lib/kb/access';
import { getJob, requestCancel, STAGES, type JobView } from '../../../lib/synthesis/job-store';
import { claimForResume, runSynthesisJob, startSynthesisJob } from '../../../lib/synthesis/jobs';
import { jobSpecSchema, type JobSpec } from '../../../lib/synthesis/spec';
import { listTemplates } from '../../../lib/synthesis/template-list';
import { withDatabase } from '../database';
import { report } from '../output';

export interface SynthesizeOptions {
  kb: string;
  set?: string;
  templates?: string;
  count?: number;
  seed?: number;
  llmFilterModels?: string;
  /** false with --no-llm; the server's default (an LLM when configured) otherwise. */
  llm?: boolean;
  maxAnswers?: number;
  minAnswers?: number;
  agreement?: 'all' | 'majority';
  tokenBudget?: number;
  resume?: number;
  listTemplates?: boolean;
  measure?: boolean;
  json?: boolean;
}

/** The request's fields as the options that set them, for messages. */
const FLAGS: Record<string, string> = {
  querySet: '--set', templates: '--templates', count: '--count', seed: '--seed', filterModels: '--llm-filter-models', useLlm: '--no-llm',
  maxAnswers: '--max-answers', minAnswers: '--min-answers', agreement: '--agreement', tokenBudget: '--token-budget',
};

/** `KEY[,KEY...]` or `all:MIN-MAX` (every template whose median answer-set size lies in MIN-MAX). */
function templatesOption(value: string): JobSpec['templates'] {
  const range = /^all:(\d+)-(\d+)$/.exec(value.trim());
  if (range) return { minAnswers: Number(range[1]), maxAnswers: Number(range[2]) };
  if (value.trim().startsWith('all')) throw new Error(`--templates: write "all:MIN-MAX", e.g. all:1-20 (got "${value}")`);
  return value.split(',').map((k) => k.trim()).filter(Boolean);
}

/** The API's checks on the request, reported with the options' names (e.g. "--count: count must be at least 1"). */
function jobSpec(opts: SynthesizeOptions): JobSpec {
  if (!opts.set || !opts.templates || opts.count === undefined) throw new Error('Give --set, --templates and --count (or --resume ID, or --list-templates)');
  const parsed = jobSpecSchema.safeParse({
    querySet: opts.set, templates: templatesOption(opts.templates), count: opts.count, seed: opts.seed,
    useLlm: opts.llm === false ? false : undefined,
    filterModels: opts.llmFilterModels?.split(',').map((m) => m.trim()).filter(Boolean),
    maxAnswers: opts.maxAnswers, minAnswers: opts.minAnswers, agreement: opts.agreement, tokenBudget: opts.tokenBudget,
  });
  if (!parsed.success) throw new Error(parsed.error.issues.map((i) => `${FLAGS[String(i.path[0])] ?? i.path.join('.')}: ${i.message}`).join('; '));
  return parsed.data;
}

function describe(job: JobView): string {
  const stages = (counts: Record<string, number>) => STAGES.map((s) => `${s} ${counts[s]}`).join(', ');
  const s = job.summary;
  return [
    `Synthesis job ${job.id} into query set ${job.querySet}: ${job.status}, kept ${job.done} of ${job.total} queries after ${job.attempted} attempts`,
    `  dropped: ${stages(s.dropped)}`,
    `  failed:  ${stages(s.failed)}`,
    job.llm ? `  LLM (${job.llm.models.join(', ')}): ${s.llmCalls} calls, ${s.llmFailures} failed, ${s.tokens} tokens` : '  deterministic pipeline, no LLM',
    ...(job.message ? [`  ${job.message}`] : []),
  ].join('\n');
}

/**
 * Runs a synthesis job in this process, in the foreground: a new one from the options, or `--resume ID`. Ctrl-C
 * asks the job to stop after the items in hand (it can be resumed). Exits 1 unless the job succeeded.
 */
export async function run(opts: SynthesizeOptions): Promise<void> {
  if (opts.listTemplates) return listAll(opts);
  const spec = opts.resume === undefined ? jobSpec(opts) : null;
  const bar = !opts.json && process.stderr.isTTY
    ? new cliProgress.SingleBar({ format: 'synthesis [{bar}] {value}/{total} queries kept | {attempted} attempted', stream: process.stderr }, cliProgress.Presets.shades_classic)
    : null;
  const job = await withDatabase(async () => {
    const kbId = await kbIdBySlug(pool(), opts.kb);
    let id: number;
    if (opts.resume !== undefined) {
      await claimForResume(pool(), kbId, opts.resume);
      id = opts.resume;
    } else {
      id = await startSynthesisJob(pool(), kbId, spec!, null);
    }
    const before = await getJob(pool(), kbId, id);
    const cancel = () => void requestCancel(pool(), kbId, id);
    process.once('SIGINT', cancel);
    bar?.start(before.total, before.done, { attempted: before.attempted });
    try {
      return await runSynthesisJob(pool(), id, { onProgress: (p) => bar?.update(p.done, { attempted: p.attempted }) });
    } finally {
      bar?.stop();
      process.off('SIGINT', cancel);
    }
  }, { quiet: opts.json });
  report(!!opts.json, job, () => describe(job));
  if (job.status !== 'SUCCEEDED') process.exitCode = 1;
}

/** `--list-templates`: every template of the knowledge base, with `--measure` its answer-set sizes on a seeded sample. */
async function listAll(opts: SynthesizeOptions): Promise<void> {
  const list = await withDatabase(async () => {
    const kbId = await kbIdBySlug(pool(), opts.kb);
    return listTemplates(pool(), kbId, { measure: !!opts.measure, limit: Number.MAX_SAFE_INTEGER, offset: 0, seed: opts.seed ?? 0 });
  }, { quiet: opts.json });
  report(!!opts.json, list, () => [
    `${list.total} templates of ${opts.kb}${opts.measure ? ' (answer-set sizes on a sample: median / mean / max, seeds with answers)' : ''}`,
    ...list.items.map((t) => `  ${t.key}${t.size ? `   ${t.size.median} / ${t.size.mean.toFixed(1)} / ${t.size.max}, ${t.size.nonEmpty} of ${t.size.sampled}` : ''}`),
  ].join('\n'));
}
