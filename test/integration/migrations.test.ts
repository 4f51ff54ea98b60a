import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrate, MigrationError, readMigrations } from '../../lib/db/migrate';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

async function tables(url: string): Promise<string[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  const { rows } = await c.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1`,
  );
  await c.end();
  return rows.map((r) => r.table_name);
}

async function history(url: string): Promise<{ migration_name: string; checksum: string }[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  const { rows } = await c.query(`SELECT migration_name, checksum FROM "_prisma_migrations" ORDER BY migration_name`);
  await c.end();
  return rows;
}

/** A migrations folder with the real migrations plus extra ones written by the test. */
function migrationsWith(extra: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skb-migrations-'));
  for (const m of readMigrations()) {
    fs.mkdirSync(path.join(dir, m.name));
    fs.writeFileSync(path.join(dir, m.name, 'migration.sql'), m.sql);
  }
  for (const [name, sql] of Object.entries(extra)) {
    fs.mkdirSync(path.join(dir, name));
    fs.writeFileSync(path.join(dir, name, 'migration.sql'), sql);
  }
  return dir;
}

describe('migration runner', () => {
  let db: TestDatabase;
  beforeEach(async () => {
    db = await createTestDatabase();
  });
  afterEach(async () => {
    await db.drop();
  });

  it('applies every migration once and records it with Prisma\'s checksum', async () => {
    const first = await migrate(db.url);
    expect(first.applied).toEqual(readMigrations().map((m) => m.name));
    const second = await migrate(db.url);
    expect(second.applied).toEqual([]);
    expect(second.alreadyApplied).toEqual(first.applied);
    expect(await history(db.url)).toEqual(readMigrations().map((m) => ({ migration_name: m.name, checksum: m.checksum })));
    expect(await tables(db.url)).toEqual(expect.arrayContaining(['app_user', 'knowledge_base', 'entity', 'edge', 'audit_log']));
  });

  it('is safe when two processes migrate at once: one applies, the other finds nothing to do', async () => {
    const results = await Promise.all([migrate(db.url), migrate(db.url)]);
    const applied = results.map((r) => r.applied.length).sort();
    expect(applied).toEqual([0, readMigrations().length]);
    expect(await history(db.url)).toHaveLength(readMigrations().length);
  });

  it('leaves the database as it was when a migration fails, naming the migration and line', async () => {
    await migrate(db.url);
    const before = await tables(db.url);
    const dir = migrationsWith({
      '9000_ok': 'CREATE TABLE should_not_survive (id int);\n',
      '9001_broken': 'CREATE TABLE also_not (id int);\n\nSELECT * FROM no_such_table;\n',
    });
    const failure = migrate(db.url, readMigrations(dir));
    await expect(failure).rejects.toThrow(MigrationError);
    await expect(failure).rejects.toThrow(/Migration 9001_broken failed: .*no_such_table.*line 3/);
    expect(await tables(db.url)).toEqual(before);
    expect((await history(db.url)).map((h) => h.migration_name)).toEqual(readMigrations().map((m) => m.name));
  });

  it('refuses to run when an applied migration was edited afterwards', async () => {
    const dir = migrationsWith({ '9000_extra': 'CREATE TABLE extra_one (id int);\n' });
    await migrate(db.url, readMigrations(dir));
    fs.writeFileSync(path.join(dir, '9000_extra', 'migration.sql'), 'CREATE TABLE extra_two (id int);\n');
    await expect(migrate(db.url, readMigrations(dir))).rejects.toThrow(/9000_extra was changed after it was applied/);
  });

  it('refuses to run against a database that has migrations this version does not know', async () => {
    await migrate(db.url, readMigrations(migrationsWith({ '9000_future': 'SELECT 1;\n' })));
    await expect(migrate(db.url)).rejects.toThrow(/9000_future, which this version of SKB Studio does not know/);
  });
});
