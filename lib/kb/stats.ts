import type pg from 'pg';
import { notFound } from '../errors';

type Queryable = Pick<pg.Pool, 'query'>;

export interface KbStatistics {
  slug: string;
  entities: number;
  edges: number;
  entityTypes: { name: string; count: number }[];
  /** `symmetric`: every edge (a, b) has its reverse (b, a); `count` counts both. */
  relations: { name: string; count: number; symmetric: boolean }[];
  triples: { source: string; relation: string; target: string; count: number }[];
  degreeHistogram: { min: number; max: number; count: number }[];
  hubs: { id: number; name: string; type: string; degree: number }[];
}

/** Schema statistics, all computed at import; only the hub list is read live (an index scan per type). */
export async function kbStatistics(db: Queryable, kbId: number, hubCount = 10): Promise<KbStatistics> {
  const kb = await db.query<{ slug: string; entity_count: number; edge_count: string; degree_histogram: KbStatistics['degreeHistogram'] }>(
    'SELECT slug, entity_count, edge_count, degree_histogram FROM knowledge_base WHERE id = $1', [kbId]);
  const row = kb.rows[0];
  if (!row) throw notFound(`No knowledge base ${kbId}`);
  const [types, relations, triples, hubs] = await Promise.all([
    db.query<{ name: string; count: number }>('SELECT name, entity_count AS count FROM node_type WHERE kb_id = $1 ORDER BY entity_count DESC, name', [kbId]),
    db.query<{ name: string; count: string; symmetric: boolean }>('SELECT name, edge_count AS count, is_symmetric AS symmetric FROM edge_type WHERE kb_id = $1 ORDER BY edge_count DESC, name', [kbId]),
    db.query<{ source: string; relation: string; target: string; count: string }>(
      `SELECT s.name AS source, r.name AS relation, o.name AS target, t.edge_count AS count
         FROM schema_triple t JOIN node_type s ON s.id = t.source_type_id JOIN edge_type r ON r.id = t.edge_type_id
         JOIN node_type o ON o.id = t.target_type_id
        WHERE t.kb_id = $1 ORDER BY t.edge_count DESC, 1, 2, 3`, [kbId]),
    // The (kb_id, type_id, degree DESC) index gives each type's top entities without a sort.
    db.query<{ id: number; name: string; type: string; degree: number }>(
      `SELECT h.id, h.name, t.name AS type, h.degree
         FROM node_type t CROSS JOIN LATERAL (
           SELECT id, name, degree FROM entity e WHERE e.kb_id = $1 AND e.type_id = t.id ORDER BY degree DESC LIMIT $2) h
        WHERE t.kb_id = $1 ORDER BY h.degree DESC, h.id LIMIT $2`, [kbId, hubCount]),
  ]);
  return {
    slug: row.slug,
    entities: row.entity_count,
    edges: Number(row.edge_count),
    entityTypes: types.rows,
    relations: relations.rows.map((r) => ({ ...r, count: Number(r.count) })),
    triples: triples.rows.map((r) => ({ ...r, count: Number(r.count) })),
    degreeHistogram: row.degree_histogram,
    hubs: hubs.rows,
  };
}
