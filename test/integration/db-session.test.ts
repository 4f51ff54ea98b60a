import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAppDatabase, pool } from '../support/app-database';
import type { TestDatabase } from '../support/test-database';

// PGlite has no JIT compiler, and its socket server takes no startup options: PostgreSQL only.
describe.runIf(process.env.SKB_TEST_DB === 'postgres')("the app's database sessions (PostgreSQL only: PGlite has no JIT to turn off)", () => {
  let testDb: TestDatabase;
  beforeAll(async () => { testDb = await openAppDatabase(); });
  afterAll(async () => { await testDb.drop(); });

  it('run without JIT compilation, set when each connection starts', async () => {
    // Several connections, each checked out and so each its own session where the server has more than one.
    const clients = await Promise.all([pool().connect(), pool().connect()]);
    try {
      for (const client of clients) expect((await client.query<{ jit: string }>('SHOW jit')).rows[0]!.jit).toBe('off');
    } finally {
      for (const client of clients) client.release();
    }
  });
});
