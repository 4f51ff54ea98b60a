// Study load benchmark: 100 anonymous participants at once join a rating study by its link and rate every
// item on every dimension through the production app's HTTP API, with no sign-in; some answers are sent twice
// at once and some changed later. The database must hold every acknowledged answer exactly once, with its last
// value, and the items shared out with exactly the study's overlap.
//
//   npx next build && npx tsx scripts/bench/study-load.mts [--server URL] [--database skb_bench_studies]
//     [--participants 100] [--items 20] [--think-ms 1000] [--doubles 0.05] [--changes 0.05] [--seed 20261123] [--port N]
//     [--workers N]
//
// --workers is `skb serve --workers` (app processes; its default, one per core, unless given).
// --items is each participant's number of items; the overlap (participants per item) follows from it and the
// 40 demo queries. --think-ms is a participant's mean pause before each request (reading the query, choosing a
// point), jittered ±50% with the seed; 0 sends them back to back, which measures how much the app serves.
//
// The database is dropped and made anew on every run, and dropped at the end when every invariant held.
// Exits non-zero when one failed; a save latency over the budget is reported, not a failure.
import { parseArgs } from 'node:util';
import cliProgress from 'cli-progress';
import { closeDb, db, pool } from '../../lib/db/client';
import { appProcesses, cpuMeter, describeMachine, finishRun, requireProductionBuild, scratchDatabase, startApp, type AppServer } from './app-server';
import { httpStudyClient } from './study-load-clients';
import {
  failedInvariants, plannedRequests, prepareLoadStudy, reportTables, runStudyLoad, SAVE_BUDGET_MS, saveP95, verifyStudyLoad, type StudyLoadPlan,
} from './study-load-run';

const { values } = parseArgs({
  options: {
    server: { type: 'string', default: process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres' },
    database: { type: 'string', default: 'skb_bench_studies' },
    participants: { type: 'string', default: '100' },
    items: { type: 'string', default: '20' },
    'think-ms': { type: 'string', default: '1000' },
    doubles: { type: 'string', default: '0.05' },
    changes: { type: 'string', default: '0.05' },
    seed: { type: 'string', default: '20261123' },
    port: { type: 'string' },
    workers: { type: 'string' },
  },
});
const participants = Number(values.participants);
const plan: StudyLoadPlan = { thinkMs: Number(values['think-ms']), doubleShare: Number(values.doubles), changeShare: Number(values.changes), seed: Number(values.seed) };
requireProductionBuild();

console.log(`Creating ${values.database} with the demo data and an open study ...`);
const scratch = await scratchDatabase(values.server!, values.database!);
const study = await prepareLoadStudy(pool(), db(), { participants, itemsPerParticipant: Number(values.items) });
console.log(`Study ${study.studyId}: ${study.items} items, ${study.itemsPerParticipant} per participant, ${study.participantsPerItem} participants per item, ` +
  `${study.dimensions.length} dimensions, consent required.`);

let app: AppServer | undefined;
let failed: string[];
try {
  // Every participant joins from this machine's address at once: lift the study link's join limits, which
  // exist to stop exactly such a burst from one place.
  process.env.SKB_STUDY_JOINS_PER_ADDRESS ??= String(participants);
  process.env.SKB_STUDY_JOINS_PER_LINK ??= String(participants);
  app = await startApp(scratch.url, values.port ? Number(values.port) : undefined, values.workers ? Number(values.workers) : undefined);
  console.log(`App up at ${app.baseUrl} (${appProcesses(app)}); ${participants} participants join at once ...`);
  const bar = new cliProgress.SingleBar({
    format: 'load [{bar}] {value}/{total} requests | {rate} req/s', stream: process.stderr,
  }, cliProgress.Presets.shades_classic);
  const planned = plannedRequests(study, plan);
  bar.start(planned, 0, { rate: 0 });
  const cpu = cpuMeter(app);
  const started = performance.now();
  let answered = 0;
  const result = await runStudyLoad(study, httpStudyClient(app.baseUrl), plan, () => {
    answered += 1;
    bar.update(answered, { rate: Math.round(answered / Math.max(0.001, (performance.now() - started) / 1000)) });
  });
  cpu.stop();
  bar.stop();
  const verification = await verifyStudyLoad(pool(), study, result.ledger);
  failed = failedInvariants(study, result, verification);

  console.log(`\nMachine: ${await describeMachine(pool())}; ${new Date().toISOString().slice(0, 10)}`);
  console.log(`${cpu.report(result.loadMs / 1000)}\n`);
  console.log(reportTables(study, plan, result, verification));
  const p95 = saveP95(result);
  console.log(`\np95 save < ${SAVE_BUDGET_MS} ms: ${p95 < SAVE_BUDGET_MS ? 'met' : 'missed'} (${p95.toFixed(1)} ms)`);
} catch (err) {
  console.error(`\n${(err as Error).message}`);
  failed = ['the run did not complete'];
} finally {
  await app?.stop();
  await closeDb();
}

await finishRun(failed, app, scratch, values.database!, 'All invariants held: every acknowledged answer stored once with its last value, nothing else; every item rated by exactly its overlap.');
