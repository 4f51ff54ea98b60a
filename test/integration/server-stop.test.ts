import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { STOP_SIGNALS, type StopSignal } from '../../lib/server/stop-signals';
import { freePort } from '../support/free-port';

// The real server (`npm run dev`, `skb serve --dev`: the database, the app process, Next.js and the processes it
// starts) stopped by SIGINT or SIGTERM sent to the one process at the top, as a service manager, `kill` or a
// container runtime sends it: afterwards no process of the tree is left. The tree runs in a process group of
// its own, so a process that outlived its parent (an orphan, given to init) is still found by its group.
// The development server, because it needs no production build; `npm start` runs the same command with the
// same `exec`, and the app processes stop the same way in production (test/unit/server/cluster.test.ts has
// two of them). It always runs on an embedded database of its own, whichever database the suite uses.

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'skb-server-stop-'));
const started: ChildProcess[] = [];

interface ProcInfo { pid: number; ppid: number; pgid: number; command: string }

/** Every process on the machine, from /proc. */
function processes(): ProcInfo[] {
  const all: ProcInfo[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      // "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses, so split after the last ')'.
      const [, ppid, pgid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const command = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ').trim();
      all.push({ pid: Number(entry), ppid: Number(ppid), pgid: Number(pgid), command });
    } catch {
      // The process ended while being read.
    }
  }
  return all;
}

/** The processes of a process group, zombies included (they are gone once their parent reaps them). */
const group = (pgid: number) => processes().filter((p) => p.pgid === pgid);

/** The descendants of `pid` by parent pid. */
function descendants(pid: number): ProcInfo[] {
  const all = processes();
  const found: ProcInfo[] = [];
  let frontier = [pid];
  while (frontier.length) {
    const children = all.filter((p) => frontier.includes(p.ppid));
    found.push(...children);
    frontier = children.map((c) => c.pid);
  }
  return found;
}

interface Server { child: ChildProcess; log: string[]; listening: Promise<number>; exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }> }

/** Starts a command in a process group of its own; `listening` resolves with the app process's pid. */
function start(command: string, args: string[], dir = dataDir): Server {
  const child = spawn(command, args, {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, SKB_DATA_DIR: dir, DATABASE_URL: '', SKB_DB_PORT: '', NEXT_TELEMETRY_DISABLED: '1' },
  });
  started.push(child);
  const log: string[] = [];
  let listened!: (pid: number) => void;
  const listening = new Promise<number>((resolve) => { listened = resolve; });
  for (const stream of [child.stdout!, child.stderr!]) {
    readline.createInterface({ input: stream }).on('line', (line) => {
      log.push(line);
      const m = /^Listening on .*, process (\d+)$/.exec(line);
      if (m) listened(Number(m[1]));
    });
  }
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  return { child, log, listening, exited };
}

/** Waits until the process group is empty, or the time is up; returns what is left. */
async function leftOver(pgid: number, timeoutMs: number): Promise<ProcInfo[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const left = group(pgid);
    if (!left.length || Date.now() > deadline) return left;
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function getPage(port: number, pathname: string): Promise<number> {
  const res = await fetch(`http://127.0.0.1:${port}${pathname}`);
  await res.arrayBuffer();
  return res.status;
}

/** Starts the server, has it render a page, stops it with `signal` sent to the top process alone, and checks the tree is gone. */
async function startAndStop(command: string, args: (port: number) => string[], signal: StopSignal): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  const port = await freePort();
  const server = start(command, args(port));
  const pgid = server.child.pid!;
  const appPid = await Promise.race([server.listening, server.exited.then(() => {
    throw new Error(`the server ended before it listened:\n${server.log.slice(-30).join('\n')}`);
  })]);
  // A rendered page: Next.js has started what it needs to answer (in development, its compiler's helpers).
  expect(await getPage(port, '/login')).toBe(200);
  const tree = descendants(pgid);
  expect(tree.map((p) => p.pid), 'the app process is part of the tree').toContain(appPid);

  process.kill(pgid, signal);
  const exit = await server.exited;
  const left = await leftOver(pgid, 5_000);
  expect(left.map((p) => `${p.pid} (parent ${p.ppid}): ${p.command}`), `left after ${signal}`).toEqual([]);
  for (const p of tree) expect(fs.existsSync(`/proc/${p.pid}`), `${p.command} is gone`).toBe(false);
  await expect(getPage(port, '/login')).rejects.toThrow();
  return exit;
}

afterEach(() => {
  // A failed case must not leave its server running: the whole group goes.
  for (const c of started.splice(0)) {
    try { process.kill(-c.pid!, 'SIGKILL'); } catch { /* already gone */ }
  }
});
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

describe('stopping the server', () => {
  for (const signal of STOP_SIGNALS) {
    it(`\`skb serve --dev\` stops with all its processes on ${signal}`, async () => {
      const exit = await startAndStop(process.execPath, (port) => ['bin/skb.mjs', 'serve', '--dev', '--port', String(port)], signal);
      expect(exit).toEqual({ code: 0, signal: null });
    }, 240_000);

    it(`\`npm run dev\` stops with all its processes on ${signal} sent to npm`, async () => {
      const exit = await startAndStop('npm', (port) => ['run', '--silent', 'dev', '--', '--port', String(port)], signal);
      // npm passes the signal on and ends as the server did.
      expect(exit).toEqual({ code: 0, signal: null });
    }, 240_000);
  }

  it('stops while still starting, before any app process runs, and leaves nothing behind', async () => {
    // A new data folder: the signal comes once the embedded database is open, while the server migrates it and
    // loads the demo (seconds of work), long before any app process starts.
    const port = await freePort();
    const server = start(process.execPath, ['bin/skb.mjs', 'serve', '--dev', '--port', String(port)], path.join(dataDir, 'fresh'));
    const pgid = server.child.pid!;
    await new Promise<void>((resolve, reject) => {
      const check = setInterval(() => {
        if (server.log.some((l) => l.startsWith('Embedded database'))) { clearInterval(check); resolve(); }
      }, 20);
      void server.exited.then(() => { clearInterval(check); reject(new Error(`the server ended at once:\n${server.log.join('\n')}`)); });
    });
    process.kill(pgid, 'SIGTERM');
    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(server.log.join('\n')).toMatch(/Stopped by SIGTERM while starting/);
    expect(server.log.join('\n')).not.toMatch(/^Listening on/m);
    expect(await leftOver(pgid, 5_000)).toEqual([]);
  }, 240_000);
});
