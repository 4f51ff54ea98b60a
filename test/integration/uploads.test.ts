import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../lib/errors';
import { removeUploads, saveUpload, sweepUploads, uploadIdOf, uploadLimitBytes, uploadName, uploadPaths, uploadsDir } from '../../lib/ingest/uploads';

/** A request body as route handlers get it: a web stream, here of the given chunks, delivered one by one. */
function body(chunks: (string | Uint8Array)[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let i = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks[i++];
      if (chunk === undefined) controller.close();
      else controller.enqueue(typeof chunk === 'string' ? encoder.encode(chunk) : chunk);
    },
  });
}

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  const err = await promise.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

// Two users' ids: uploads belong to whoever sent them.
const ALICE = 7;
const BOB = 8;

const folders = () => (fs.existsSync(uploadsDir()) ? fs.readdirSync(uploadsDir()) : []);

describe('uploads: streamed to disk under their own name', () => {
  const saved = { dataDir: process.env.SKB_DATA_DIR, limit: process.env.SKB_UPLOAD_MAX_MB };
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skb-uploads-'));
    process.env.SKB_DATA_DIR = dir;
  });
  beforeEach(() => fs.rmSync(uploadsDir(), { recursive: true, force: true }));
  afterAll(() => {
    fs.rmSync(dir, { recursive: true, force: true });
    for (const [key, value] of [['SKB_DATA_DIR', saved.dataDir], ['SKB_UPLOAD_MAX_MB', saved.limit]] as const) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  });

  it('saves a body chunk by chunk and counts its bytes', async () => {
    const chunk = new Uint8Array(64 * 1024).fill(0x61);
    const upload = await saveUpload(body([chunk, chunk, 'tail\n', 'Crohn – ü\n']), 'nodes.jsonl', 1024 * 1024, ALICE);
    const expected = 2 * chunk.length + Buffer.byteLength('tail\nCrohn – ü\n');
    expect(upload).toEqual({ uploadId: expect.stringMatching(/^[0-9a-f]{32}$/), name: 'nodes.jsonl', bytes: expected });
    const [file] = await uploadPaths([upload.uploadId], ALICE);
    expect(file).toBe(path.join(uploadsDir(), upload.uploadId, 'nodes.jsonl'));
    expect(fs.statSync(file!).size).toBe(expected);
    expect(fs.readFileSync(file!, 'utf8').endsWith('tail\nCrohn – ü\n')).toBe(true);
    // Only the finished file and its owner's id are in the folder (no partial left behind).
    expect(fs.readdirSync(path.dirname(file!)).sort()).toEqual(['.owner', 'nodes.jsonl']);
    expect(uploadIdOf(file!)).toBe(upload.uploadId);
    expect(uploadIdOf('/tmp/nodes.jsonl')).toBeNull();
  });

  it('keeps names with spaces and unicode, and gives every upload its own folder', async () => {
    const a = await saveUpload(body(['x']), '  Edges (IBD) – v2.csv ', 100, ALICE);
    const b = await saveUpload(body(['y']), 'Edges (IBD) – v2.csv', 100, ALICE);
    expect(a.name).toBe('Edges (IBD) – v2.csv');
    expect(a.uploadId).not.toBe(b.uploadId);
    const paths = await uploadPaths([b.uploadId, a.uploadId], ALICE);
    expect(paths.map((p) => fs.readFileSync(p, 'utf8'))).toEqual(['y', 'x']);
  });

  it('stops past the limit with a 413 naming it, and leaves no file', async () => {
    const chunk = new Uint8Array(1000);
    const err = await rejection(saveUpload(body([chunk, chunk, chunk]), 'big.csv', 2500, ALICE));
    expect(err.status).toBe(413);
    expect(err.message).toBe('The file is larger than the upload limit of 2500 bytes (SKB_UPLOAD_MAX_MB)');
    expect(folders()).toEqual([]);

    // Exactly at the limit is fine.
    expect((await saveUpload(body([chunk, chunk]), 'ok.csv', 2000, ALICE)).bytes).toBe(2000);
  });

  it('refuses a declared Content-Length over the limit before reading anything', async () => {
    let pulled = false;
    const stream = new ReadableStream<Uint8Array>({ pull: () => void (pulled = true) }, { highWaterMark: 0 });
    const err = await rejection(saveUpload(stream, 'big.csv', 1024 * 1024, ALICE, 5 * 1024 * 1024));
    expect(err.status).toBe(413);
    expect(err.message).toContain('1 MB');
    expect(pulled).toBe(false);
    expect(folders()).toEqual([]);
  });

  it('reads the limit from SKB_UPLOAD_MAX_MB, 2048 MB by default', () => {
    delete process.env.SKB_UPLOAD_MAX_MB;
    expect(uploadLimitBytes()).toBe(2048 * 1024 * 1024);
    process.env.SKB_UPLOAD_MAX_MB = '5';
    expect(uploadLimitBytes()).toBe(5 * 1024 * 1024);
    process.env.SKB_UPLOAD_MAX_MB = 'lots';
    expect(() => uploadLimitBytes()).toThrow(/SKB_UPLOAD_MAX_MB/);
  });

  it('answers 400 to an empty body and leaves no folder', async () => {
    expect((await rejection(saveUpload(body([]), 'empty.csv', 100, ALICE))).status).toBe(400);
    expect((await rejection(saveUpload(null, 'empty.csv', 100, ALICE))).status).toBe(400);
    expect(folders()).toEqual([]);
  });

  it('refuses names that could leave their folder or hide', async () => {
    for (const bad of ['../edges.csv', 'a/b.csv', 'a\\b.csv', '.env', '..', '.', '', '   ', 'a\u0000b.csv', 'line\nbreak.csv', 'x'.repeat(256)]) {
      expect(() => uploadName(bad), JSON.stringify(bad)).toThrow(AppError);
      const err = await rejection(saveUpload(body(['data']), bad, 100, ALICE));
      expect(err.status, JSON.stringify(bad)).toBe(400);
    }
    expect(() => uploadName(null)).toThrow(/file name is missing/);
    expect(folders()).toEqual([]);
  });

  it('accepts only well-formed ids of uploads that exist', async () => {
    const upload = await saveUpload(body(['a,b\n']), 'edges.csv', 100, ALICE);
    for (const bad of ['../' + upload.uploadId, upload.uploadId.toUpperCase(), 'abc', '', `${upload.uploadId}/edges.csv`]) {
      const err = await rejection(uploadPaths([upload.uploadId, bad], ALICE));
      expect(err.status).toBe(400);
      expect(err.message).toContain('Invalid upload id');
    }
    const missing = await rejection(uploadPaths(['0'.repeat(32)], ALICE));
    expect(missing.status).toBe(404);
    expect(missing.message).toContain('No upload');
  });

  it("answers another user's upload as if it did not exist, and does not remove it", async () => {
    const mine = await saveUpload(body(['a,b\n']), 'edges.csv', 100, ALICE);
    const theirs = await rejection(uploadPaths([mine.uploadId], BOB));
    const missing = await rejection(uploadPaths(['0'.repeat(32)], BOB));
    expect([theirs.status, theirs.message]).toEqual([404, missing.message.replace('0'.repeat(32), mine.uploadId)]);
    await removeUploads([mine.uploadId], BOB);
    expect(await uploadPaths([mine.uploadId], ALICE)).toEqual([path.join(uploadsDir(), mine.uploadId, 'edges.csv')]);
  });

  it('removes uploads by id, ignoring malformed ids', async () => {
    const a = await saveUpload(body(['a']), 'a.csv', 100, ALICE);
    const b = await saveUpload(body(['b']), 'b.csv', 100, ALICE);
    fs.writeFileSync(path.join(dir, 'outside.txt'), 'keep me');
    await removeUploads([a.uploadId, '..', '../outside.txt'], ALICE);
    expect(folders()).toEqual([b.uploadId]);
    expect(fs.existsSync(path.join(dir, 'outside.txt'))).toBe(true);
  });

  it('sweeps uploads older than the age given, except those kept', async () => {
    const fresh = await saveUpload(body(['f']), 'fresh.csv', 100, ALICE);
    const old = await saveUpload(body(['o']), 'old.csv', 100, ALICE);
    const inUse = await saveUpload(body(['u']), 'in-use.csv', 100, ALICE);
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 3600 * 1000);
    for (const u of [old, inUse]) fs.utimesSync(path.join(uploadsDir(), u.uploadId), twoDaysAgo, twoDaysAgo);
    const removed = await sweepUploads(24 * 3600 * 1000, new Set([inUse.uploadId]));
    expect(removed).toEqual([old.uploadId]);
    expect(folders().sort()).toEqual([fresh.uploadId, inUse.uploadId].sort());
  });
});
