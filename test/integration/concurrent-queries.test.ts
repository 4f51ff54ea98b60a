import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

// Many pooled connections at once, as a page render plus its API calls make them. On the embedded database
// they share one PGlite session, so this checks that no query is answered with another one's result.
describe('concurrent queries on separate connections', () => {
  let testDb: TestDatabase;
  let pool: pg.Pool;
  beforeAll(async () => {
    testDb = await createTestDatabase();
    pool = new pg.Pool({ connectionString: testDb.url, max: 8 });
  });
  afterAll(async () => {
    await pool.end();
    await testDb.drop();
  });

  it('answers every parameterised query with its own result', async () => {
    const asked = Array.from({ length: 400 }, (_, i) => i);
    const answers = await Promise.all(asked.map(async (n) => {
      // Different statement texts: a Bind that met another connection's Parse would show it.
      const { rows } = await pool.query<{ n: number; tag: string; k: number }>(`SELECT $1::int AS n, $2::text AS tag, ${n % 7} AS k`, [n, `q${n}`]);
      return rows[0];
    }));
    expect(answers).toEqual(asked.map((n) => ({ n, tag: `q${n}`, k: n % 7 })));
  });

  it('keeps a transaction to itself while other connections query', async () => {
    const inTransaction = (async () => {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        await client.query(`SET LOCAL statement_timeout = '1234s'`);
        const seen = [];
        for (let i = 0; i < 20; i++) seen.push((await client.query<{ t: string }>('SELECT current_setting($1) AS t', ['statement_timeout'])).rows[0]!.t);
        await client.query('COMMIT');
        return seen;
      } finally {
        client.release();
      }
    })();
    const others = Promise.all(Array.from({ length: 60 }, async () =>
      (await pool.query<{ t: string }>('SELECT current_setting($1) AS t', ['statement_timeout'])).rows[0]!.t));
    expect(new Set(await inTransaction)).toEqual(new Set(['1234s']));
    expect(new Set(await others)).toEqual(new Set(['0']));
  });
});
