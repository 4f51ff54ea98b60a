import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { isAlive } from '../process';
import { dataDir } from './paths';
import { holdExtendedQueryBatches } from './protocol-batches';

/**
 * The embedded database: PGlite (PostgreSQL in WASM) served over the Postgres wire protocol, so the
 * app, the CLI and the tests use the same `pg` code path as on a real server.
 *
 * Only one process may open a PGlite data directory. The owner writes `embedded.json` (pid, port,
 * owner kind); others connect to its port. An app server owns it for its lifetime; a CLI command run
 * while no server is up owns it for the duration of the command.
 */
export type EmbeddedOwner = 'server' | 'cli';

interface LockInfo {
  pid: number;
  port: number;
  owner: EmbeddedOwner;
  startedAt: string;
}

export interface EmbeddedDatabase {
  url: string;
  /** True when this process started the database and must stop it. */
  owned: boolean;
  stop(): Promise<void>;
}

const lockFile = () => path.join(dataDir(), 'embedded.json');
const pgDataDir = () => path.join(dataDir(), 'pglite');

export function embeddedUrl(port: number): string {
  return `postgresql://postgres@127.0.0.1:${port}/postgres`;
}

function readLock(): LockInfo | null {
  try {
    return JSON.parse(fs.readFileSync(lockFile(), 'utf8')) as LockInfo;
  } catch {
    return null;
  }
}

/** Creates the lock atomically; returns false when another live process holds it. */
function tryTakeLock(info: LockInfo): boolean {
  fs.mkdirSync(dataDir(), { recursive: true });
  for (;;) {
    try {
      fs.writeFileSync(lockFile(), JSON.stringify(info), { flag: 'wx' });
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const held = readLock();
      if (held && isAlive(held.pid) && held.pid !== process.pid) return false;
      // Stale lock from a process that died: remove and retry.
      fs.rmSync(lockFile(), { force: true });
    }
  }
}

function updateLock(info: LockInfo): void {
  fs.writeFileSync(lockFile(), JSON.stringify(info));
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

async function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The embedded server another process runs, if any is up and reachable. */
export async function findRunningEmbedded(): Promise<LockInfo | null> {
  const held = readLock();
  if (!held || !isAlive(held.pid) || held.port === 0) return null;
  return (await canConnect(held.port)) ? held : null;
}

/**
 * Opens the embedded database: connects to the one another process serves, or starts one here.
 * A CLI command waits while another CLI command holds the database; nobody connects to a CLI's
 * private instance because it disappears when that command ends.
 */
export async function openEmbedded(opts: {
  owner: EmbeddedOwner;
  port?: number;
  log?: (msg: string) => void;
  waitMs?: number;
}): Promise<EmbeddedDatabase> {
  const log = opts.log ?? (() => {});
  const deadline = Date.now() + (opts.waitMs ?? 120_000);
  let announced = false;
  for (;;) {
    const info: LockInfo = { pid: process.pid, port: 0, owner: opts.owner, startedAt: new Date().toISOString() };
    if (tryTakeLock(info)) return startHere(info, opts.port);
    const held = readLock();
    if (held?.owner === 'server' && held.port && (await canConnect(held.port))) {
      if (opts.owner === 'server') {
        throw new Error(`The embedded database is already served by process ${held.pid} on port ${held.port}.`);
      }
      return { url: embeddedUrl(held.port), owned: false, stop: async () => {} };
    }
    if (Date.now() > deadline) {
      throw new Error(`The embedded database in ${dataDir()} is held by process ${held?.pid}; gave up waiting.`);
    }
    if (!announced) {
      log(`Waiting for process ${held?.pid} to release the embedded database...`);
      announced = true;
    }
    await sleep(250);
  }
}

async function startHere(info: LockInfo, port?: number): Promise<EmbeddedDatabase> {
  let db: PGlite | undefined;
  let server: PGLiteSocketServer | undefined;
  try {
    fs.mkdirSync(pgDataDir(), { recursive: true });
    // Extensions the migrations create must be loaded into the WASM build up front.
    db = await PGlite.create(pgDataDir(), { extensions: { pg_trgm } });
    const chosen = port ?? (await freePort());
    // Many pooled connections share PGlite's single session; the socket server queues their queries.
    server = new PGLiteSocketServer({ db: holdExtendedQueryBatches(db), port: chosen, host: '127.0.0.1', maxConnections: 64 });
    await server.start();
    updateLock({ ...info, port: chosen });
    let stopped = false;
    const stop = async () => {
      if (stopped) return;
      stopped = true;
      await server?.stop();
      await db?.close();
      if (readLock()?.pid === process.pid) fs.rmSync(lockFile(), { force: true });
    };
    return { url: embeddedUrl(chosen), owned: true, stop };
  } catch (err) {
    await server?.stop().catch(() => {});
    await db?.close().catch(() => {});
    fs.rmSync(lockFile(), { force: true });
    throw err;
  }
}
