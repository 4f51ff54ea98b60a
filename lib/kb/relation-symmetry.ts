import type pg from 'pg';

type Queryable = Pick<pg.Pool, 'query'>;

/** A (source type, relation, target type) combination and its edge count, as the import tallies them. */
export interface TripleCount { source: number; relation: number; target: number; n: number }

/**
 * Relations that may be symmetric judged from their typed triples alone: each (A, r, B) needs an (B, r, A) with
 * as many edges. Only these are checked edge by edge; any other relation has an edge without its reverse.
 */
export function symmetryCandidates(triples: readonly TripleCount[]): number[] {
  const counts = new Map(triples.map((t) => [`${t.source}|${t.relation}|${t.target}`, t.n]));
  const failed = new Set<number>();
  for (const t of triples) {
    if (counts.get(`${t.target}|${t.relation}|${t.source}`) !== t.n) failed.add(t.relation);
  }
  return [...new Set(triples.map((t) => t.relation))].filter((r) => !failed.has(r)).sort((a, b) => a - b);
}

/**
 * The relations among `candidates` whose every edge (a, b) in `edgeTable` (staging or live) has its reverse
 * (b, a). One query per candidate: it stops at the first edge without a reverse (found at once for a relation
 * that is not symmetric), else probes the primary key once per edge.
 */
export async function findSymmetricRelations(db: Queryable, edgeTable: string, kbId: number, candidates: readonly number[]): Promise<number[]> {
  const symmetric: number[] = [];
  for (const typeId of candidates) {
    const { rows } = await db.query(
      `SELECT 1 FROM ${edgeTable} e
        WHERE e.kb_id = $1 AND e.type_id = $2
          AND NOT EXISTS (SELECT 1 FROM ${edgeTable} r
                           WHERE r.kb_id = $1 AND r.source_id = e.target_id AND r.type_id = $2 AND r.target_id = e.source_id)
        LIMIT 1`,
      [kbId, typeId],
    );
    if (rows.length === 0) symmetric.push(typeId);
  }
  return symmetric;
}

/** Records which relations of a knowledge base are symmetric; run inside the transaction that publishes its edges. */
export async function markSymmetricRelations(db: Queryable, kbId: number, symmetric: readonly number[]): Promise<void> {
  await db.query('UPDATE edge_type SET is_symmetric = (id = ANY($2::int[])) WHERE kb_id = $1', [kbId, symmetric]);
}
