import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

const SKB = path.join(process.cwd(), 'bin', 'skb.mjs');

/** `skb users` account commands, run as the real command on a database of their own. */
describe('skb users disable|enable|reset-password|sign-out', () => {
  let testDb: TestDatabase | undefined;
  let env: NodeJS.ProcessEnv;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'skb-cli-users-'));
    env = { ...process.env, SKB_DATA_DIR: dataDir, DATABASE_URL: '' };
    if (process.env.SKB_TEST_DB !== 'embedded') {
      testDb = await createTestDatabase();
      env.DATABASE_URL = testDb.url;
    }
  });
  afterAll(async () => {
    await testDb?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const skb = (args: string[], input?: string) => {
    const r = spawnSync(process.execPath, [SKB, ...args], { env, input, encoding: 'utf8', timeout: 120_000 });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  };
  const sessionVersion = async (email: string) => {
    if (!testDb) return undefined;
    const client = new pg.Client({ connectionString: testDb.url });
    await client.connect();
    try {
      return (await client.query<{ v: number }>('SELECT session_version AS v FROM app_user WHERE email = $1', [email])).rows[0]?.v;
    } finally {
      await client.end();
    }
  };

  it('disables, enables, resets a password and signs a user out, and keeps the last admin', async () => {
    expect(skb(['create-user', '--email', 'boss@example.org', '--role', 'admin'], 'a strong password\n').code).toBe(0);
    expect(skb(['create-user', '--email', 'ann@example.org', '--role', 'annotator'], 'a strong password\n').code).toBe(0);

    const disabled = skb(['users', 'disable', '--email', 'ANN@example.org', '--json']);
    expect(disabled.code, disabled.stderr).toBe(0);
    expect(JSON.parse(disabled.stdout)).toMatchObject({ email: 'ann@example.org', disabled: true });
    expect(skb(['users']).stdout).toMatch(/ann@example\.org \(disabled\)/);
    expect(skb(['users', 'enable', '--email', 'ann@example.org']).stdout).toContain('Enabled ann@example.org');

    const before = await sessionVersion('ann@example.org');
    const weak = skb(['users', 'reset-password', '--email', 'ann@example.org'], 'password123\n');
    expect(weak.code).toBe(1);
    expect(weak.stderr).toMatch(/too common/);
    const reset = skb(['users', 'reset-password', '--email', 'ann@example.org'], 'another-Strong-pass-4\n');
    expect(reset.code, reset.stderr).toBe(0);
    expect(skb(['users', 'sign-out', '--email', 'ann@example.org']).stdout).toContain('Signed ann@example.org out everywhere');
    if (before !== undefined) expect(await sessionVersion('ann@example.org')).toBe(before + 2);

    const lastAdmin = skb(['users', 'disable', '--email', 'boss@example.org']);
    expect(lastAdmin.code).toBe(1);
    expect(lastAdmin.stderr).toMatch(/last active admin/);
    const unknown = skb(['users', 'sign-out', '--email', 'nobody@example.org']);
    expect(unknown.stderr).toMatch(/No user with email nobody@example\.org/);
  });
});
