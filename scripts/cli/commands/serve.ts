import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { closeDb, db, pool } from '../../../lib/db/client';
import { openEmbedded, type EmbeddedDatabase } from '../../../lib/db/embedded';
import { migrate } from '../../../lib/db/migrate';
import { dataDir, projectRoot } from '../../../lib/db/paths';
import { seedDemo } from '../../../lib/demo/seed';
import { recoverAbandonedImports } from '../../../lib/ingest/recovery';
import { removeAbandonedBuilds } from '../../../lib/retrieval/bm25-index';
import { trustedProxyCount } from '../../../lib/http/client-address';
import { startCluster } from '../../../lib/server/cluster';
import { watchStopSignals, type StopSignals } from '../../../lib/server/stop-signals';
import { workerCount } from '../../../lib/server/workers';

export interface ServeOptions {
  port: number;
  host: string;
  dev: boolean;
  demo?: boolean;
  /** `--workers` as given; see `workerCount` for the default. */
  workers?: string;
}

const nextBin = () => path.join(projectRoot(), 'node_modules', 'next', 'dist', 'bin', 'next');

/**
 * Starts the app: the database (DATABASE_URL, or the embedded one owned by this process), migrations,
 * recovery of interrupted imports and index builds and the demo when on the embedded database, all once
 * here; then `--workers` app HTTP servers (scripts/app-server.ts, Next.js in production or development
 * mode) as worker processes sharing the port, each replaced should it die. SIGINT or SIGTERM stops it all, at any
 * time: during startup after the step under way (a build under way is stopped), then the app processes.
 */
export async function run(opts: ServeOptions): Promise<void> {
  trustedProxyCount(process.env.SKB_TRUSTED_PROXIES); // a bad value stops here, before any work
  const embeddedDatabase = !process.env.DATABASE_URL;
  const workers = workerCount({ option: opts.workers, env: process.env.SKB_WORKERS, embedded: embeddedDatabase, dev: opts.dev });
  const signals = watchStopSignals();
  const stopIfAsked = () => {
    if (signals.received) throw new StopRequested(signals.received);
  };
  if (!opts.dev && !fs.existsSync(path.join(projectRoot(), '.next', 'BUILD_ID'))) {
    console.log('No production build yet: building the app (about a minute, once)...');
    try {
      await runProcess(process.execPath, [nextBin(), 'build'], signals);
    } catch (err) {
      signals.dispose();
      if (err instanceof StopRequested) return console.log(`Stopped by ${err.signal} while building`);
      throw err;
    }
  }

  let embedded: EmbeddedDatabase | undefined;
  if (embeddedDatabase) {
    embedded = await openEmbedded({ owner: 'server', port: optionalPort(process.env.SKB_DB_PORT), log: console.log });
    process.env.DATABASE_URL = embedded.url;
    console.log(`Embedded database (PGlite) in ${path.join(dataDir(), 'pglite')}`);
  }
  const stopDatabase = async () => {
    await closeDb().catch(() => {});
    await embedded?.stop().catch(() => {});
  };

  try {
    stopIfAsked();
    const migrations = await migrate(process.env.DATABASE_URL!);
    if (migrations.applied.length) console.log(`Applied migrations: ${migrations.applied.join(', ')}`);
    for (const id of await recoverAbandonedImports(pool())) console.log(`Import job ${id} was interrupted when the app last stopped; cleaned up`);
    const builds = await removeAbandonedBuilds(pool());
    if (builds) console.log(`${builds} search index build(s) were interrupted when the app last stopped; cleaned up`);
    const credentials = (opts.demo ?? !!embedded) ? await loadDemo() : [];
    await closeDb();
    stopIfAsked();

    const url = `http://${opts.host === '0.0.0.0' ? 'localhost' : opts.host}:${opts.port}`;
    const serverArgs = ['--port', String(opts.port), '--host', opts.host, '--dir', projectRoot(), ...(opts.dev ? ['--dev'] : [])];
    const app = startCluster({
      workers,
      exec: path.join(projectRoot(), 'scripts', 'app-server.ts'),
      args: serverArgs,
      execArgv: ['--import', 'tsx'],
      cwd: projectRoot(),
      env: {
        // Absolute, so that every process finds the same uploads and data folder whatever its working directory.
        SKB_DATA_DIR: dataDir(),
        NODE_ENV: opts.dev ? 'development' : 'production',
        NEXTAUTH_URL: process.env.NEXTAUTH_URL ?? url,
        NEXTAUTH_SECRET: authSecret(),
      },
    });
    announce(url, credentials, workers);
    signals.onStop((signal) => app.stop(signal));
    const code = await app.done;
    await stopDatabase();
    process.exitCode = code;
  } catch (err) {
    await stopDatabase();
    if (err instanceof StopRequested) {
      console.log(`Stopped by ${err.signal} while starting`);
      return;
    }
    throw err;
  } finally {
    signals.dispose();
  }
}

/** A stop signal came while starting: what was started is undone and the command ends without an error. */
class StopRequested extends Error {
  constructor(readonly signal: NodeJS.Signals) {
    super(`stopped by ${signal}`);
  }
}

async function loadDemo(): Promise<{ email: string; password: string | null }[]> {
  const stored = readStoredCredentials();
  const result = await seedDemo(pool(), db(), { password: process.env.SKB_DEMO_PASSWORD });
  for (const kb of result.knowledgeBases.filter((k) => k.loaded)) {
    console.log(`Loaded demo knowledge base ${kb.slug}: ${kb.entities} entities, ${kb.edges} edges`);
  }
  // Generated passwords are kept (git-ignored, owner-only) so every start can print them again.
  const merged = result.users.map((u) => ({ email: u.email, password: u.password ?? stored[u.email] ?? null }));
  fs.writeFileSync(credentialsFile(), JSON.stringify(Object.fromEntries(merged.map((u) => [u.email, u.password])), null, 2), { mode: 0o600 });
  return merged;
}

const credentialsFile = () => path.join(dataDir(), 'demo-credentials.json');

function readStoredCredentials(): Record<string, string> {
  try {
    return JSON.parse(fs.readFileSync(credentialsFile(), 'utf8')) as Record<string, string>;
  } catch {
    return {};
  }
}

/** NEXTAUTH_SECRET when set, else a random one created once and kept in the data folder. */
function authSecret(): string {
  if (process.env.NEXTAUTH_SECRET) return process.env.NEXTAUTH_SECRET;
  const file = path.join(dataDir(), 'auth-secret');
  if (!fs.existsSync(file)) {
    fs.mkdirSync(dataDir(), { recursive: true });
    fs.writeFileSync(file, crypto.randomBytes(32).toString('base64url'), { mode: 0o600 });
  }
  return fs.readFileSync(file, 'utf8').trim();
}

function announce(url: string, credentials: { email: string; password: string | null }[], workers: number): void {
  const lines = [`SKB Studio: ${url} (${workers} app process${workers === 1 ? '' : 'es'})`];
  if (credentials.length) {
    lines.push('Demo accounts (email / password):');
    for (const c of credentials) lines.push(`  ${c.email.padEnd(22)} ${c.password ?? '(password set earlier)'}`);
  }
  console.log(`\n${lines.join('\n')}\n`);
}

function optionalPort(value: string | undefined): number | undefined {
  return value ? Number(value) : undefined;
}

/** Runs a command to its end; a stop signal is passed on to it and ends the wait with StopRequested. */
function runProcess(cmd: string, args: string[], signals: StopSignals): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: 'inherit', cwd: projectRoot() });
    signals.onStop((signal) => { if (child.exitCode === null) child.kill(signal); });
    child.on('exit', (code) => {
      if (signals.received) reject(new StopRequested(signals.received));
      else if (code === 0) resolve();
      else reject(new Error(`${args.join(' ')} failed with exit code ${code}`));
    });
  });
}
