import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import type { EmbeddingIssue } from './vector';

/** One vector as a file gives it, before its checks; `where` locates it for error messages. */
export interface EmbeddingRecord {
  id: string;
  values: ArrayLike<unknown>;
  where: Pick<EmbeddingIssue, 'file' | 'line' | 'row'>;
}

export type EmbeddingInput = AsyncIterable<EmbeddingRecord | EmbeddingIssue>;

export const EMBEDDING_FORMATS = ['jsonl', 'npy'] as const;
export type EmbeddingFormat = (typeof EMBEDDING_FORMATS)[number];

/** `onBytes` is told how many bytes of the file have been read so far, for progress. */
export type ByteProgress = (bytesRead: number) => void;

function counted(stream: fs.ReadStream, start: number, onBytes?: ByteProgress): fs.ReadStream {
  let read = start;
  if (onBytes) stream.on('data', (chunk) => onBytes((read += chunk.length)));
  return stream;
}

/**
 * JSONL, one `{"id": "...", "vector": [...]}` per line (blank lines skipped). A number id is taken as its
 * decimal text, as STaRK's integer node ids are. Python's json writes NaN and Infinity as bare words, which
 * are not JSON: such a line is named as holding them rather than as merely malformed.
 */
export async function* readJsonl(file: string, name = path.basename(file), onBytes?: ByteProgress): EmbeddingInput {
  const lines = readline.createInterface({ input: counted(fs.createReadStream(file), 0, onBytes), crlfDelay: Infinity });
  let line = 0;
  for await (const text of lines) {
    line++;
    if (!text.trim()) continue;
    const at = { file: name, line };
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      yield /[\s,[:](-?Infinity|NaN)\s*[,\]]/.test(text)
        ? { ...at, field: 'vector', reason: 'holds NaN or Infinity' }
        : { ...at, field: 'line', reason: 'is not valid JSON' };
      continue;
    }
    if (!value || typeof value !== 'object' || Array.isArray(value)) {
      yield { ...at, field: 'line', reason: 'must be a JSON object with "id" and "vector"' };
      continue;
    }
    const { id, vector } = value as { id?: unknown; vector?: unknown };
    if (typeof id !== 'string' && !(typeof id === 'number' && Number.isSafeInteger(id))) {
      yield { ...at, field: 'id', reason: id === undefined ? 'is missing' : 'must be a string or an integer' };
    } else if (!Array.isArray(vector)) {
      yield { ...at, field: 'vector', reason: vector === undefined ? 'is missing' : 'must be an array of numbers' };
    } else {
      yield { id: String(id), values: vector, where: at };
    }
  }
}

export interface NpyHeader {
  rows: number;
  cols: number;
  /** Where the data begins (the header is padded to a multiple of 64 bytes). */
  dataOffset: number;
}

const MAGIC = Buffer.from([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59]);

/**
 * Reads an .npy header (format versions 1, 2 and 3) from the file's first bytes: only a 2-D, C-order,
 * little-endian float32 array ('<f4') is taken. Returns the problem otherwise.
 */
export function parseNpyHeader(head: Buffer, file: string): NpyHeader | EmbeddingIssue {
  const bad = (reason: string): EmbeddingIssue => ({ file, field: 'header', reason });
  if (head.length < 10 || !head.subarray(0, 6).equals(MAGIC)) {
    return bad(head.length < 10 && MAGIC.subarray(0, head.length).equals(head) ? 'is truncated' : 'is not an .npy file (no \\x93NUMPY magic)');
  }
  const major = head[6]!;
  if (major < 1 || major > 3) return bad(`has format version ${major}.${head[7]}; versions 1 to 3 are read`);
  const lengthBytes = major === 1 ? 2 : 4;
  if (head.length < 8 + lengthBytes) return bad('is truncated');
  const length = major === 1 ? head.readUInt16LE(8) : head.readUInt32LE(8);
  const start = 8 + lengthBytes;
  if (head.length < start + length) return bad(`is truncated: it declares ${length} bytes, the file has ${head.length - start}`);
  const dict = head.subarray(start, start + length).toString(major === 3 ? 'utf8' : 'latin1');
  const descr = /['"]descr['"]\s*:\s*['"]([^'"]*)['"]/.exec(dict)?.[1];
  const fortran = /['"]fortran_order['"]\s*:\s*(True|False)/.exec(dict)?.[1];
  const shape = /['"]shape['"]\s*:\s*\(([^)]*)\)/.exec(dict)?.[1];
  if (descr === undefined || fortran === undefined || shape === undefined) return bad(`is not a valid .npy header (descr, fortran_order and shape expected): ${dict.trim().slice(0, 200)}`);
  // '=' and '|' are only little-endian float32 on a little-endian machine writing it; numpy writes '<f4'.
  if (descr !== '<f4') return bad(`dtype is '${descr}'; float32 ('<f4') is required (numpy: array.astype('<f4'))`);
  if (fortran === 'True') return bad('the array is in Fortran order; C order is required (numpy: np.ascontiguousarray)');
  const dims = shape.split(',').map((s) => s.trim()).filter(Boolean);
  if (dims.length !== 2 || !dims.every((d) => /^\d+$/.test(d))) return bad(`shape (${shape.trim()}) is not 2-D (rows, dimensions)`);
  const [rows, cols] = dims.map(Number) as [number, number];
  if (!rows || !cols) return bad(`shape (${rows}, ${cols}) is empty`);
  return { rows, cols, dataOffset: start + length };
}

/** Reads the header: its fixed first 12 bytes, then as many as they declare (at most 1 MiB). */
async function readHeader(file: string, name: string): Promise<NpyHeader | EmbeddingIssue> {
  const handle = await fs.promises.open(file, 'r');
  try {
    const probe = Buffer.alloc(12);
    const { bytesRead } = await handle.read(probe, 0, 12, 0);
    const head = probe.subarray(0, bytesRead);
    if (bytesRead < 12 || !head.subarray(0, 6).equals(MAGIC)) return parseNpyHeader(head, name);
    const declared = head[6] === 1 ? head.readUInt16LE(8) + 10 : head.readUInt32LE(8) + 12;
    const full = Buffer.alloc(Math.min(declared, 1 << 20));
    const read = await handle.read(full, 0, full.length, 0);
    return parseNpyHeader(full.subarray(0, read.bytesRead), name);
  } finally {
    await handle.close();
  }
}

/** The ids file: one id per line; a final line break (or \r\n line ends) add no id. */
export async function readIdList(file: string): Promise<string[]> {
  const ids = (await fs.promises.readFile(file, 'utf8')).split('\n').map((l) => l.replace(/\r$/, ''));
  if (ids.at(-1) === '') ids.pop();
  return ids;
}

/**
 * A float32 .npy matrix with its ids file (row i is the id on line i + 1). The header, the ids' count and
 * the data's length are checked before any row is read; rows are then read in order, one at a time.
 */
export async function* readNpy(file: string, idsFile: string, names = { file: path.basename(file), ids: path.basename(idsFile) }, onBytes?: ByteProgress): EmbeddingInput {
  const header = await readHeader(file, names.file);
  if ('field' in header) {
    yield header;
    return;
  }
  const ids = await readIdList(idsFile);
  if (ids.length !== header.rows) {
    yield { file: names.ids, field: 'ids', reason: `has ${ids.length.toLocaleString('en')} ids for the ${header.rows.toLocaleString('en')} rows of ${names.file}` };
    return;
  }
  const rowBytes = header.cols * 4;
  const data = (await fs.promises.stat(file)).size - header.dataOffset;
  if (data !== header.rows * rowBytes) {
    const complete = Math.floor(data / rowBytes);
    yield data < header.rows * rowBytes
      ? { file: names.file, row: complete, field: 'data', reason: `is truncated: the file ends in row ${complete} of ${header.rows} (shape (${header.rows}, ${header.cols}) float32 needs ${header.rows * rowBytes} bytes of data, it has ${data})` }
      : { file: names.file, row: header.rows, field: 'data', reason: `has ${data - header.rows * rowBytes} bytes after the last row of shape (${header.rows}, ${header.cols})` };
    return;
  }
  let row = 0;
  let pending: Buffer = Buffer.alloc(0);
  for await (const chunk of counted(fs.createReadStream(file, { start: header.dataOffset, highWaterMark: 1 << 20 }), header.dataOffset, onBytes)) {
    pending = pending.length ? Buffer.concat([pending, chunk as Buffer]) : (chunk as Buffer);
    let at = 0;
    for (; at + rowBytes <= pending.length; at += rowBytes, row++) {
      // Copied out: the values must not alias the stream's buffer, and must be 4-byte aligned.
      const values = new Float32Array(header.cols);
      pending.copy(Buffer.from(values.buffer), 0, at, at + rowBytes);
      yield { id: ids[row]!, values, where: { file: names.file, row } };
    }
    pending = pending.subarray(at);
  }
}

/** The format a file name suggests: .npy is numpy's, anything else is read as JSONL. */
export const formatOf = (fileName: string): EmbeddingFormat => (/\.npy$/i.test(fileName) ? 'npy' : 'jsonl');

/** Opens an embeddings file (with its ids file for .npy), reporting its problems as issues. */
export function readEmbeddingFile(file: { path: string; name: string }, ids: { path: string; name: string } | null, onBytes?: ByteProgress): EmbeddingInput {
  if (formatOf(file.name) === 'npy') {
    if (!ids) return single({ file: file.name, field: 'ids', reason: 'an .npy file needs its ids file (one id per line, row i on line i + 1)' });
    return readNpy(file.path, ids.path, { file: file.name, ids: ids.name }, onBytes);
  }
  if (ids) return single({ file: ids.name, field: 'ids', reason: 'an ids file goes with an .npy file only; JSONL lines carry their ids' });
  return readJsonl(file.path, file.name, onBytes);
}

async function* single(issue: EmbeddingIssue): EmbeddingInput {
  yield issue;
}
