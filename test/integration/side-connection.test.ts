import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onSideConnection } from '../../lib/ingest/side-connection';
import { openAppDatabase, pool } from '../support/app-database';
import type { TestDatabase } from '../support/test-database';

// The importer works on a second connection only on PostgreSQL: PGlite has one session and cannot cancel a backend.
describe.runIf(process.env.SKB_TEST_DB === 'postgres')('work on a side connection (PostgreSQL only: the importer uses it there)', () => {
  let testDb: TestDatabase;
  beforeAll(async () => { testDb = await openAppDatabase(); });
  afterAll(async () => testDb.drop());

  const backend = async () => (await pool().query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;

  it('runs on its own backend beside the caller and hands its result back', async () => {
    const task = await onSideConnection(pool(), async (db) => (await db.query<{ pid: number }>('SELECT pg_backend_pid() AS pid, pg_sleep(0.2)')).rows[0]!.pid);
    // The caller's statements go on meanwhile, on another backend.
    const callers = await backend();
    expect(await task.result).not.toBe(callers);
  });

  it('a cancel stops the running statement on the server and leaves no session behind', async () => {
    const task = await onSideConnection(pool(), async (db) => {
      await db.query('SELECT pg_sleep(60)');
      return 'finished';
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const started = Date.now();
    await task.cancel();
    expect(Date.now() - started).toBeLessThan(30_000);
    await expect(task.result).rejects.toThrow(/cancel/i);
    const { rows } = await pool().query(`SELECT 1 FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(60)' AND state = 'active'`);
    expect(rows).toEqual([]);
  });

  it('a cancel between statements refuses the next one', async () => {
    let reached!: () => void;
    let resume!: () => void;
    const between = new Promise<void>((resolve) => { reached = resolve; });
    const gate = new Promise<void>((resolve) => { resume = resolve; });
    const ran: string[] = [];
    const task = await onSideConnection(pool(), async (db) => {
      await db.query('SELECT 1');
      ran.push('first');
      reached();
      await gate;
      await db.query('SELECT 2');
      ran.push('second');
    });
    await between;
    const cancelling = task.cancel();
    resume();
    await cancelling;
    await expect(task.result).rejects.toThrow('cancelled');
    expect(ran).toEqual(['first']);
  });
});
