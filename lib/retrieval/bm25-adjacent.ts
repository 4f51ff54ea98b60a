import type { Queryable } from '../db/transaction';

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
 * The adjacency of these terms in these entities' documents: per term and entity, the block that can hold
 * the entity is found by a key probe, and only its two bytes are read (a slice of the stored value, fetched
 * without the rest; shipping whole blocks of common words took 100 ms for 1,000 candidates). An entity not in
 * its block gets NULL, skipped here: a filter on its place in the block computed that place twice (2,000
 * probes of two common words at Amazon size, 57 ms against 28).
 */
export async function readAdjacency(db: Queryable, indexId: number, termIds: number[], entityIds: number[]): Promise<AdjacencyLookup> {
  const { rows } = await db.query<{ term: number; entity: number; a: Buffer | null }>(
    `SELECT q.term_id AS term, c.id AS entity, substring(b.adjacent FROM 2 * array_position(b.entity_ids, c.id) - 1 FOR 2) AS a
       FROM unnest($2::int[]) q(term_id) CROSS JOIN unnest($3::int[]) c(id)
      CROSS JOIN LATERAL (SELECT b.entity_ids, b.adjacent FROM bm25_block b
                           WHERE b.index_id = $1 AND b.term_id = q.term_id AND b.last_entity >= c.id ORDER BY b.last_entity LIMIT 1) b
      WHERE b.adjacent IS NOT NULL`, [indexId, termIds, entityIds]);
  const byTerm = new Map<number, Map<number, number>>();
  for (const row of rows) {
    if (!row.a) continue;
    let of = byTerm.get(row.term);
    if (!of) byTerm.set(row.term, (of = new Map()));
    of.set(row.entity, row.a.readUInt16BE(0));
  }
  return (termId, entityId) => byTerm.get(termId)?.get(entityId);
}
