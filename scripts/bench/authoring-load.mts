// Authoring load benchmark: 100 annotators at once claim seeds, autosave drafts and judge entities through
// the production app's HTTP API, then pairs of editors race on the same versions; the database must hold
// every acknowledged write exactly once.
//
//   npx next build && npx tsx scripts/bench/authoring-load.mts [--server URL] [--database skb_bench_authoring]
//     [--annotators 100] [--rounds 20] [--judgments 5] [--pairs 10] [--port N]
//
// The database is dropped and made anew on every run, and dropped at the end when every invariant held.
// Exits non-zero when one failed.
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import cliProgress from 'cli-progress';
import pg from 'pg';
import { closeDb, db, pool } from '../../lib/db/client';
import { migrate } from '../../lib/db/migrate';
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
    port: { type: 'string' },
  },
});
const annotators = Number(values.annotators);
const plan: LoadPlan = { rounds: Number(values.rounds), judgmentsPerRound: Number(values.judgments), contentionPairs: Number(values.pairs) };
const PASSWORD = 'authoring-load-password';
const root = path.resolve(import.meta.dirname, '..', '..');

if (!fs.existsSync(path.join(root, '.next', 'BUILD_ID'))) {
  console.error('No production build of the app: run `npx next build` first.');
  process.exit(2);
}

async function onServer(sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: values.server });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer().once('error', reject).listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** `skb serve` on the scratch database, in its own process group so that stopping it stops Next too. */
function startApp(port: number, databaseUrl: string): { child: ChildProcess; log: string[]; stop: () => Promise<void> } {
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [path.join(root, 'bin', 'skb.mjs'), 'serve', '--port', String(port)], {
    cwd: root,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, DATABASE_URL: databaseUrl, NEXTAUTH_URL: baseUrl, NEXTAUTH_SECRET: crypto.randomBytes(32).toString('base64url'), NEXT_TELEMETRY_DISABLED: '1' },
  });
  // The server's output is kept for a failure report, not shown over the progress bar.
  const log: string[] = [];
  const keep = (chunk: Buffer) => { log.push(...chunk.toString().split('\n').filter(Boolean)); log.splice(0, Math.max(0, log.length - 200)); };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const kill = (signal: NodeJS.Signals) => { try { process.kill(-child.pid!, signal); } catch { /* already gone */ } };
  process.once('exit', () => kill('SIGKILL'));
  return {
    child,
    log,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      kill('SIGTERM');
      const stopped = await Promise.race([exited.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 15_000))]);
      if (!stopped) kill('SIGKILL');
    },
  };
}

async function waitUntilUp(baseUrl: string, child: ChildProcess, log: string[]): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The app exited with code ${child.exitCode}:\n${log.slice(-30).join('\n')}`);
    const ok = await fetch(`${baseUrl}/api/auth/csrf`).then((r) => r.ok, () => false);
    if (ok) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`The app did not answer within 2 minutes:\n${log.slice(-30).join('\n')}`);
}

const url = new URL(values.server!);
url.pathname = `/${values.database}`;
const databaseUrl = url.toString();
console.log(`Creating ${values.database} with the demo data, ${annotators} annotators and a campaign ...`);
await onServer(`DROP DATABASE IF EXISTS ${values.database} WITH (FORCE)`);
await onServer(`CREATE DATABASE ${values.database}`);
await migrate(databaseUrl);
process.env.DATABASE_URL = databaseUrl;
const campaign = await prepareLoadCampaign(pool(), db(), { annotators, password: PASSWORD });
console.log(`Campaign ${campaign.campaignId}: ${campaign.seeds} seeds, k = 1, ${campaign.entityIds.length} entities to judge.`);

const port = values.port ? Number(values.port) : await freePort();
const baseUrl = `http://127.0.0.1:${port}`;
const app = startApp(port, databaseUrl);
let failed: string[];
try {
  await waitUntilUp(baseUrl, app.child, app.log);
  console.log(`App up at ${baseUrl}; signing ${annotators} annotators in ...`);
  const bar = new cliProgress.SingleBar({
    format: 'load [{bar}] {value}/{total} requests | {rate} req/s', stream: process.stderr,
  }, cliProgress.Presets.shades_classic);
  let started = 0;
  let answered = 0;
  const result = await runAuthoringLoad(campaign, (a) => httpClient(baseUrl, a.email, PASSWORD), plan, () => {
    if (answered++ === 0) {
      started = performance.now();
      bar.start(plannedRequests(annotators, plan), 0, { rate: 0 });
    }
    bar.update(answered, { rate: Math.round(answered / Math.max(0.001, (performance.now() - started) / 1000)) });
  });
  bar.stop();
  const verification = await verifyAuthoringLoad(pool(), campaign.campaignId, result.ledger);
  failed = failedInvariants(annotators, result, verification);

  const version = (await pool().query<{ server_version: string }>('SHOW server_version')).rows[0]!.server_version.split(' ')[0];
  const machine = `${os.cpus().length} cores (${os.cpus()[0]?.model.trim()}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, PostgreSQL ${version}, Node ${process.versions.node}`;
  console.log(`\nMachine: ${machine}; ${new Date().toISOString().slice(0, 10)}`);
  console.log(`Contention: ${result.pairsWithOneWinner} of ${result.contentionPairs} same-version races (draft and judgment) had exactly one winner.\n`);
  console.log(reportTables(annotators, plan, result, verification));
} catch (err) {
  console.error(`\n${(err as Error).message}`);
  failed = ['the run did not complete'];
} finally {
  await app.stop();
  await closeDb();
}

if (failed.length) {
  const serverErrors = app.log.filter((l) => /error/i.test(l)).slice(-20);
  console.error(`\nFAILED:\n${failed.map((f) => `  ${f}`).join('\n')}${serverErrors.length ? `\nApp log:\n${serverErrors.join('\n')}` : ''}`);
  console.error(`The database ${values.database} is kept for inspection.`);
  process.exitCode = 1;
} else {
  await onServer(`DROP DATABASE IF EXISTS ${values.database} WITH (FORCE)`);
  console.log('\nAll invariants held: every acknowledged write stored once, nothing else.');
}
