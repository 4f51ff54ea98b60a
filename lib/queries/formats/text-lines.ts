import type { Readable } from 'node:stream';

/** What the streaming readers accept: the whole text, its bytes, or a byte (or string) stream. */
export type TextInput = string | Buffer | Readable;

/** One line of the input, numbered from 1, without its LF (a CR before it is kept). */
export interface PhysicalLine {
  line: number;
  text: string;
  /** False when the line's bytes are not UTF-8; `text` then has U+FFFD in place of the bad bytes. */
  utf8: boolean;
}

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const lenient = new TextDecoder('utf-8', { ignoreBOM: true });

async function* byteChunks(input: Buffer | Readable): AsyncGenerator<Buffer> {
  if (Buffer.isBuffer(input)) {
    yield input;
    return;
  }
  for await (const chunk of input) yield typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
}

/**
 * The lines of a UTF-8 text, in batches (one per chunk read), split on LF only so line numbers are those a
 * person counts in the file. A leading byte-order mark is dropped. The last line is the text after the last LF,
 * empty when the text ends with one. Each chunk is decoded whole; only a chunk that is not valid UTF-8 is
 * decoded line by line, to mark exactly the bad lines.
 */
export async function* physicalLineBatches(input: TextInput): AsyncGenerator<PhysicalLine[]> {
  let line = 0;
  const lines = (text: string, utf8: boolean): PhysicalLine[] => text.split('\n').map((t) => ({ line: ++line, text: t, utf8 }));
  const decode = (bytes: Buffer): PhysicalLine[] => {
    try {
      return lines(strict.decode(bytes), true);
    } catch {
      const out: PhysicalLine[] = [];
      let start = 0;
      for (;;) {
        const nl = bytes.indexOf(0x0a, start);
        const piece = bytes.subarray(start, nl === -1 ? bytes.length : nl);
        try {
          out.push(...lines(strict.decode(piece), true));
        } catch {
          out.push(...lines(lenient.decode(piece), false));
        }
        if (nl === -1) return out;
        start = nl + 1;
      }
    }
  };

  if (typeof input === 'string') {
    yield lines(input.startsWith('\uFEFF') ? input.slice(1) : input, true);
    return;
  }
  let pending: Buffer = Buffer.alloc(0);
  let bomChecked = false;
  for await (const chunk of byteChunks(input)) {
    let data = pending.length > 0 ? Buffer.concat([pending, chunk]) : chunk;
    if (!bomChecked) {
      // The mark may arrive split over chunks: decide once three bytes are in.
      if (data.length < BOM.length) {
        pending = data;
        continue;
      }
      bomChecked = true;
      if (data.subarray(0, BOM.length).equals(BOM)) data = data.subarray(BOM.length);
    }
    const lastNl = data.lastIndexOf(0x0a);
    if (lastNl === -1) {
      pending = data;
      continue;
    }
    yield decode(data.subarray(0, lastNl));
    pending = data.subarray(lastNl + 1);
  }
  yield decode(pending);
}

/** A line's text without the CR of a CRLF line end. */
export function withoutCr(text: string): string {
  return text.endsWith('\r') ? text.slice(0, -1) : text;
}
