import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { migrationsDir } from './paths';

/**
 * Applies prisma/migrations/<name>/migration.sql in name order, each exactly once.
 *
 * All pending migrations run in one transaction behind a transaction-scoped advisory lock, so two
 * processes starting at once serialise (the second finds nothing left to do) and a failing migration
 * leaves the database exactly as it was. History is kept in Prisma's own `_prisma_migrations` table
 * with Prisma's checksum, so the Prisma CLI sees the same history where it can run.
 */
export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

export interface MigrationResult {
  applied: string[];
  alreadyApplied: string[];
}

export class MigrationError extends Error {
  constructor(
    message: string,
    readonly migration?: string,
  ) {
    super(message);
    this.name = 'MigrationError';
  }
}

// An arbitrary constant that identifies this runner's lock among the database's advisory locks.
const MIGRATION_LOCK_KEY = 720_731_001;

const HISTORY_TABLE = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

export function readMigrations(dir = migrationsDir()): Migration[] {
  if (!fs.existsSync(dir)) throw new MigrationError(`No migrations folder at ${dir}`);
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort()
    .map((name) => {
      const file = path.join(dir, name, 'migration.sql');
      if (!fs.existsSync(file)) throw new MigrationError(`Migration ${name} has no migration.sql`, name);
      const bytes = fs.readFileSync(file);
      return { name, sql: bytes.toString('utf8'), checksum: crypto.createHash('sha256').update(bytes).digest('hex') };
    });
}

export async function migrate(connectionString: string, migrations = readMigrations()): Promise<MigrationResult> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    await client.query(HISTORY_TABLE);
    const { rows } = await client.query<{ migration_name: string; checksum: string }>(
      `SELECT migration_name, checksum FROM "_prisma_migrations"
        WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
    );
    const done = new Map(rows.map((r) => [r.migration_name, r.checksum]));
    checkHistory(done, migrations);

    const pending = migrations.filter((m) => !done.has(m.name));
    for (const m of pending) {
      try {
        await client.query(m.sql);
      } catch (err) {
        throw new MigrationError(`Migration ${m.name} failed: ${describePgError(err, m.sql)}`, m.name);
      }
      await client.query(
        `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, finished_at, applied_steps_count)
         VALUES ($1, $2, $3, now(), now(), 1)`,
        [crypto.randomUUID(), m.checksum, m.name],
      );
    }
    await client.query('COMMIT');
    return { applied: pending.map((m) => m.name), alreadyApplied: [...done.keys()] };
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    await client.end();
  }
}

/** An applied migration must still exist unchanged: editing history would make databases diverge. */
function checkHistory(done: Map<string, string>, migrations: Migration[]): void {
  const known = new Map(migrations.map((m) => [m.name, m.checksum]));
  for (const [name, checksum] of done) {
    const current = known.get(name);
    if (current === undefined) {
      throw new MigrationError(`The database has migration ${name}, which this version of SKB Studio does not know. Is the app older than the database?`, name);
    }
    if (current !== checksum) {
      throw new MigrationError(`Migration ${name} was changed after it was applied (checksum differs). Add a new migration instead.`, name);
    }
  }
}

function describePgError(err: unknown, sql: string): string {
  const e = err as { message?: string; position?: string };
  const message = e.message ?? String(err);
  if (!e.position) return message;
  const offset = Number(e.position) - 1;
  const line = sql.slice(0, offset).split('\n').length;
  return `${message} (migration.sql line ${line})`;
}
