import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEmbedded } from '../../lib/db/embedded';
import { readMigrations } from '../../lib/db/migrate';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { runSkb } from '../support/run-skb';

const SKB = path.join(process.cwd(), 'bin', 'skb.mjs');
const embeddedMode = process.env.SKB_TEST_DB === 'embedded';

/**
 * Runs the real `skb` command. On the postgres suite it gets DATABASE_URL; on the embedded suite it
 * gets no DATABASE_URL and a data folder of its own, exactly as on a fresh checkout.
 */
describe('skb CLI', () => {
  let testDb: TestDatabase | undefined;
  let env: NodeJS.ProcessEnv;
  let dataDir: string;
  let previousDataDir: string | undefined;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'skb-cli-'));
    // The cases that stand in for a running app serve the embedded database of this folder from here.
    previousDataDir = process.env.SKB_DATA_DIR;
    process.env.SKB_DATA_DIR = dataDir;
    env = { ...process.env, SKB_DATA_DIR: dataDir, DATABASE_URL: '' };
    if (!embeddedMode) {
      testDb = await createTestDatabase();
      env.DATABASE_URL = testDb.url;
    }
  });
  afterAll(async () => {
    process.env.SKB_DATA_DIR = previousDataDir;
    await testDb?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  function skb(args: string[], input?: string) {
    const r = spawnSync(process.execPath, [SKB, ...args], { env, input, encoding: 'utf8', timeout: 120_000 });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  }

  it('has --help on the program and on every command', () => {
    const top = skb(['--help']);
    expect(top.code).toBe(0);
    for (const command of ['migrate', 'create-user', 'users', 'demo', 'serve', 'import', 'generate', 'kb']) {
      expect(top.stdout).toContain(command);
      const help = skb([command, '--help']);
      expect(help.code, command).toBe(0);
      expect(help.stdout).toContain(`Usage: skb ${command}`);
    }
  });

  it('migrates, and reports as JSON', () => {
    const first = skb(['migrate', '--json']);
    expect(first.code, first.stderr).toBe(0);
    const names = readMigrations().map((m) => m.name);
    expect(JSON.parse(first.stdout)).toEqual({ applied: names, alreadyApplied: [] });
    const second = skb(['migrate', '--json']);
    expect(JSON.parse(second.stdout)).toEqual({ applied: [], alreadyApplied: names });
  });

  it('creates a user with the password from stdin, and lists it', () => {
    const created = skb(['create-user', '--email', 'First.Admin@example.org', '--role', 'admin', '--json'], 'a strong password\n');
    expect(created.code, created.stderr).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({ email: 'first.admin@example.org', role: 'ADMIN' });
    const users = JSON.parse(skb(['users', '--json']).stdout) as { email: string; role: string }[];
    expect(users).toEqual([expect.objectContaining({ email: 'first.admin@example.org', role: 'ADMIN' })]);
  });

  it('explains bad input and exits non-zero without writing', () => {
    const badRole = skb(['create-user', '--email', 'x@example.org', '--role', 'king'], 'a strong password\n');
    expect(badRole.code).not.toBe(0);
    expect(badRole.stderr).toContain('Unknown role "king"');
    const shortPassword = skb(['create-user', '--email', 'x@example.org', '--role', 'rater'], 'short\n');
    expect(shortPassword.code).toBe(1);
    expect(shortPassword.stderr).toContain('must be at least 8 characters');
    const duplicate = skb(['create-user', '--email', 'first.admin@example.org', '--role', 'rater'], 'a strong password\n');
    expect(duplicate.code).toBe(1);
    expect(duplicate.stderr).toContain('already exists');
    const users = JSON.parse(skb(['users', '--json']).stdout) as unknown[];
    expect(users).toHaveLength(1);
  });

  it('loads the demo once', () => {
    const first = JSON.parse(skb(['demo', '--json']).stdout) as { knowledgeBases: { slug: string; loaded: boolean; entities: number }[] };
    expect(first.knowledgeBases.map((k) => [k.slug, k.loaded])).toEqual([['demo-catalogue', true], ['demo-brand-registry', true]]);
    expect(first.knowledgeBases[0]!.entities).toBeGreaterThan(200);
    const second = JSON.parse(skb(['demo', '--json']).stdout) as { knowledgeBases: { loaded: boolean }[] };
    expect(second.knowledgeBases.every((k) => !k.loaded)).toBe(true);
  });

  /**
   * The query-set commands in a row. On the embedded suite they go through an embedded database this process
   * serves, as when the app is running: each command then skips opening PGlite itself (about a second each),
   * which the cases above already cover.
   */
  it('imports, describes, exports and scores a query set', async () => {
    const server = embeddedMode ? await openEmbedded({ owner: 'server' }) : undefined;
    const cli = async (args: string[]) => runSkb(args, env);
    try {
      const ibd = path.resolve(process.cwd(), '..', 'shared', 'data', 'primekg-ibd');
      expect((await cli(['import', '--kb', 'ibd', '--format', 'text-graph', '--json', path.join(ibd, 'nodes.jsonl'), path.join(ibd, 'edges.csv')])).code).toBe(0);
      const csv = path.join(ibd, 'stark_prime_qa_ibd_subset.csv');
      const imported = await cli(['queries', 'import', '--kb', 'ibd', '--set', 'ibd-qa', '--format', 'stark', '--origin', 'synthesized', '--json', csv]);
      expect(imported.code, imported.stderr).toBe(0);
      expect(JSON.parse(imported.stdout)).toMatchObject({ setName: 'ibd-qa', queries: 829, unresolved: { count: 0 } });

      const stats = JSON.parse((await cli(['queries', 'stats', '--set', 'ibd-qa', '--json'])).stdout) as { queries: number; multiAnswer: number };
      const rows = fs.readFileSync(csv, 'utf8').trim().split('\n').slice(1);
      expect(stats.queries).toBe(rows.length);
      expect(stats.multiAnswer).toBe(rows.filter((r) => r.endsWith(']"')).length);

      const out = fs.mkdtempSync(path.join(os.tmpdir(), 'skb-cli-export-'));
      const exported = await cli(['queries', 'export', '--set', 'ibd-qa', '--format', 'stark', '--out', out, '--json']);
      expect(exported.code, exported.stderr).toBe(0);
      expect(fs.readFileSync(path.join(out, 'stark_qa.csv')).equals(fs.readFileSync(csv))).toBe(true);
      expect(fs.readdirSync(out)).toEqual(['stark_qa.csv']);

      const again = await cli(['queries', 'import', '--kb', 'ibd', '--set', 'ibd-qa', '--format', 'stark', csv]);
      expect(again.code).toBe(1);
      expect(again.stderr).toMatch(/A query set named "ibd-qa" exists/);

      const run = path.join(out, 'one.run');
      const first = rows[0]!.split(',')[0]!;
      fs.writeFileSync(run, `${first} Q0 144 1 3.5 mine\n`);
      const scored = await cli(['eval', '--set', 'ibd-qa', '--run', run, '--json']);
      expect(scored.code, scored.stderr).toBe(0);
      expect(JSON.parse(scored.stdout)).toMatchObject({ name: 'mine', status: 'DONE', summary: { overall: { queries: 829, notRetrieved: 828 } } });
      fs.writeFileSync(run, `nope Q0 144 1 3.5 mine\n`);
      const refused = await cli(['eval', '--set', 'ibd-qa', '--run', run]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/one\.run: 1 query not in the query set \(first: nope at line 1\)/);
      fs.rmSync(out, { recursive: true, force: true });
    } finally {
      await server?.stop();
    }
  });

  // Measured 11.6 s on PostgreSQL and 20.1 s on the embedded database with all 829 queries; the first 40 rank as
  // the CLI does at a fraction of that, and the index build (the rest) is the same.
  it('scores the BM25 baseline with chosen parameters, and refuses parameters out of range', async () => {
    const server = embeddedMode ? await openEmbedded({ owner: 'server' }) : undefined;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skb-cli-bm25-'));
    try {
      const lines = fs.readFileSync(path.resolve(process.cwd(), '..', 'shared', 'data', 'primekg-ibd', 'stark_prime_qa_ibd_subset.csv'), 'utf8').split('\n');
      const small = path.join(dir, 'small.csv');
      fs.writeFileSync(small, `${lines.slice(0, 41).join('\n')}\n`);
      const imported = await runSkb(['queries', 'import', '--kb', 'ibd', '--set', 'ibd-small', '--format', 'stark', small], env);
      expect(imported.code, imported.stderr).toBe(0);
      const tuned = await runSkb(['eval', '--set', 'ibd-small', '--baseline', '--k1', '2', '--b', '0.5', '--json'], env);
      expect(tuned.code, tuned.stderr).toBe(0);
      expect(JSON.parse(tuned.stdout)).toMatchObject({ name: 'BM25 (k1 2, b 0.5)', status: 'DONE', summary: { overall: { queries: 40 } } });
      // The analyzer options build an index of their own, then rank with it.
      const analysed = await runSkb(['eval', '--set', 'ibd-small', '--baseline', '--stop-words', '--stemming', '--json'], env);
      expect(analysed.code, analysed.stderr).toBe(0);
      expect(JSON.parse(analysed.stdout)).toMatchObject({ name: 'BM25 (k1 1.2, b 0.75; stop words removed, Porter stemming)', status: 'DONE' });
      const withoutBaseline = await runSkb(['eval', '--set', 'ibd-small', '--run', small, '--stemming'], env);
      expect(withoutBaseline.code).toBe(1);
      expect(withoutBaseline.stderr).toMatch(/--stop-words and --stemming go with --baseline/);
      const outOfRange = await runSkb(['eval', '--set', 'ibd-small', '--baseline', 'bm25', '--b', '1.5'], env);
      expect(outOfRange.code).toBe(1);
      expect(outOfRange.stderr).toMatch(/--b: b must be between 0 and 1/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
      await server?.stop();
    }
  });

  // Only the embedded database has an owner process to share with.
  if (embeddedMode) it('works through the running app\'s embedded database', async () => {
    // Stand in for a running app: this process serves the embedded database, the CLI connects to it.
    const server = await openEmbedded({ owner: 'server' });
    try {
      const created = await runSkb(['create-user', '--email', 'while-running@example.org', '--role', 'rater', '--json'], env, 'a strong password\n');
      expect(created.code, created.stderr).toBe(0);
      const client = new pg.Client({ connectionString: server.url });
      await client.connect();
      const { rows } = await client.query(`SELECT role FROM app_user WHERE email = 'while-running@example.org'`);
      await client.end();
      expect(rows).toEqual([{ role: 'RATER' }]);
    } finally {
      await server.stop();
    }
  });
});
