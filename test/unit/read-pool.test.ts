import { afterEach, describe, expect, it } from 'vitest';
import { closeDb, db, pool, readDb, readPool } from '../../lib/db/client';

// Pools connect on first query only, so these need no server.
const PRIMARY = 'postgresql://app@127.0.0.1:1/skb';
const REPLICA = 'postgresql://reader@127.0.0.1:2/skb';

const before = { DATABASE_URL: process.env.DATABASE_URL, DATABASE_READ_URL: process.env.DATABASE_READ_URL };

afterEach(async () => {
  await closeDb();
  for (const [name, value] of Object.entries(before)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

describe('the read pool', () => {
  it('is the primary pool when no replica is configured', () => {
    process.env.DATABASE_URL = PRIMARY;
    delete process.env.DATABASE_READ_URL;
    expect(readPool()).toBe(pool());
    expect(readDb()).toBe(db());
  });

  it('is a read-only pool on DATABASE_READ_URL when it is set', () => {
    process.env.DATABASE_URL = PRIMARY;
    process.env.DATABASE_READ_URL = REPLICA;
    const read = readPool();
    expect(read).not.toBe(pool());
    expect(readDb()).not.toBe(db());
    expect(read.options).toMatchObject({ connectionString: REPLICA, application_name: 'skb-read', options: '-c jit=off -c default_transaction_read_only=on' });
    expect(pool().options).toMatchObject({ connectionString: PRIMARY, options: '-c jit=off' });
    expect(readPool()).toBe(read);
  });
});
