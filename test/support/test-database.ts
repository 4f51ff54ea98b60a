import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openEmbedded } from '../../lib/db/embedded';

export interface TestDatabase {
  url: string;
  kind: 'embedded' | 'postgres';
  drop(): Promise<void>;
}

/** The PostgreSQL server the postgres suite creates its scratch databases on. */
export function postgresServerUrl(): string {
  return process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
}

/**
 * A fresh, empty database for one test file: a scratch database on the PostgreSQL server, or an
 * embedded PGlite in a temporary folder. Which one is chosen by SKB_TEST_DB (set per vitest project).
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const kind = process.env.SKB_TEST_DB;
  if (kind === 'postgres') return createPostgresDatabase();
  if (kind === 'embedded') return createEmbeddedDatabase();
  throw new Error(`SKB_TEST_DB must be "embedded" or "postgres" (got ${kind ?? 'nothing'}); run the tests through vitest projects.`);
}

async function createPostgresDatabase(): Promise<TestDatabase> {
  const server = postgresServerUrl();
  const name = `skb_test_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: server });
  try {
    await admin.connect();
  } catch (err) {
    throw new Error(`The PostgreSQL test suite needs a server at ${server} (set TEST_DATABASE_URL): ${(err as Error).message}`);
  }
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(server);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    kind: 'postgres',
    async drop() {
      const c = new pg.Client({ connectionString: server });
      await c.connect();
      // A pool's end() resolves before its sockets have closed; FORCE would then send FATAL to a client
      // that no longer listens for errors. Give them a moment to go first.
      for (let i = 0; i < 40; i++) {
        const { rows } = await c.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [name]);
        if (rows[0].n === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

async function createEmbeddedDatabase(): Promise<TestDatabase> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skb-test-'));
  process.env.SKB_DATA_DIR = dir;
  const db = await openEmbedded({ owner: 'cli' });
  return {
    url: db.url,
    kind: 'embedded',
    async drop() {
      await db.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
