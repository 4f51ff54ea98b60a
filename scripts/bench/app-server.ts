// The production app for the load benchmarks: a scratch database on a PostgreSQL server, `skb serve` on it in
// a process of its own, and the answers its API gives (or that the library calls behind it give, for tests).
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { migrate } from '../../lib/db/migrate';
import { AppError } from '../../lib/errors';

const root = path.resolve(import.meta.dirname, '..', '..');

/** Stops the benchmark before any work when there is no production build to serve. */
export function requireProductionBuild(): void {
  if (!fs.existsSync(path.join(root, '.next', 'BUILD_ID'))) {
    console.error('No production build of the app: run `npx next build` first.');
    process.exit(2);
  }
}

export interface ScratchDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

async function onServer(server: string, sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

/**
 * Drops and makes anew the database `name` on `server`, migrates it and points lib/db/client at it. The
 * name is the caller's own constant (it cannot be a query parameter).
 */
export async function scratchDatabase(server: string, name: string): Promise<ScratchDatabase> {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`Not a plain database name: ${name}`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  const drop = () => onServer(server, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await drop();
  await onServer(server, `CREATE DATABASE ${name}`);
  await migrate(url.toString());
  process.env.DATABASE_URL = url.toString();
  return { name, url: url.toString(), drop };
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer().once('error', reject).listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

export interface AppServer {
  baseUrl: string;
  /** The process group's leader (`skb serve`, whose children are the app processes). */
  pid: number;
  /** The server's last 200 lines of output, kept for a failure report rather than shown over a progress bar. */
  log: string[];
  stop(): Promise<void>;
}

/**
 * Starts `skb serve` on `databaseUrl` (a free port unless one is given; `workers` app processes, `skb serve`'s
 * default unless given) in its own process group, so that stopping it stops Next too, and waits until it answers.
 */
export async function startApp(databaseUrl: string, port?: number, workers?: number): Promise<AppServer> {
  const listen = port ?? await freePort();
  const baseUrl = `http://127.0.0.1:${listen}`;
  const args = ['serve', '--port', String(listen), ...(workers ? ['--workers', String(workers)] : [])];
  const child = spawn(process.execPath, [path.join(root, 'bin', 'skb.mjs'), ...args], {
    cwd: root,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, DATABASE_URL: databaseUrl, NEXTAUTH_URL: baseUrl, NEXTAUTH_SECRET: crypto.randomBytes(32).toString('base64url'), NEXT_TELEMETRY_DISABLED: '1' },
  });
  const log: string[] = [];
  const keep = (chunk: Buffer) => { log.push(...chunk.toString().split('\n').filter(Boolean)); log.splice(0, Math.max(0, log.length - 200)); };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const kill = (signal: NodeJS.Signals) => { try { process.kill(-child.pid!, signal); } catch { /* already gone */ } };
  process.once('exit', () => kill('SIGKILL'));
  const app: AppServer = {
    baseUrl,
    pid: child.pid!,
    log,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      kill('SIGTERM');
      const stopped = await Promise.race([exited.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 15_000))]);
      if (!stopped) kill('SIGKILL');
    },
  };
  try {
    await waitUntilUp(baseUrl, child, log);
  } catch (err) {
    await app.stop();
    throw err;
  }
  return app;
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

/**
 * CPU time (user and system, in seconds) the app's process group (`skb serve`, which hands connections out, and
 * its app processes) has used so far, from /proc; null where there is no /proc. Clock ticks are 1/100 s on Linux.
 */
export function appCpuSeconds(app: AppServer): number | null {
  if (!fs.existsSync('/proc/self/stat')) return null;
  let ticks = 0;
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    // After "pid (name) ": state, ppid, pgrp, ... utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[2]) === app.pid) ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks / 100;
}

/**
 * Measures what a load costs in CPU: the app's process group, this process (the load generator), and the
 * machine's load average. Readings start now; `stop` takes them at the load's end, and `report` words them as
 * shares of a core over the load's `seconds`.
 */
export function cpuMeter(app: AppServer): { stop(): void; report(seconds: number): string } {
  const loadBefore = os.loadavg()[0]!;
  const appBefore = appCpuSeconds(app);
  const generatorBefore = process.cpuUsage();
  let appSeconds: number | null = null;
  let generatorSeconds = 0;
  return {
    stop() {
      const appAfter = appCpuSeconds(app);
      appSeconds = appAfter === null || appBefore === null ? null : appAfter - appBefore;
      const generator = process.cpuUsage(generatorBefore);
      generatorSeconds = (generator.user + generator.system) / 1e6;
    },
    report(seconds) {
      const busy = (cpuSeconds: number) => `${Math.round((100 * cpuSeconds) / seconds)}% of a core`;
      return `CPU during the load: the app ${appSeconds === null ? 'unknown' : busy(appSeconds)}, the load generator ${busy(generatorSeconds)}; ` +
        `load average (1 min, everything on the machine) ${loadBefore.toFixed(1)} before, ${os.loadavg()[0]!.toFixed(1)} after.`;
    },
  };
}

/** How many app processes `skb serve` runs (its children running the app server), as words for a report. */
export function appProcesses(app: AppServer): string {
  let n = 0;
  for (const pid of fs.existsSync('/proc') ? fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d)) : []) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (parent === app.pid && fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('app-server')) n++;
    } catch {
      // gone meanwhile
    }
  }
  return `${n} app process${n === 1 ? '' : 'es'}`;
}

/** The lines of the app's log that report errors, for a failure report. */
const errorLines = (app: AppServer) => app.log.filter((l) => /error/i.test(l)).slice(-20);

/**
 * Ends a benchmark: on failed invariants, prints them with the app's errors, keeps the database for
 * inspection and sets a failing exit code; otherwise drops the database and says what held.
 */
export async function finishRun(failed: string[], app: AppServer | undefined, scratch: ScratchDatabase, database: string, held: string): Promise<void> {
  if (failed.length) {
    const serverErrors = app ? errorLines(app) : [];
    console.error(`\nFAILED:\n${failed.map((f) => `  ${f}`).join('\n')}${serverErrors.length ? `\nApp log:\n${serverErrors.join('\n')}` : ''}`);
    console.error(`The database ${database} is kept for inspection.`);
    process.exitCode = 1;
  } else {
    await scratch.drop();
    console.log(`\n${held}`);
  }
}

/** Cores, memory and versions, for the benchmark's report. */
export async function describeMachine(pool: pg.Pool): Promise<string> {
  const version = (await pool.query<{ server_version: string }>('SHOW server_version')).rows[0]!.server_version.split(' ')[0];
  return `${os.cpus().length} cores (${os.cpus()[0]?.model.trim()}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, PostgreSQL ${version}, Node ${process.versions.node}`;
}

/** An HTTP-like answer: status 0 when the request got no answer at all. */
export interface Answer {
  status: number;
  body: unknown;
}

/** Whether the app acknowledged the request (2xx). */
export const acknowledged = (answer: Answer) => answer.status >= 200 && answer.status < 300;

/** One request to the app, its JSON answer read whole; a network failure is status 0. */
export async function request(url: string, init: RequestInit): Promise<Answer> {
  try {
    const res = await fetch(url, init);
    const text = await res.text();
    try {
      return { status: res.status, body: JSON.parse(text) as unknown };
    } catch {
      return { status: res.status, body: { error: text.slice(0, 200) } };
    }
  } catch (err) {
    return { status: 0, body: { error: (err as Error).message } };
  }
}

/** A library call answered as the route handlers answer it: AppError as its status, anything else as 500. */
export async function answerOf(fn: () => Promise<unknown>): Promise<Answer> {
  try {
    return { status: 200, body: await fn() };
  } catch (err) {
    return err instanceof AppError ? { status: err.status, body: { error: err.message } } : { status: 500, body: { error: String(err) } };
  }
}

/** The error message of a refusal, short, for a report. */
export const errorOf = (answer: Answer) => String((answer.body as { error?: unknown } | null)?.error ?? '').slice(0, 160);
