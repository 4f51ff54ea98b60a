// Query-synthesis benchmark on the generated STaRK-Prime-sized knowledge base (130k entities) in a real PostgreSQL:
// the deterministic pipeline synthesizing 1,000 queries as a job, then the LLM path against a local chat-completions
// server that answers every request after a fixed delay, at two concurrency settings (queries and calls per minute,
// and how busy the configured concurrency is kept).
//
//   npx tsx scripts/bench/synthesis.mts [--server URL] [--database skb_bench_synthesis] [--edges 1000000] [--count 1000]
//                                       [--llm-count 30] [--delay 200] [--concurrency 4,8]
//
// The database is made on the first run (generate + import) and kept for later runs. The job's templates are every
// one-path template of 1 or 2 steps; the BM25 index the deterministic extractor reads is built first, and timed apart.
import os from 'node:os';
import { parseArgs } from 'node:util';
import cliProgress from 'cli-progress';
import { metapathSchema } from '../../lib/kb/metapath';
import { llmConfig } from '../../lib/llm/config';
import type { LlmConfig } from '../../lib/llm/types';
import { ensureIndex } from '../../lib/retrieval/bm25-index';
import type { JobView } from '../../lib/synthesis/job-store';
import { runSynthesisJob, startSynthesisJob } from '../../lib/synthesis/jobs';
import { jobSpecSchema } from '../../lib/synthesis/spec';
import { enumerateTemplates } from '../../lib/synthesis/templates';
import { startFakeChatServer } from '../../test/support/fake-chat-server';
import { plausibleReply } from '../../test/support/plausible-llm';
import { ensureBenchDatabase, appSessionPool } from './explorer-data';

const { values } = parseArgs({
  options: {
    server: { type: 'string', default: process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres' },
    database: { type: 'string', default: 'skb_bench_synthesis' },
    entities: { type: 'string', default: '130000' },
    edges: { type: 'string', default: '1000000' },
    count: { type: 'string', default: '1000' },
    'llm-count': { type: 'string', default: '30' },
    delay: { type: 'string', default: '200' },
    concurrency: { type: 'string', default: '4,8' },
  },
});

const { url, kbId } = await ensureBenchDatabase({ server: values.server!, database: values.database!, entities: Number(values.entities), edges: Number(values.edges) });
const pool = appSessionPool(url, 10);

// Earlier runs' sets and jobs go first, so each run starts from the same state.
await pool.query(`DELETE FROM query_set WHERE kb_id = $1 AND name LIKE 'bench-syn-%'`, [kbId]);
await pool.query(`DELETE FROM synthesis_job WHERE kb_id = $1 AND set_name LIKE 'bench-syn-%'`, [kbId]);

const templates = enumerateTemplates(await metapathSchema(pool, kbId), 2).filter((t) => t.branches.length === 1).map((t) => t.key);
console.log(`${templates.length} one-path templates of 1-2 steps`);

let started = performance.now();
await ensureIndex(pool, kbId, false);
console.log(`BM25 index ready in ${((performance.now() - started) / 1000).toFixed(1)} s (built on first use)`);

async function runJob(name: string, count: number, config: LlmConfig, useLlm: boolean): Promise<{ job: JobView; seconds: number }> {
  const spec = jobSpecSchema.parse({ querySet: name, templates, count, useLlm });
  const bar = process.stderr.isTTY ? new cliProgress.SingleBar({ format: `${name} [{bar}] {value}/{total} kept | {attempted} attempted`, stream: process.stderr }, cliProgress.Presets.shades_classic) : null;
  bar?.start(count, 0, { attempted: 0 });
  const t = performance.now();
  const id = await startSynthesisJob(pool, kbId, spec, null, config);
  const job = await runSynthesisJob(pool, id, { llm: config, onProgress: (p) => bar?.update(p.done, { attempted: p.attempted }) });
  bar?.stop();
  return { job, seconds: (performance.now() - t) / 1000 };
}

const stages = (counts: Record<string, number>) => Object.entries(counts).filter(([, n]) => n).map(([s, n]) => `${s} ${n}`).join(', ') || 'none';

const det = await runJob('bench-syn-deterministic', Number(values.count), llmConfig({}), false);
console.log(`\nDeterministic: ${det.job.status}, kept ${det.job.done} of ${det.job.total} after ${det.job.attempted} attempts in ${det.seconds.toFixed(1)} s ` +
  `(${(det.job.done / det.seconds * 60).toFixed(0)} queries/min, ${(det.job.attempted / det.seconds).toFixed(1)} attempts/s); dropped: ${stages(det.job.summary.dropped)}`);

const delay = Number(values.delay);
const rows: string[] = ['| concurrency | queries kept | attempts | LLM calls | seconds | queries/min | calls/s | mean in flight | most in flight |', '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |'];
for (const c of values.concurrency!.split(',').map(Number)) {
  const fake = await startFakeChatServer(({ messages }) => ({ ...plausibleReply(messages), delayMs: delay }));
  try {
    const config = llmConfig({ SKB_LLM_BASE_URL: fake.baseUrl, SKB_LLM_MODEL: 'bench-model', SKB_LLM_CONCURRENCY: String(c) });
    started = performance.now();
    const { job, seconds } = await runJob(`bench-syn-llm-c${c}`, Number(values['llm-count']), config, true);
    // Every request is held for the fixed delay: their total time over the wall time is the mean number in flight.
    const inFlight = (fake.requests.length * delay) / 1000 / seconds;
    rows.push(`| ${c} | ${job.done} | ${job.attempted} | ${fake.requests.length} | ${seconds.toFixed(1)} | ${(job.done / seconds * 60).toFixed(0)} | ${(fake.requests.length / seconds).toFixed(1)} | ${inFlight.toFixed(2)} | ${fake.maxInFlight} |`);
    console.log(`LLM at concurrency ${c}: ${job.status}, dropped: ${stages(job.summary.dropped)}, failed: ${stages(job.summary.failed)}`);
  } finally {
    await fake.close();
  }
}
console.log(`\nLLM path, every request answered after ${delay} ms:\n${rows.join('\n')}`);
console.log(`\nMachine: ${os.cpus().length} × ${os.cpus()[0]?.model}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GB; load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
await pool.end();
