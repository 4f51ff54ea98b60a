import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { publicRoute } from '../../lib/http/api';
import { isConnectionError } from '../../lib/db/client';
import { db, openAppDatabase, pool } from '../support/app-database';
import type { TestDatabase } from '../support/test-database';

const get = () => new Request('http://localhost/api/x');
const post = () => new Request('http://localhost/api/x', { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
const noParams = { params: Promise.resolve({}) };

// Terminating backends needs a server with more than one: PGlite serves a single connection and has no
// pg_terminate_backend, so this file runs on PostgreSQL only.
describe.runIf(process.env.SKB_TEST_DB === 'postgres')('lost database connections (PostgreSQL only: PGlite has one backend and cannot terminate it)', () => {
  let testDb: TestDatabase;
  let admin: pg.Client;
  const warnings: string[] = [];
  const uncaught: unknown[] = [];
  const onUncaught = (err: unknown) => uncaught.push(err);

  beforeAll(async () => {
    testDb = await openAppDatabase();
    admin = new pg.Client({ connectionString: testDb.url });
    await admin.connect();
    vi.spyOn(console, 'warn').mockImplementation((msg: string) => void warnings.push(msg));
    process.on('uncaughtException', onUncaught);
  });
  afterAll(async () => {
    process.off('uncaughtException', onUncaught);
    vi.restoreAllMocks();
    await admin.end();
    await testDb.drop();
  });

  /** Ends every backend of the test database but the admin connection, as a server restart would. */
  const terminateAll = () => admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()');
  /** Checks out a pool connection and has the server end it, so the next statement on it fails. */
  async function doomedClient(): Promise<pg.PoolClient> {
    const client = await pool().connect();
    const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    await admin.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]);
    return client;
  }
  /** Runs a statement on a connection the server has just ended: the error a request in flight gets. */
  async function lostStatement(): Promise<never> {
    const client = await doomedClient();
    try {
      await client.query('SELECT 1');
    } catch (err) {
      client.release(err as Error);
      throw err;
    }
    throw new Error('the terminated connection answered');
  }

  it('survives idle connections ended between requests: handled pool errors, reads answer', async () => {
    await Promise.all([pool().query('SELECT 1'), pool().query('SELECT 1'), db().user.count()]);
    expect(pool().idleCount).toBeGreaterThan(0);
    await terminateAll();
    for (let i = 0; i < 100 && pool().idleCount > 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(pool().idleCount).toBe(0);
    expect(warnings.some((w) => w.startsWith('Database connection lost'))).toBe(true);

    const route = publicRoute(async () => ({ n: (await pool().query('SELECT 1 AS n')).rows[0].n, users: await db().user.count() }));
    const res = await route(get(), noParams);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ n: 1, users: 0 });
    expect(uncaught).toEqual([]);
  });

  it('runs a GET once more when its connection is lost mid-request', async () => {
    let attempts = 0;
    const route = publicRoute(async () => {
      attempts++;
      if (attempts === 1) await lostStatement();
      return { n: (await pool().query('SELECT 1 AS n')).rows[0].n };
    });
    const res = await route(get(), noParams);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ n: 1 });
    expect(attempts).toBe(2);
    expect(uncaught).toEqual([]);
  });

  it('answers a POST that lost its connection with 503 and Retry-After, without running it again', async () => {
    let attempts = 0;
    const route = publicRoute(async () => {
      attempts++;
      await lostStatement();
    });
    const res = await route(post(), noParams);
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('5');
    expect(await res.json()).toEqual({ error: expect.stringMatching(/database is unavailable/) });
    expect(attempts).toBe(1);
    expect(uncaught).toEqual([]);
  });

  it('recognises the lost connection behind a Prisma error', async () => {
    const err = await db().$transaction(async (tx) => {
      const [row] = await tx.$queryRaw<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`;
      await admin.query('SELECT pg_terminate_backend($1)', [row!.pid]);
      await tx.user.count();
    }).then(() => null, (e: unknown) => e);
    expect(err).not.toBeNull();
    expect(isConnectionError(err)).toBe(true);
    const res = await publicRoute(async () => { throw err; })(post(), noParams);
    expect(res.status).toBe(503);
    expect(await db().user.count()).toBe(0);
  });
});

describe('an unreachable database', () => {
  it('answers 503 when the server cannot be reached at all', async () => {
    const unreachable = new pg.Pool({ connectionString: 'postgresql://postgres@127.0.0.1:1/none', connectionTimeoutMillis: 2000 });
    const res = await publicRoute(async () => unreachable.query('SELECT 1'))(get(), noParams);
    await unreachable.end();
    expect(res.status).toBe(503);
  });
});
