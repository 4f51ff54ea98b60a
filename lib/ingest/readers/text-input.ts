import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse';
import { IngestIssue } from '../source';

/** Counts bytes read across all passes over the input files, for progress. */
export class ByteCounter {
  done = 0;
  constructor(readonly total: number) {}

  static forFiles(files: string[], passes: number): ByteCounter {
    return new ByteCounter(files.reduce((sum, f) => sum + fs.statSync(f).size, 0) * passes);
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function decode(bytes: Uint8Array): string | null {
  try {
    return utf8.decode(bytes);
  } catch {
    return null;
  }
}

/** The file name a person recognises in an error report. */
export function displayName(file: string): string {
  return path.basename(file);
}

/**
 * Lines of a text file, streamed in batches (one per chunk read), numbered from 1, without line ends (LF or
 * CRLF) and without a BOM. A line that is not valid UTF-8 comes out as an issue instead. Each chunk is decoded
 * whole (fast); only a chunk that fails to decode is decoded line by line to find the bad lines. Batches keep
 * the per-line cost low on files of millions of lines.
 */
export async function* readLineBatches(file: string, counter: ByteCounter): AsyncGenerator<({ line: number; text: string } | IngestIssue)[]> {
  const name = displayName(file);
  let pending: Buffer = Buffer.alloc(0);
  let line = 0;
  let first = true;
  const decodeLines = (bytes: Buffer): ({ line: number; text: string } | IngestIssue)[] => {
    const out: ({ line: number; text: string } | IngestIssue)[] = [];
    const whole = decode(bytes);
    if (whole !== null) {
      for (const text of whole.split('\n')) {
        line += 1;
        out.push({ line, text: text.endsWith('\r') ? text.slice(0, -1) : text });
      }
      return out;
    }
    let start = 0;
    for (;;) {
      const nl = bytes.indexOf(0x0a, start);
      const end = nl === -1 ? bytes.length : nl;
      line += 1;
      const text = decode(bytes.subarray(start, end > start && bytes[end - 1] === 0x0d ? end - 1 : end));
      out.push(text === null ? new IngestIssue(name, line, 'not valid UTF-8 text') : { line, text });
      if (nl === -1) return out;
      start = nl + 1;
    }
  };
  // A batch is a chunk's lines, and the caller builds a row of each: with 1 MB chunks (25,000 edges) the batch's
  // objects outlived the young generation and were copied and promoted, a quarter of the edges' reading spent
  // collecting garbage; 64 KB batches die young.
  for await (const chunk of fs.createReadStream(file, { highWaterMark: 64 * 1024 })) {
    const buf = chunk as Buffer;
    counter.done += buf.length;
    let data = pending.length ? Buffer.concat([pending, buf]) : buf;
    if (first) {
      first = false;
      if (data[0] === 0xef && data[1] === 0xbb && data[2] === 0xbf) data = data.subarray(3);
    }
    const lastNl = data.lastIndexOf(0x0a);
    if (lastNl === -1) {
      pending = Buffer.from(data);
      continue;
    }
    yield decodeLines(data.subarray(0, lastNl));
    pending = Buffer.from(data.subarray(lastNl + 1));
  }
  if (pending.length > 0) yield decodeLines(pending);
}

/** The same lines one at a time, for readers whose files are not large enough to need batches. */
export async function* readLines(file: string, counter: ByteCounter): AsyncGenerator<{ line: number; text: string } | IngestIssue> {
  for await (const batch of readLineBatches(file, counter)) yield* batch;
}

/** Items as batches of one, where a caller takes batches and a reader has none. */
export async function* singles<T>(items: AsyncIterable<T>): AsyncGenerator<T[]> {
  for await (const item of items) yield [item];
}

/** JSON Lines: one JSON object a line; blank lines are skipped, anything else unparsable is an issue. */
export async function* readJsonLines(file: string, counter: ByteCounter): AsyncGenerator<{ line: number; value: Record<string, unknown> } | IngestIssue> {
  const name = displayName(file);
  for await (const item of readLines(file, counter)) {
    if (item instanceof IngestIssue) {
      yield item;
      continue;
    }
    if (item.text.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(item.text);
    } catch (err) {
      yield new IngestIssue(name, item.line, `invalid JSON: ${(err as Error).message}`);
      continue;
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      yield new IngestIssue(name, item.line, 'expected a JSON object');
      continue;
    }
    yield { line: item.line, value: value as Record<string, unknown> };
  }
}

export interface CsvOptions {
  delimiter?: string;
  /** The header the file must start with; records are then checked to have as many fields. */
  header?: string[];
}

/**
 * Tab-separated values without quoting, the fast path for large edge files: a tab or a line end can
 * not occur inside a field. Yields batches of the non-blank lines' fields with their line numbers.
 */
export async function* readTsvBatches(file: string, counter: ByteCounter): AsyncGenerator<({ line: number; fields: string[] } | IngestIssue)[]> {
  for await (const batch of readLineBatches(file, counter)) {
    const rows: ({ line: number; fields: string[] } | IngestIssue)[] = [];
    for (const item of batch) {
      if (item instanceof IngestIssue) rows.push(item);
      else if (item.text.trim() !== '') rows.push({ line: item.line, fields: item.text.split('\t') });
    }
    yield rows;
  }
}

/**
 * Delimited text (CSV with RFC 4180 quoting, or TSV), streamed. Yields the header's fields for each
 * record with its line number; records with the wrong number of fields or invalid UTF-8 are issues.
 */
export async function* readDelimited(file: string, counter: ByteCounter, opts: CsvOptions = {}): AsyncGenerator<{ line: number; fields: string[] } | IngestIssue> {
  const name = displayName(file);
  const parser = fs.createReadStream(file).on('data', (chunk) => (counter.done += (chunk as Buffer).length)).pipe(
    parse({
      delimiter: opts.delimiter ?? ',',
      encoding: null,
      bom: true,
      info: true,
      relax_column_count: true,
      relax_quotes: opts.delimiter === '\t',
      quote: opts.delimiter === '\t' ? false : '"',
      skip_empty_lines: true,
    }),
  );
  let expected = opts.header?.length;
  let first = true;
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: Buffer[]; info: { lines: number } }>) {
      const fields = record.map((b) => decode(b));
      if (fields.some((f) => f === null)) {
        yield new IngestIssue(name, info.lines, 'not valid UTF-8 text');
        continue;
      }
      const values = fields as string[];
      if (first) {
        first = false;
        if (opts.header) {
          const got = values.map((v) => v.trim());
          if (got.join('|') !== opts.header.join('|')) {
            throw new IngestIssue(name, info.lines, `expected the header "${opts.header.join(opts.delimiter ?? ',')}", found "${got.join(opts.delimiter ?? ',')}"`);
          }
          continue;
        }
        expected = values.length;
      }
      if (values.length !== expected) {
        yield new IngestIssue(name, info.lines, `expected ${expected} fields, found ${values.length}`);
        continue;
      }
      yield { line: info.lines, fields: values };
    }
  } catch (err) {
    if (err instanceof IngestIssue) throw err;
    const e = err as { message: string; lines?: number };
    // A broken quote makes the rest of the file unreadable: report where and stop.
    throw new IngestIssue(name, e.lines ?? 0, `unreadable CSV: ${e.message}`);
  }
}
