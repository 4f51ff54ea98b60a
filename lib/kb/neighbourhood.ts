import type pg from 'pg';
import { allocateBudget } from './budget';
import { getEntity, relationCounts, type Direction } from './entity';

type Queryable = Pick<pg.Pool, 'query'>;

export interface GraphNode {
  id: number;
  name: string;
  type: string;
}

export interface GraphEdge {
  source: number;
  target: number;
  relation: string;
}

/** Stands for the neighbours of one relation and direction that the budget left out. */
export interface GraphStub {
  relation: string;
  direction: Direction;
  hidden: number;
}

export interface Neighbourhood {
  center: GraphNode;
  nodes: GraphNode[];
  edges: GraphEdge[];
  stubs: GraphStub[];
}

export const MAX_NEIGHBOURS = 500;

/**
 * The direct neighbours of an entity within a budget, shared max-min fairly between its relations and
 * directions. Each group is read with LIMIT through an index, so a hub with 100k edges costs no
 * more than a small entity.
 */
export async function directNeighbourhood(db: Queryable, kbId: number, entityId: number, budget = 150): Promise<Neighbourhood> {
  const limit = Math.max(1, Math.min(budget, MAX_NEIGHBOURS));
  const center = await getEntity(db, kbId, entityId);
  const groups = await relationCounts(db, kbId, entityId);
  const shares = allocateBudget(groups.map((g) => g.count), limit);
  const pick = (direction: Direction): [number[], number[]] => {
    const chosen = groups.map((g, i) => ({ g, share: shares[i]! })).filter((x) => x.g.direction === direction && x.share > 0);
    return [chosen.map((x) => x.g.relationId), chosen.map((x) => x.share)];
  };
  const [outTypes, outLimits] = pick('out');
  const [inTypes, inLimits] = pick('in');

  const { rows } = await db.query<{ direction: Direction; relation: string; id: number; name: string; type: string }>(
    `WITH picked AS (
       SELECT 'out' AS direction, t.type_id, n.other
         FROM unnest($3::int[], $4::int[]) AS t(type_id, n)
         CROSS JOIN LATERAL (SELECT target_id AS other FROM edge
                              WHERE kb_id = $1 AND source_id = $2 AND type_id = t.type_id
                              ORDER BY target_id LIMIT t.n) n
       UNION ALL
       SELECT 'in', t.type_id, n.other
         FROM unnest($5::int[], $6::int[]) AS t(type_id, n)
         CROSS JOIN LATERAL (SELECT source_id AS other FROM edge
                              WHERE kb_id = $1 AND target_id = $2 AND type_id = t.type_id
                              ORDER BY source_id LIMIT t.n) n)
     SELECT p.direction, r.name AS relation, e.id, e.name, nt.name AS type
       FROM picked p
       JOIN edge_type r ON r.id = p.type_id
       JOIN entity e ON e.id = p.other
       JOIN node_type nt ON nt.id = e.type_id
      ORDER BY r.name, p.direction, e.name`,
    [kbId, entityId, outTypes, outLimits, inTypes, inLimits],
  );

  const nodes = new Map<number, GraphNode>();
  const edges: GraphEdge[] = [];
  for (const r of rows) {
    if (r.id !== entityId) nodes.set(r.id, { id: r.id, name: r.name, type: r.type });
    edges.push(r.direction === 'out'
      ? { source: entityId, target: r.id, relation: r.relation }
      : { source: r.id, target: entityId, relation: r.relation });
  }
  const shown = new Map<string, number>();
  for (const r of rows) shown.set(`${r.relation}|${r.direction}`, (shown.get(`${r.relation}|${r.direction}`) ?? 0) + 1);
  const stubs = groups
    .map((g) => ({ relation: g.relation, direction: g.direction, hidden: g.count - (shown.get(`${g.relation}|${g.direction}`) ?? 0) }))
    .filter((s) => s.hidden > 0);

  return { center: { id: center.id, name: center.name, type: center.type }, nodes: [...nodes.values()], edges, stubs };
}
