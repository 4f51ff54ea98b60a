// Explorer load benchmark: researchers browsing a knowledge base at once through the production app's HTTP API,
// signed in, back to back: BM25 searches (names, two words, 20-word questions) and entity pages. Read-only and
// CPU-bound in the app (the BM25 ranking runs in the app process), so it shows what `skb serve --workers` buys
// where the app, not PostgreSQL, is the limit. Run it with --workers 1, then 2, on an otherwise idle machine.
//
//   npx next build && npx tsx scripts/bench/explorer-load.mts [--workers N] [--clients 8] [--requests 3000]
//     [--shape prime|mag|amazon] [--scale 1] [--server URL] [--port N]
//
// The knowledge base is the explorer benchmark's (made on the first run, see explorer-data.ts); a signed-in
// rater account is added to its database once. Every answer must be a 200: any other status fails the run.
import { parseArgs } from 'node:util';
import cliProgress from 'cli-progress';
import { Role } from '../../lib/auth/roles';
import { createUser } from '../../lib/auth/users';
import { closeDb, db, pool } from '../../lib/db/client';
import { mulberry32 } from '../../lib/random';
import { appProcesses, cpuMeter, describeMachine, requireProductionBuild, startApp, type AppServer } from './app-server';
import { signIn } from './authoring-load-clients';
import { benchDataArgs, benchDataOptions, ensureBenchDatabase } from './explorer-data';
import { table, timingOf, type Timing } from './measure';
import { searchInputs } from './search-measures';

const { values } = parseArgs({
  options: {
    ...benchDataArgs,
    workers: { type: 'string' },
    clients: { type: 'string', default: '8' },
    requests: { type: 'string', default: '3000' },
    port: { type: 'string' },
  },
});
const clients = Number(values.clients);
const total = Number(values.requests);
if (!(clients >= 1 && total >= clients)) throw new Error('--clients: at least 1, and --requests at least as many');
requireProductionBuild();

const EMAIL = 'explorer-load@bench.local';
const PASSWORD = 'explorer-Load-2026!';
const { url, kbId, slug } = await ensureBenchDatabase(benchDataOptions(values));
process.env.DATABASE_URL = url;
await createUser(db(), { email: EMAIL, password: PASSWORD, role: Role.RATER, name: 'Explorer load' })
  .catch((err: { status?: number }) => { if (err.status !== 409) throw err; });

// The requests, in one deterministic order: a kind and its path.
const rng = mulberry32(20261207);
const inputs = await searchInputs(pool(), kbId, 300, rng);
const entities = (await pool().query<{ id: number }>('SELECT id FROM entity WHERE kb_id = $1 ORDER BY hashint4(id + 3) LIMIT 300', [kbId])).rows.map((r) => r.id);
const search = (q: string) => `/api/kbs/${slug}/search?${new URLSearchParams({ q, limit: '20' })}`;
const kinds = [
  { kind: 'BM25 search, names', paths: inputs.names.map(search) },
  { kind: 'BM25 search, two document words', paths: inputs.pairs.map(search) },
  { kind: 'BM25 search, questions of 20 words', paths: inputs.questions.map(search) },
  { kind: 'entity page', paths: entities.map((id) => `/api/kbs/${slug}/entities/${id}`) },
];
const plan = Array.from({ length: total }, (_, i) => {
  const { kind, paths } = kinds[i % kinds.length]!;
  return { kind, path: paths[Math.floor(i / kinds.length) % paths.length]! };
});

let app: AppServer | undefined;
let failed = false;
try {
  app = await startApp(url, values.port ? Number(values.port) : undefined, values.workers ? Number(values.workers) : undefined);
  await readAhead(app);
  const cookie = await signIn(app.baseUrl, EMAIL, PASSWORD);
  const get = async (path: string) => {
    const res = await fetch(`${app!.baseUrl}${path}`, { headers: { cookie } });
    await res.arrayBuffer();
    return res.status;
  };
  // Warm-up: each kind's first requests, as many at once as there are clients, so that every app process has
  // loaded its code and planned its statements.
  for (const { paths } of kinds) await Promise.all(paths.slice(0, clients).map(get));

  console.log(`App up at ${app.baseUrl} (${appProcesses(app)}); ${clients} clients send ${total.toLocaleString('en')} requests back to back ...`);
  const bar = new cliProgress.SingleBar({ format: 'load [{bar}] {value}/{total} requests | {rate} req/s', stream: process.stderr }, cliProgress.Presets.shades_classic);
  bar.start(total, 0, { rate: 0 });
  const ms = new Map<string, number[]>(kinds.map((k) => [k.kind, []]));
  const statuses = new Map<number, number>();
  const cpu = cpuMeter(app);
  const started = performance.now();
  let next = 0;
  let done = 0;
  await Promise.all(Array.from({ length: clients }, async () => {
    while (next < plan.length) {
      const { kind, path } = plan[next++]!;
      const t = performance.now();
      const status = await get(path).catch(() => 0);
      ms.get(kind)!.push(performance.now() - t);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      bar.update(++done, { rate: Math.round(done / ((performance.now() - started) / 1000)) });
    }
  }));
  const seconds = (performance.now() - started) / 1000;
  cpu.stop();
  bar.stop();

  console.log(`\nMachine: ${await describeMachine(pool())}; ${new Date().toISOString().slice(0, 10)}`);
  console.log(`${appProcesses(app)}, ${clients} clients: ${total.toLocaleString('en')} requests in ${seconds.toFixed(1)} s, ${(total / seconds).toFixed(0)} requests a second.`);
  console.log(cpu.report(seconds));
  console.log(`Answers: ${[...statuses].map(([s, n]) => `${n.toLocaleString('en')} × ${s || 'no answer'}`).join(', ')}\n`);
  const rows: Timing[] = [...ms].map(([kind, list]) => timingOf(kind, list));
  console.log(table(rows));
  failed = [...statuses.keys()].some((s) => s !== 200);
} catch (err) {
  console.error(`\n${(err as Error).message}`);
  failed = true;
} finally {
  await app?.stop();
  await closeDb();
}
if (failed) {
  console.error('FAILED: not every request was answered with 200.');
  process.exitCode = 1;
}

/** Waits until every app process that said it listens has read its search indexes ahead (as in graph-render). */
async function readAhead(server: AppServer): Promise<void> {
  const deadline = Date.now() + 20 * 60_000;
  const count = (re: RegExp) => server.log.filter((l) => re.test(l)).length;
  while (Date.now() < deadline) {
    const listening = count(/^Listening on /);
    if (listening > 0 && count(/^Search indexes read ahead by process /) >= listening) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('the app did not finish reading ahead within 20 minutes');
}
