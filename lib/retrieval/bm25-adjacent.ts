import os from 'node:os';
import type { Queryable } from '../db/transaction';
import { blocksByTerm } from './bm25-blocks';

/**
 * Which terms stand next to a term in a document, two bytes per posting (`bm25_block.adjacent`, migration
 * 0038_bm25_adjacent): the high byte has a bit set for each term just before one of its occurrences, the low
 * byte one for each term just after. A term's bit is one of eight, by a hash of its id. A quoted phrase's words
 * must stand next to each other, so a candidate whose bytes lack the bits is ruled out without reading its
 * text; one whose bytes have them may still not hold the phrase, and its text decides. A word found once in a
 * document passes a wrong neighbour one time in eight.
 */

/** The bit of a term among a byte's eight (Fibonacci hashing: the top three bits of the id times 2^32/φ). */
export const adjacencyBit = (termId: number): number => 1 << (Math.imul(termId, 0x9e3779b1) >>> 29);

/**
 * Adds to `into[id]` the adjacency of every occurrence of each term of a document (`terms`: its term ids in
 * the order written, the first `length` of them).
 */
export function addAdjacency(terms: Int32Array, length: number, into: Uint16Array): void {
  for (let i = 0; i < length; i++) {
    let bits = into[terms[i]!]!;
    if (i > 0) bits |= adjacencyBit(terms[i - 1]!) << 8;
    if (i + 1 < length) bits |= adjacencyBit(terms[i + 1]!);
    into[terms[i]!] = bits;
  }
}

/** Two bytes per posting, high byte first, as `bm25_block.adjacent` stores them (hex, for COPY and `decode`). */
export const adjacencyHex = (values: Uint16Array): string => {
  const buf = Buffer.alloc(2 * values.length);
  for (let i = 0; i < values.length; i++) buf.writeUInt16BE(values[i]!, 2 * i);
  return buf.toString('hex');
};

/**
 * Whether term `a` may stand just before term `b` in a document whose adjacency for them is `ofA` and `ofB`
 * (undefined when not known: an index built before adjacency was stored).
 */
export function mayFollow(a: number, ofA: number | undefined, b: number, ofB: number | undefined): boolean {
  if (ofA !== undefined && !(ofA & adjacencyBit(b))) return false;
  if (ofB !== undefined && !((ofB >> 8) & adjacencyBit(a))) return false;
  return true;
}

/** A term's adjacency in an entity's document, or undefined when not stored. */
export type AdjacencyLookup = (termId: number, entityId: number) => number | undefined;

/**
 * Each term's adjacency for all its postings, in posting order (as its blocks hold them), or null when its
 * blocks have none (an index built before adjacency was stored). Read whole rather than per candidate: 2,000
 * key probes for the two bytes of a candidate took 30-45 ms for two common words at Amazon size, and read
 * whole the bytes stay in the process beside the postings (2 bytes a posting to their 5).
 */
export async function readTermAdjacency(db: Queryable, indexId: number, termIds: number[]): Promise<Map<number, Uint16Array | null>> {
  const { rows } = await db.query<{ id: number; a: Buffer | null }>(
    `SELECT term_id AS id, adjacent AS a FROM bm25_block WHERE index_id = $1 AND term_id = ANY($2::int[]) ORDER BY term_id, last_entity`,
    [indexId, termIds]);
  const result = new Map<number, Uint16Array | null>();
  for (const [id, blocks] of blocksByTerm(rows)) {
    result.set(id, blocks.every((b) => b.a !== null) ? fromBigEndian(blocks.map((b) => b.a!)) : null);
  }
  return result;
}

/**
 * Blocks of big-endian pairs as one array of numbers: copied once into it, then swapped in place natively
 * (reading them one by one took 20-60 ms for a word in 957k documents).
 */
function fromBigEndian(blocks: Buffer[]): Uint16Array {
  const out = new Uint16Array(blocks.reduce((n, b) => n + b.length, 0) / 2);
  const bytes = Buffer.from(out.buffer);
  let at = 0;
  for (const b of blocks) at += b.copy(bytes, at);
  if (os.endianness() === 'LE') bytes.swap16();
  return out;
}
