import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inSet, SET_SIZE_CLASSES, SET_WORK_MEM } from '../../lib/kb/metapath-set-test';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

// A set of n even numbers, materialized as a metapath step's set is, tested with inSet against 1 .. 2n + 1.
const membership = (n: number) => `
  WITH s AS MATERIALIZED (SELECT 2 * g AS id FROM generate_series(1, ${n}) g),
       sn AS MATERIALIZED (SELECT count(*) AS n FROM s)
  SELECT count(*) FILTER (WHERE ${inSet('x', 's', '(SELECT n FROM sn)')} IS TRUE)::int AS hits,
         count(*) FILTER (WHERE x % 2 = 0 AND ${inSet('x', 's', '(SELECT n FROM sn)')} IS NOT TRUE)::int AS missed
    FROM generate_series(1, 2 * ${n} + 1) x`;

describe('inSet: a set test sized by the set, not its estimate', () => {
  let testDb: TestDatabase;
  let pool: pg.Pool;
  beforeAll(async () => {
    testDb = await createTestDatabase();
    // The memory metapath statements hash their sets in: with less, the largest classes are not hashed.
    pool = new pg.Pool({ connectionString: testDb.url, max: 1 });
    pool.on('connect', (client) => void client.query(`SET work_mem = '${SET_WORK_MEM}'`));
  });
  afterAll(async () => {
    await pool.end();
    await testDb.drop();
  });

  // Each class's edge and one past it: a set one larger than its class's LIMIT would lose its last member.
  const sizes = [1, ...SET_SIZE_CLASSES.flatMap((c) => [c, c + 1])];
  it.each(sizes)('finds every member of a set of %i and nothing else', async (n) => {
    const { rows: [row] } = await pool.query<{ hits: number; missed: number }>(membership(n));
    expect(row).toEqual({ hits: n, missed: 0 });
  });

  it('hashes each class in its own subplan, estimated at most at its class, however large the set is estimated', async () => {
    // Estimated at 1,000 rows by generate_series, while it holds 10.
    const { rows } = await pool.query<{ 'QUERY PLAN': string }>(`EXPLAIN
      WITH s AS MATERIALIZED (SELECT g AS id FROM generate_series(1, 10) g CROSS JOIN generate_series(1, 1000) h WHERE h = 1),
           sn AS MATERIALIZED (SELECT count(*) AS n FROM s)
      SELECT count(*) FROM generate_series(1, 100) x WHERE ${inSet('x', 's', '(SELECT n FROM sn)')} IS TRUE`);
    const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
    expect(plan.match(/hashed SubPlan/g)).toHaveLength(SET_SIZE_CLASSES.length + 1);
    const limits = [...plan.matchAll(/Limit {2}\(cost=[\d.]+ rows=(\d+)/g)].map((m) => Number(m[1]));
    expect(limits).toHaveLength(SET_SIZE_CLASSES.length);
    limits.forEach((rows, i) => expect(rows).toBeLessThanOrEqual(SET_SIZE_CLASSES[i]!));
  });
});
