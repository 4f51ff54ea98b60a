import type { Queryable } from '../db/transaction';
import { BLOCK_POSTINGS, int4ArrayLength, readInt4Array } from './bm25-blocks';

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
 * The adjacency of these terms in these entities' documents. A term with fewer blocks than there are
 * entities has all its blocks read; otherwise each entity's block is found by a key probe, and each block read
 * once.
 */
export async function readAdjacency(db: Queryable, indexId: number, terms: { id: number; df: number }[], entityIds: number[]): Promise<AdjacencyLookup> {
  const whole = terms.filter((t) => Math.ceil(t.df / BLOCK_POSTINGS) <= entityIds.length).map((t) => t.id);
  const probed = terms.filter((t) => !whole.includes(t.id)).map((t) => t.id);
  const { rows } = await db.query<{ term: number; e: Buffer; a: Buffer }>(
    `WITH keys AS (
       SELECT b.term_id, b.last_entity FROM bm25_block b WHERE b.index_id = $1 AND b.term_id = ANY($2::int[])
       UNION
       SELECT q.term_id, k.last_entity FROM unnest($3::int[]) q(term_id) CROSS JOIN unnest($4::int[]) c(id)
        CROSS JOIN LATERAL (SELECT b.last_entity FROM bm25_block b WHERE b.index_id = $1 AND b.term_id = q.term_id AND b.last_entity >= c.id
                             ORDER BY b.last_entity LIMIT 1) k)
     SELECT b.term_id AS term, array_send(b.entity_ids) AS e, b.adjacent AS a
       FROM keys JOIN bm25_block b ON b.index_id = $1 AND b.term_id = keys.term_id AND b.last_entity = keys.last_entity
      WHERE b.adjacent IS NOT NULL`, [indexId, whole, probed, entityIds]);
  const wanted = new Set(entityIds);
  const byTerm = new Map<number, Map<number, number>>();
  for (const row of rows) {
    const ids = new Int32Array(int4ArrayLength(row.e));
    readInt4Array(row.e, ids, 0);
    let of = byTerm.get(row.term);
    if (!of) byTerm.set(row.term, (of = new Map()));
    for (let i = 0; i < ids.length; i++) if (wanted.has(ids[i]!)) of.set(ids[i]!, row.a.readUInt16BE(2 * i));
  }
  return (termId, entityId) => byTerm.get(termId)?.get(entityId);
}
