// Authoring load benchmark: 100 annotators at once claim seeds, autosave drafts and judge entities through
// the production app's HTTP API, then pairs of editors race on the same versions; the database must hold
// every acknowledged write exactly once.
//
//   npx next build && npx tsx scripts/bench/authoring-load.mts [--server URL] [--database skb_bench_authoring]
//     [--annotators 100] [--rounds 20] [--judgments 5] [--pairs 10] [--think-ms 0] [--port N] [--workers N]
//
// --workers is `skb serve --workers` (app processes; its default, one per core, unless given).
// --think-ms paces each annotator: a pause of that mean (±50%, seeded) before each save; 0 sends them back to
// back, which measures how many requests a second the app serves.
//
// The database is dropped and made anew on every run, and dropped at the end when every invariant held.
// Exits non-zero when one failed.
import os from 'node:os';
import { parseArgs } from 'node:util';
import cliProgress from 'cli-progress';
import { closeDb, db, pool } from '../../lib/db/client';
import { appCpuSeconds, appProcesses, describeMachine, finishRun, requireProductionBuild, scratchDatabase, startApp, type AppServer } from './app-server';
import { httpClient } from './authoring-load-clients';
import { failedInvariants, plannedRequests, prepareLoadCampaign, reportTables, runAuthoringLoad, verifyAuthoringLoad, type LoadPlan } from './authoring-load-run';

const { values } = parseArgs({
  options: {
    server: { type: 'string', default: process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres' },
    database: { type: 'string', default: 'skb_bench_authoring' },
    annotators: { type: 'string', default: '100' },
    rounds: { type: 'string', default: '20' },
    judgments: { type: 'string', default: '5' },
    pairs: { type: 'string', default: '10' },
    'think-ms': { type: 'string', default: '0' },
    port: { type: 'string' },
    workers: { type: 'string' },
  },
});
const annotators = Number(values.annotators);
const plan: LoadPlan = {
  rounds: Number(values.rounds), judgmentsPerRound: Number(values.judgments), contentionPairs: Number(values.pairs), thinkMs: Number(values['think-ms']),
};
const PASSWORD = 'authoring-load-password';
requireProductionBuild();

console.log(`Creating ${values.database} with the demo data, ${annotators} annotators and a campaign ...`);
const scratch = await scratchDatabase(values.server!, values.database!);
const campaign = await prepareLoadCampaign(pool(), db(), { annotators, password: PASSWORD });
console.log(`Campaign ${campaign.campaignId}: ${campaign.seeds} seeds, k = 1, ${campaign.entityIds.length} entities to judge.`);

let app: AppServer | undefined;
let failed: string[];
try {
  app = await startApp(scratch.url, values.port ? Number(values.port) : undefined, values.workers ? Number(values.workers) : undefined);
  const baseUrl = app.baseUrl;
  console.log(`App up at ${baseUrl} (${appProcesses(app)}); signing ${annotators} annotators in ...`);
  const bar = new cliProgress.SingleBar({
    format: 'load [{bar}] {value}/{total} requests | {rate} req/s', stream: process.stderr,
  }, cliProgress.Presets.shades_classic);
  let started = 0;
  let answered = 0;
  let loadBefore = 0;
  let cpuBefore: number | null = null;
  const result = await runAuthoringLoad(campaign, (a) => httpClient(baseUrl, a.email, PASSWORD), plan, () => {
    if (answered++ === 0) {
      started = performance.now();
      loadBefore = os.loadavg()[0]!;
      cpuBefore = appCpuSeconds(app!);
      bar.start(plannedRequests(annotators, plan), 0, { rate: 0 });
    }
    bar.update(answered, { rate: Math.round(answered / Math.max(0.001, (performance.now() - started) / 1000)) });
  });
  const appCpu = appCpuSeconds(app);
  const seconds = (performance.now() - started) / 1000;
  bar.stop();
  const verification = await verifyAuthoringLoad(pool(), campaign.campaignId, result.ledger);
  failed = failedInvariants(annotators, result, verification);

  console.log(`\nMachine: ${await describeMachine(pool())}; ${new Date().toISOString().slice(0, 10)}`);
  console.log(`CPU during the load: the app ${appCpu === null || cpuBefore === null ? 'unknown' : `${Math.round((100 * (appCpu - cpuBefore)) / seconds)}% of a core`}; ` +
    `load average (1 min, everything on the machine) ${loadBefore.toFixed(1)} before, ${os.loadavg()[0]!.toFixed(1)} after.`);
  console.log(`Contention: ${result.pairsWithOneWinner} of ${result.contentionPairs} same-version races (draft and judgment) had exactly one winner.\n`);
  console.log(reportTables(annotators, plan, result, verification));
} catch (err) {
  console.error(`\n${(err as Error).message}`);
  failed = ['the run did not complete'];
} finally {
  await app?.stop();
  await closeDb();
}

await finishRun(failed, app, scratch, values.database!, 'All invariants held: every acknowledged write stored once, nothing else.');
