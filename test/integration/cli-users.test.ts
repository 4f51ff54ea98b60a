import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEmbedded, type EmbeddedDatabase } from '../../lib/db/embedded';
import { migrate } from '../../lib/db/migrate';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { runSkb } from '../support/run-skb';

/**
 * `skb users` account commands, run as the real command on a database of their own. On the embedded suite this
 * process serves the embedded database, as a running app does, so the commands do not each open PGlite.
 */
describe('skb users disable|enable|reset-password|sign-out', () => {
  let testDb: TestDatabase | undefined;
  let embedded: EmbeddedDatabase | undefined;
  let env: NodeJS.ProcessEnv;
  let dataDir: string;
  let previousDataDir: string | undefined;
  let url: string;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'skb-cli-users-'));
    env = { ...process.env, SKB_DATA_DIR: dataDir, DATABASE_URL: '' };
    if (process.env.SKB_TEST_DB === 'embedded') {
      previousDataDir = process.env.SKB_DATA_DIR;
      process.env.SKB_DATA_DIR = dataDir;
      embedded = await openEmbedded({ owner: 'server' });
      url = embedded.url;
    } else {
      testDb = await createTestDatabase();
      env.DATABASE_URL = url = testDb.url;
    }
    // Migrated up front, so the commands that run side by side do not race to migrate a fresh database.
    await migrate(url);
  });
  afterAll(async () => {
    await embedded?.stop();
    if (embedded) process.env.SKB_DATA_DIR = previousDataDir;
    await testDb?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const skb = (args: string[], input?: string) => runSkb(args, env, input);
  const sessionVersion = async (email: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query<{ v: number }>('SELECT session_version AS v FROM app_user WHERE email = $1', [email])).rows[0]?.v;
    } finally {
      await client.end();
    }
  };

  it('disables, enables, resets a password and signs a user out, and keeps the last admin', async () => {
    // Commands that do not depend on each other run side by side: each is a process of its own.
    const created = await Promise.all([
      skb(['create-user', '--email', 'boss@example.org', '--role', 'admin'], 'a strong password\n'),
      skb(['create-user', '--email', 'ann@example.org', '--role', 'annotator'], 'a strong password\n'),
    ]);
    expect(created.map((c) => c.code)).toEqual([0, 0]);

    const disabled = await skb(['users', 'disable', '--email', 'ANN@example.org', '--json']);
    expect(disabled.code, disabled.stderr).toBe(0);
    expect(JSON.parse(disabled.stdout)).toMatchObject({ email: 'ann@example.org', disabled: true });
    expect((await skb(['users'])).stdout).toMatch(/ann@example\.org \(disabled\)/);
    expect((await skb(['users', 'enable', '--email', 'ann@example.org'])).stdout).toContain('Enabled ann@example.org');

    const before = await sessionVersion('ann@example.org');
    const weak = await skb(['users', 'reset-password', '--email', 'ann@example.org'], 'password123\n');
    expect(weak.code).toBe(1);
    expect(weak.stderr).toMatch(/too common/);
    const reset = await skb(['users', 'reset-password', '--email', 'ann@example.org'], 'another-Strong-pass-4\n');
    expect(reset.code, reset.stderr).toBe(0);
    expect((await skb(['users', 'sign-out', '--email', 'ann@example.org'])).stdout).toContain('Signed ann@example.org out everywhere');
    expect(await sessionVersion('ann@example.org')).toBe(before! + 2);

    const [lastAdmin, unknown] = await Promise.all([
      skb(['users', 'disable', '--email', 'boss@example.org']),
      skb(['users', 'sign-out', '--email', 'nobody@example.org']),
    ]);
    expect(lastAdmin.code).toBe(1);
    expect(lastAdmin.stderr).toMatch(/last active admin/);
    expect(unknown.stderr).toMatch(/No user with email nobody@example\.org/);
  });
});
