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
