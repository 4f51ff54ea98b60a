import pg from 'pg';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from './generated/client';

/**
 * One pg pool per process, shared by Prisma (through the driver adapter) and by the raw SQL of the
 * graph hot paths. Kept on globalThis so Next's dev reloads do not open a pool per reload.
 */
interface DbHandles {
  url: string;
  pool: pg.Pool;
  prisma: PrismaClient;
}

const globalForDb = globalThis as unknown as { __skbDb?: DbHandles };

export function databaseUrl(): string {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is not set. Start the app with `npm start` (embedded database) or set DATABASE_URL.');
  return url;
}

function handles(): DbHandles {
  const url = databaseUrl();
  const existing = globalForDb.__skbDb;
  if (existing && existing.url === url) return existing;
  const pool = new pg.Pool({ connectionString: url, max: Number(process.env.SKB_DB_POOL_SIZE ?? 10) });
  // An idle connection the server ends (restart, failover, pg_terminate_backend) is reported here; without a
  // listener it would be an uncaught exception. The pool has already dropped it and opens a new one on demand.
  pool.on('error', (err) => console.warn(`Database connection lost: ${err.message}`));
  // The same on a connection that is checked out: the pool does not listen then. Its next statement fails
  // (a connection error the route wrappers answer), and the pool discards it on release.
  pool.on('connect', (client) => client.on('error', () => undefined));
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  globalForDb.__skbDb = { url, pool, prisma };
  return globalForDb.__skbDb;
}

export function db(): PrismaClient {
  return handles().prisma;
}

export function pool(): pg.Pool {
  return handles().pool;
}

export async function closeDb(): Promise<void> {
  const h = globalForDb.__skbDb;
  if (!h) return;
  globalForDb.__skbDb = undefined;
  await h.prisma.$disconnect();
  await h.pool.end();
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
