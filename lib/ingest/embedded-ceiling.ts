import fs from 'node:fs';
import type pg from 'pg';
import { payloadTooLarge } from '../errors';

/**
 * The largest input (bytes of all files together) an import into the embedded database (PGlite) takes:
 * 512 MB, room for a STaRK-Prime-sized knowledge base (333 MB). PGlite runs PostgreSQL single-threaded in
 * WASM with at most 2 GiB of memory; measured (docs/benchmarks.md, "Embedded database ceiling"), its memory
 * stayed near 0.9 GB up to 166 MB of input, but each input MB cost 3.4-4.4 s and 14-20 MB of disk, more as
 * the input grows: past this size an import would run for hours (STaRK-MAG: about 2 GB) instead of failing fast.
 */
export const EMBEDDED_IMPORT_CEILING_BYTES = 512 * 2 ** 20;

/** The ceiling in force: SKB_EMBEDDED_IMPORT_MAX_MB overrides it (at one's own risk of a late failure). */
export function embeddedImportCeiling(env: Record<string, string | undefined> = process.env): number {
  const mb = Number(env.SKB_EMBEDDED_IMPORT_MAX_MB);
  return env.SKB_EMBEDDED_IMPORT_MAX_MB && Number.isFinite(mb) && mb >= 0 ? mb * 2 ** 20 : EMBEDDED_IMPORT_CEILING_BYTES;
}

/** Whether a connection reaches the embedded database, PGlite, rather than a PostgreSQL server. */
export async function isEmbeddedDatabase(db: Pick<pg.Pool, 'query'>): Promise<boolean> {
  const { rows } = await db.query<{ version: string }>('SELECT version()');
  return rows[0]!.version.includes('PGlite');
}

/** The input's size as the ceiling counts it: the files' sizes, read from the file system, not the files. */
export function inputBytes(files: string[]): number {
  return files.reduce((sum, f) => sum + fs.statSync(f).size, 0);
}

/**
 * Why an input of this size may not go into the embedded database, or null when it may. Asked before any
 * row is read, so a too-large import fails in a second instead of after an hour.
 */
export function embeddedImportRefusal(bytes: number, ceiling = embeddedImportCeiling()): string | null {
  if (bytes <= ceiling) return null;
  const mb = (n: number) => `${Math.round(n / 2 ** 20).toLocaleString('en')} MB`;
  return (
    `This input is ${mb(bytes)}; the embedded database takes imports of at most ${mb(ceiling)}. ` +
    'Set DATABASE_URL to a PostgreSQL server (e.g. DATABASE_URL=postgresql://user@host:5432/skb) and import again.'
  );
}

/** Refuses (413) an input past the ceiling when the connection reaches the embedded database. */
export async function refuseOversizedEmbeddedImport(db: Pick<pg.Pool, 'query'>, files: string[]): Promise<void> {
  const refusal = embeddedImportRefusal(inputBytes(files));
  if (refusal && (await isEmbeddedDatabase(db))) throw payloadTooLarge(refusal);
}
