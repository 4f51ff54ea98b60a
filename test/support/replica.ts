import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

/** Where the PostgreSQL server binaries are (Debian's layout); SKB_PG_BIN overrides. */
const PG_BIN = process.env.SKB_PG_BIN ?? '/usr/lib/postgresql/15/bin';
/** The servers refuse to run as root: when the tests do, the servers run as this user. */
const SERVER_USER = 'postgres';
const DATABASE = 'skb';

/** A temporary primary and a streaming replica of it, each on its own port, with database `skb`. */
export interface ReplicatedCluster {
  primaryUrl: string;
  replicaUrl: string;
  /** Waits until the replica has replayed everything the primary has written so far. */
  waitForReplay(timeoutMs?: number): Promise<void>;
  /** Stops applying WAL on the replica (it keeps receiving it), so the primary's later writes stay unseen there. */
  pauseReplay(): Promise<void>;
  resumeReplay(): Promise<void>;
  /** Stops both servers and deletes their data. */
  stop(): Promise<void>;
}

const asRoot = process.getuid?.() === 0;

/** Runs a server binary (as the server user when root) in `cwd`; fails with its output. */
async function run(cwd: string, binary: string, args: string[]): Promise<void> {
  const command = asRoot ? 'runuser' : path.join(PG_BIN, binary);
  const argv = asRoot ? ['-u', SERVER_USER, '--', path.join(PG_BIN, binary), ...args] : args;
  await new Promise<void>((resolve, reject) => {
    // The servers pg_ctl starts keep the pipes open; their output goes to log files instead.
    const child = spawn(command, argv, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d));
    child.stderr.on('data', (d: Buffer) => (output += d));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${binary} ${args.join(' ')} exited with ${code}:\n${output}`))));
  });
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

const serverUrl = (port: number, database = DATABASE) => `postgresql://${SERVER_USER}@127.0.0.1:${port}/${database}`;

async function query<T extends pg.QueryResultRow>(url: string, sql: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql, values)).rows;
  } finally {
    await client.end();
  }
}

async function until(what: string, timeoutMs: number, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Starts a primary (initdb, replication allowed from 127.0.0.1 in its pg_hba.conf) and a hot-standby replica
 * made with `pg_basebackup -R`, in a temporary folder, both listening on free local ports, and creates
 * database `skb` on the primary. Needs the PostgreSQL 15 server binaries; fails (never skips) without them.
 */
export async function startReplicatedCluster(): Promise<ReplicatedCluster> {
  if (!fs.existsSync(path.join(PG_BIN, 'initdb'))) {
    throw new Error(`No PostgreSQL server binaries in ${PG_BIN} (install postgresql-15, or set SKB_PG_BIN)`);
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skb-replica-'));
  if (asRoot) spawnSync('chown', [SERVER_USER, dir], { stdio: 'inherit' });
  const primaryDir = path.join(dir, 'primary');
  const replicaDir = path.join(dir, 'replica');
  const [primaryPort, replicaPort] = [await freePort(), await freePort()];
  const started: string[] = [];

  const stopServers = (mode: 'fast' | 'immediate') => {
    for (const data of started.splice(0)) {
      const argv = ['-D', data, '-m', mode, '-w', 'stop'];
      spawnSync(asRoot ? 'runuser' : path.join(PG_BIN, 'pg_ctl'), asRoot ? ['-u', SERVER_USER, '--', path.join(PG_BIN, 'pg_ctl'), ...argv] : argv, { cwd: dir, stdio: 'ignore' });
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  // A test run that is killed or crashes must not leave servers behind.
  const onExit = () => stopServers('immediate');
  process.once('exit', onExit);

  try {
    await run(dir, 'initdb', ['-D', primaryDir, '-U', SERVER_USER, '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync']);
    fs.appendFileSync(path.join(primaryDir, 'postgresql.conf'), [
      `listen_addresses = '127.0.0.1'`,
      `unix_socket_directories = '${dir}'`,
      'wal_level = replica',
      'max_wal_senders = 4',
      // A scratch server: durability is not needed, and a busy machine's disks are slow.
      'fsync = off',
      '',
    ].join('\n'));
    fs.appendFileSync(path.join(primaryDir, 'pg_hba.conf'), `host replication ${SERVER_USER} 127.0.0.1/32 trust\n`);
    await run(dir, 'pg_ctl', ['-D', primaryDir, '-o', `-p ${primaryPort}`, '-l', path.join(dir, 'primary.log'), '-w', '-t', '60', 'start']);
    started.push(primaryDir);
    await query(serverUrl(primaryPort, 'postgres'), `CREATE DATABASE ${DATABASE}`);

    await run(dir, 'pg_basebackup', ['-h', '127.0.0.1', '-p', String(primaryPort), '-U', SERVER_USER, '-D', replicaDir, '-R', '-X', 'stream', '-c', 'fast', '--no-sync']);
    await run(dir, 'pg_ctl', ['-D', replicaDir, '-o', `-p ${replicaPort}`, '-l', path.join(dir, 'replica.log'), '-w', '-t', '60', 'start']);
    started.push(replicaDir);
  } catch (err) {
    process.off('exit', onExit);
    stopServers('immediate');
    throw err;
  }

  const primaryUrl = serverUrl(primaryPort);
  const replicaUrl = serverUrl(replicaPort);
  const replayState = async () => (await query<{ state: string }>(replicaUrl, 'SELECT pg_get_wal_replay_pause_state() AS state'))[0]!.state;
  return {
    primaryUrl,
    replicaUrl,
    async waitForReplay(timeoutMs = 30_000) {
      // The insert position: it includes commits not yet written out, which the replica must replay too.
      const { lsn } = (await query<{ lsn: string }>(primaryUrl, 'SELECT pg_current_wal_insert_lsn()::text AS lsn'))[0]!;
      await until(`the replica to replay up to ${lsn}`, timeoutMs, async () =>
        (await query<{ done: boolean }>(replicaUrl, 'SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS done', [lsn]))[0]!.done);
    },
    async pauseReplay() {
      await query(replicaUrl, 'SELECT pg_wal_replay_pause()');
      await until('replay to pause', 30_000, async () => (await replayState()) === 'paused');
    },
    async resumeReplay() {
      await query(replicaUrl, 'SELECT pg_wal_replay_resume()');
      await until('replay to resume', 30_000, async () => (await replayState()) === 'not paused');
    },
    async stop() {
      process.off('exit', onExit);
      stopServers('fast');
    },
  };
}
