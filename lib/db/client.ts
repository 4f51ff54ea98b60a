import pg from 'pg';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from './generated/client';
import { APP_SESSION_OPTIONS } from './session';

/**
 * One pg pool per process, shared by Prisma (through the driver adapter) and by the raw SQL of the
 * graph hot paths; a second one on the read replica when DATABASE_READ_URL names one. Kept on globalThis
 * so Next's dev reloads do not open a pool per reload.
 */
interface DbHandles {
  url: string;
  pool: pg.Pool;
  prisma: PrismaClient;
}

const globalForDb = globalThis as unknown as { __skbDb?: DbHandles; __skbReadDb?: DbHandles };

export function databaseUrl(): string {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is not set. Start the app with `npm start` (embedded database) or set DATABASE_URL.');
  return url;
}

/** The read replica's connection string (DATABASE_READ_URL), or null when none is configured. */
export function readDatabaseUrl(): string | null {
  return process.env.DATABASE_READ_URL || null;
}

function handles(): DbHandles {
  const url = databaseUrl();
  const existing = globalForDb.__skbDb;
  if (existing && existing.url === url) return existing;
  globalForDb.__skbDb = openHandles({ connectionString: url, options: APP_SESSION_OPTIONS });
  return globalForDb.__skbDb;
}

/**
 * Sessions on the replica are read-only even if DATABASE_READ_URL names a writable server (a promoted
 * replica, or the primary itself): a write sent to the read pool by mistake fails instead of going unnoticed.
 * The application name tells them apart from the primary pool's in pg_stat_activity.
 */
const READ_SESSION = { options: `${APP_SESSION_OPTIONS} -c default_transaction_read_only=on`, application_name: 'skb-read' };

function readHandles(): DbHandles {
  const url = readDatabaseUrl();
  if (!url) return handles();
  const existing = globalForDb.__skbReadDb;
  if (existing && existing.url === url) return existing;
  globalForDb.__skbReadDb = openHandles({ connectionString: url, ...READ_SESSION });
  return globalForDb.__skbReadDb;
}

function openHandles(config: pg.PoolConfig & { connectionString: string }): DbHandles {
  const pool = new pg.Pool({ ...config, max: Number(process.env.SKB_DB_POOL_SIZE ?? 10) });
  // An idle connection the server ends (restart, failover, pg_terminate_backend) is reported here; without a
  // listener it would be an uncaught exception. The pool has already dropped it and opens a new one on demand.
  pool.on('error', (err) => console.warn(`Database connection lost: ${err.message}`));
  // The same on a connection that is checked out: the pool does not listen then. Its next statement fails
  // (a connection error the route wrappers answer), and the pool discards it on release.
  pool.on('connect', (client) => client.on('error', () => undefined));
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  return { url: config.connectionString, pool, prisma };
}

export function db(): PrismaClient {
  return handles().prisma;
}

export function pool(): pg.Pool {
  return handles().pool;
}

/**
 * The pool for the explorer's reads: the read replica (read-only sessions) when DATABASE_READ_URL is set,
 * else the primary's pool. Writes, and reads that must see writes just made, use pool().
 */
export function readPool(): pg.Pool {
  return readHandles().pool;
}

/** Prisma on readPool(). */
export function readDb(): PrismaClient {
  return readHandles().prisma;
}

export async function closeDb(): Promise<void> {
  const all = [globalForDb.__skbDb, globalForDb.__skbReadDb];
  globalForDb.__skbDb = globalForDb.__skbReadDb = undefined;
  for (const h of all) {
    if (!h) continue;
    await h.prisma.$disconnect();
    await h.pool.end();
  }
}

/** Socket errors and SQLSTATEs of a lost or unreachable server: class 08, 57P01-57P03 (shutdown, crash, starting). */
const CONNECTION_CODES = /^(ECONNRESET|ECONNREFUSED|ETIMEDOUT|EPIPE|ENOTFOUND|EAI_AGAIN|08...|57P0[123])$/;
/** What the driver adapter calls them once Prisma has wrapped the error. */
const CONNECTION_KINDS = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout']);
/** Prisma's own: cannot reach the server, server closed the connection. */
const PRISMA_CONNECTION_CODES = new Set(['P1001', 'P1002', 'P1017']);
/** pg reports a socket that ended mid-query, or a pool that could not connect in time, by message only. */
const CONNECTION_MESSAGES = /Connection terminated|Client has encountered a connection error|timeout exceeded when trying to connect|Connection is closed/i;

/**
 * Whether an error means the database connection was lost or could not be made (rather than a failing
 * statement), whether pg threw it directly or Prisma wrapped it. Such a request did not fail on its own
 * merits: a read can be retried on a new connection, anything else answers 503.
 */
export function isConnectionError(err: unknown, depth = 0): boolean {
  if (err === null || typeof err !== 'object' || depth > 4) return false;
  const e = err as { code?: unknown; kind?: unknown; originalCode?: unknown; message?: unknown; cause?: unknown; meta?: { driverAdapterError?: unknown } };
  if (typeof e.code === 'string' && (CONNECTION_CODES.test(e.code) || PRISMA_CONNECTION_CODES.has(e.code))) return true;
  if (typeof e.originalCode === 'string' && CONNECTION_CODES.test(e.originalCode)) return true;
  if (typeof e.kind === 'string' && CONNECTION_KINDS.has(e.kind)) return true;
  if (typeof e.message === 'string' && CONNECTION_MESSAGES.test(e.message)) return true;
  return isConnectionError(e.cause, depth + 1) || isConnectionError(e.meta?.driverAdapterError, depth + 1);
}
