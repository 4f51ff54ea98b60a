import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isAlive } from '../../../lib/process';
import { freePort } from '../../support/free-port';

const PRIMARY = path.join(import.meta.dirname, '..', '..', 'support', 'cluster', 'primary.ts');
const started: ChildProcess[] = [];

function startPrimary(workers: number, port: number, crash = false) {
  const child = spawn(process.execPath, ['--import', 'tsx', PRIMARY, String(workers), String(port), ...(crash ? ['crash'] : [])], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  const log: string[] = [];
  child.stdout!.on('data', (b: Buffer) => log.push(b.toString()));
  child.stderr!.on('data', (b: Buffer) => log.push(b.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, log, exited };
}

/** The pid of the worker that answers one request on a connection of its own, or null when none answers. */
function answeringPid(port: number): Promise<number | null> {
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/', agent: false, headers: { connection: 'close' } }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => { body += c.toString(); });
      res.on('end', () => resolve(Number(body)));
    });
    req.on('error', () => resolve(null));
  });
}

/** Asks until `want` different workers have answered (the primary hands connections out in turn). */
async function workersAnswering(port: number, want: number, timeoutMs = 30_000): Promise<Set<number>> {
  const seen = new Set<number>();
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const pid = await answeringPid(port);
    if (pid !== null) seen.add(pid);
    for (const p of seen) if (!isAlive(p)) seen.delete(p);
    if (seen.size >= want) return seen;
    if (pid === null) await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`only ${seen.size} of ${want} workers answered on port ${port}`);
}

async function gone(pids: Iterable<number>, timeoutMs = 10_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if ([...pids].every((p) => !isAlive(p))) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}

afterEach(() => {
  for (const c of started.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});

describe('the app cluster', () => {
  it('answers on one port from every worker, replaces a killed worker, and leaves no process behind on SIGTERM', async () => {
    const port = await freePort();
    const primary = startPrimary(2, port);
    const first = await workersAnswering(port, 2);
    expect(first.size).toBe(2);

    const [victim, survivor] = [...first];
    process.kill(victim!, 'SIGKILL');
    await gone([victim!]);
    const after = await workersAnswering(port, 2);
    expect(after.has(victim!)).toBe(false);
    expect(after.has(survivor!)).toBe(true);
    expect(primary.log.join('')).toMatch(new RegExp(`App process ${victim} was killed \\(SIGKILL\\); starting another`));

    primary.child.kill('SIGTERM');
    expect(await primary.exited).toBe(0);
    expect(await gone(after)).toBe(true);
    expect(await answeringPid(port)).toBeNull();
  }, 90_000);

  it('takes its workers with it when the primary itself is killed', async () => {
    const port = await freePort();
    const primary = startPrimary(2, port);
    const workers = await workersAnswering(port, 2);
    primary.child.kill('SIGKILL');
    await primary.exited;
    expect(await gone(workers)).toBe(true);
  }, 90_000);

  it('stops with a failing exit code when workers keep dying before they listen, instead of forking forever', async () => {
    const primary = startPrimary(2, await freePort(), true);
    expect(await primary.exited).toBe(1);
    expect(primary.log.join('')).toMatch(/before it could listen, 3 times in a row; stopping/);
  }, 90_000);
});
