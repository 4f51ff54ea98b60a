import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { dataDir } from '../db/paths';
import { AppError, badRequest, notFound } from '../errors';

/**
 * Files uploaded for an import. Each upload is streamed to `<data dir>/uploads/<id>/<original name>`:
 * the readers recognise files by name and extension, and error reports name the file the curator
 * picked. Uploads live until their import ends, or a day when no import uses them.
 *
 * An upload belongs to the user who sent it (its folder's `.owner` file holds their id): to anyone else
 * its id is unknown, so an id seen in a log or a shared screen cannot import or remove someone's file.
 */

export interface SavedUpload {
  uploadId: string;
  name: string;
  bytes: number;
}

const UPLOAD_ID = /^[0-9a-f]{32}$/;
// Written under a dot name, which no upload may have, and renamed once complete: a half-written file is never imported.
const PARTIAL = '.partial';
const OWNER = '.owner';
const DEFAULT_LIMIT_MB = 2048;
export const UPLOAD_MAX_AGE_MS = 24 * 60 * 60 * 1000;

export const uploadsDir = (): string => path.join(dataDir(), 'uploads');

/** The largest upload accepted, from SKB_UPLOAD_MAX_MB (default 2048 MB). */
export function uploadLimitBytes(): number {
  const raw = process.env.SKB_UPLOAD_MAX_MB;
  const mb = raw ? Number(raw) : DEFAULT_LIMIT_MB;
  if (!Number.isFinite(mb) || mb <= 0) throw new Error(`SKB_UPLOAD_MAX_MB must be a positive number of megabytes, not "${raw}"`);
  return Math.floor(mb * 1024 * 1024);
}

export function formatLimit(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MB` : `${bytes} bytes`;
}

const tooLarge = (limit: number) =>
  new AppError(413, `The file is larger than the upload limit of ${formatLimit(limit)} (SKB_UPLOAD_MAX_MB)`);

/** The file name as given, refused when it could leave its folder or hide (path separators, a leading dot). */
export function uploadName(raw: string | null): string {
  const name = (raw ?? '').trim();
  if (!name) throw badRequest('The file name is missing: PUT /api/uploads?name=<file name>');
  if (/[/\\\x00-\x1f\x7f]/.test(name) || name.startsWith('.') || Buffer.byteLength(name) > 255) {
    throw badRequest(`Invalid file name "${name}": it must not contain "/", "\\" or control characters, start with ".", or exceed 255 bytes`);
  }
  return name;
}

/**
 * Streams a request body to a new upload folder, counting bytes; past `limit` it stops, removes what
 * it wrote and throws a 413. `declaredBytes` (Content-Length) lets an oversized upload fail at once.
 */
export async function saveUpload(body: ReadableStream<Uint8Array> | null, rawName: string | null, limit: number, ownerId: number, declaredBytes?: number): Promise<SavedUpload> {
  const name = uploadName(rawName);
  if (declaredBytes !== undefined && declaredBytes > limit) throw tooLarge(limit);
  if (!body) throw badRequest('The upload is empty: send the file as the request body');

  const uploadId = crypto.randomBytes(16).toString('hex');
  const dir = path.join(uploadsDir(), uploadId);
  await fs.promises.mkdir(dir, { recursive: true });
  let bytes = 0;
  try {
    await fs.promises.writeFile(path.join(dir, OWNER), String(ownerId), { flag: 'wx' });
    await pipeline(
      Readable.fromWeb(body as NodeReadableStream<Uint8Array>),
      async function* count(chunks: AsyncIterable<Uint8Array>) {
        for await (const chunk of chunks) {
          bytes += chunk.length;
          if (bytes > limit) throw tooLarge(limit);
          yield chunk;
        }
      },
      fs.createWriteStream(path.join(dir, PARTIAL), { flags: 'wx' }),
    );
    if (bytes === 0) throw badRequest('The upload is empty: send the file as the request body');
    await fs.promises.rename(path.join(dir, PARTIAL), path.join(dir, name));
  } catch (err) {
    await fs.promises.rm(dir, { recursive: true, force: true });
    throw err;
  }
  return { uploadId, name, bytes };
}

async function ownedBy(id: string, ownerId: number): Promise<boolean> {
  const owner = await fs.promises.readFile(path.join(uploadsDir(), id, OWNER), 'utf8').catch(() => null);
  return owner === String(ownerId);
}

/**
 * The saved files of this user's uploads, in order; 400 for a malformed id, 404 for one that is not
 * (or no longer) there or is someone else's: the two cannot be told apart.
 */
export async function uploadPaths(ids: string[], ownerId: number): Promise<string[]> {
  return Promise.all(
    ids.map(async (id) => {
      if (!UPLOAD_ID.test(id)) throw badRequest(`Invalid upload id "${id}"`);
      const dir = path.join(uploadsDir(), id);
      const names = (await fs.promises.readdir(dir).catch(() => [])).filter((n) => !n.startsWith('.'));
      if (names.length !== 1 || !(await ownedBy(id, ownerId))) throw notFound(`No upload ${id}: uploads are removed when their import ends and after a day`);
      return path.join(dir, names[0]!);
    }),
  );
}

/** Removes this user's uploads among `ids`; others' and malformed ids are left alone. */
export async function removeUploads(ids: string[], ownerId: number): Promise<void> {
  await Promise.all(
    ids.filter((id) => UPLOAD_ID.test(id)).map(async (id) => {
      if (await ownedBy(id, ownerId)) await fs.promises.rm(path.join(uploadsDir(), id), { recursive: true, force: true });
    }),
  );
}

/** The upload a saved file belongs to, or null for a file elsewhere (e.g. one the CLI imported). */
export function uploadIdOf(file: string): string | null {
  const dir = path.dirname(file);
  const id = path.basename(dir);
  return path.dirname(dir) === uploadsDir() && UPLOAD_ID.test(id) ? id : null;
}

/** Removes uploads older than `maxAgeMs` (abandoned forms, imports that never started), except `keep`. */
export async function sweepUploads(maxAgeMs: number, keep: ReadonlySet<string>): Promise<string[]> {
  const entries = await fs.promises.readdir(uploadsDir()).catch(() => [] as string[]);
  const cutoff = Date.now() - maxAgeMs;
  const removed: string[] = [];
  for (const id of entries) {
    if (!UPLOAD_ID.test(id) || keep.has(id)) continue;
    const dir = path.join(uploadsDir(), id);
    const stat = await fs.promises.stat(dir).catch(() => null);
    if (!stat || stat.mtimeMs >= cutoff) continue;
    await fs.promises.rm(dir, { recursive: true, force: true });
    removed.push(id);
  }
  return removed;
}
