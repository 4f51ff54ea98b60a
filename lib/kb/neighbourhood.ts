import type pg from 'pg';
import { badRequest } from '../errors';
import { allocateBudget, ELEMENTS_PER_STUB, levelAllowance, planLevel } from './budget';
import { getEntity, relationCounts, type Direction } from './entity';
import { distinctNeighbourCount, groupCountsSql } from './hub-counts';
import { onceEach } from './relation-groups';
import { stubId } from './graph-view';

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
  /** Set on a symmetric relation's edge: it stands for the pair both ways (its reverse is never drawn too). */
  symmetric?: true;
}

/** Stands for the neighbours of one relation and direction that the budget left out. */
export interface GraphStub {
  relation: string;
  /** 'out' for a symmetric relation, whose stub stands for both directions. */
  direction: Direction;
  symmetric: boolean;
  /** Distinct entities of this group not drawn. */
  hidden: number;
}

export interface Neighbourhood {
  center: GraphNode;
  nodes: GraphNode[];
  edges: GraphEdge[];
  stubs: GraphStub[];
  /** Distinct entities linked to the centre, either way and by any relation; those not in `nodes` are not drawn. */
  neighbours: number;
}

export const MAX_NEIGHBOURS = 500;

/**
 * The direct neighbours of an entity within a budget, shared max-min fairly between its relations and
 * directions. Each group is read with LIMIT through an index, so a hub with 100k edges costs no
 * more than a small entity.
 */
export async function directNeighbourhood(db: Queryable, kbId: number, entityId: number, budget = 150): Promise<Neighbourhood> {
  const limit = Math.max(1, Math.min(budget, MAX_NEIGHBOURS));
  const [center, groups, neighbours] = await Promise.all([
    getEntity(db, kbId, entityId), relationCounts(db, kbId, entityId).then(onceEach), distinctNeighbourCount(db, kbId, entityId)]);
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
       JOIN entity e ON e.kb_id = $1 AND e.id = p.other
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
    .map((g) => ({ relation: g.relation, direction: g.direction, symmetric: g.symmetric, hidden: g.count - (shown.get(`${g.relation}|${g.direction}`) ?? 0) }))
    .filter((s) => s.hidden > 0);

  return { center: { id: center.id, name: center.name, type: center.type }, nodes: [...nodes.values()], edges, stubs, neighbours };
}

export type GraphDirection = 'both' | Direction;
export const MAX_HOPS = 3;
export const MAX_ELEMENTS = 500;
/** Planning passes per level; each is one LIMIT-ed read per open group. */
const MAX_PASSES = 4;

export interface NeighbourhoodOptions {
  entityId: number;
  /** 1 to 3. */
  hops: number;
  /** Relation names to follow; empty or absent follows all. */
  relations?: string[];
  direction?: GraphDirection;
  /** Elements (nodes + edges + stubs) the view may hold: 1 to 500, default 500. */
  budget?: number;
}

export interface ViewNode extends GraphNode {
  /** Hops from the centre at which the node was first reached. */
  depth: number;
}

/** The neighbours of `parent` in one relation and direction that the budget left out (`total` is all of them). */
export interface ViewStub {
  id: string;
  parent: number;
  relation: string;
  /** 'out' for a symmetric relation (unless only incoming edges were asked for): it stands for both directions. */
  direction: Direction;
  symmetric: boolean;
  /** Distinct entities of the group not drawn, out of `total`. */
  hidden: number;
  total: number;
}

export interface GraphView {
  center: number;
  hops: number;
  direction: GraphDirection;
  relations: string[];
  budget: number;
  /** The centre first. */
  nodes: ViewNode[];
  edges: GraphEdge[];
  stubs: ViewStub[];
  /** Nodes within `hops - 1` of the centre whose neighbours the budget left unread (they carry no stubs). */
  unexpanded: number[];
  /** nodes + edges + ELEMENTS_PER_STUB per stub (a stub is drawn as a node and an edge); never above `budget`. */
  elements: number;
  truncated: boolean;
  /** Distinct entities the stubs stand for that are not drawn (an entity two stubs hold counts once). */
  hiddenNeighbours: HiddenCount;
}

/** A count that is exact, or a lower bound where counting exactly would read too much. */
export interface HiddenCount { count: number; exact: boolean }

/** The cut groups' edges read to count their distinct hidden entities; past this the count is a lower bound. */
export const HIDDEN_COUNT_EDGES = 20_000;

interface GroupCount { node: number; typeId: number; direction: Direction; count: number }

const groupKey = (node: number, typeId: number, direction: Direction) => `${node}|${typeId}|${direction}`;

interface Relations {
  /** Relation ids to follow, with their names. */
  names: Map<number, string>;
  /** Ids of the knowledge base's symmetric relations. */
  symmetric: Set<number>;
}

/** Maps relation names to ids; an unknown name is a 400 naming it. All relations when `names` is empty. */
async function resolveRelations(db: Queryable, kbId: number, names: string[]): Promise<Relations> {
  const { rows } = await db.query<{ id: number; name: string; symmetric: boolean }>('SELECT id, name, is_symmetric AS symmetric FROM edge_type WHERE kb_id = $1 ORDER BY name', [kbId]);
  const symmetric = new Set(rows.filter((r) => r.symmetric).map((r) => r.id));
  if (names.length === 0) return { names: new Map(rows.map((r) => [r.id, r.name])), symmetric };
  const byName = new Map(rows.map((r) => [r.name, r.id]));
  const unknown = names.filter((n) => !byName.has(n));
  if (unknown.length > 0) {
    throw badRequest(`Invalid query: rel: unknown relation ${unknown.map((n) => JSON.stringify(n)).join(', ')} (known: ${rows.map((r) => r.name).join(', ')})`);
  }
  return { names: new Map(names.map((n) => [byName.get(n)!, n])), symmetric };
}

/**
 * Edge counts per frontier node, relation and direction: stored for hubs, else index-only scans of the edge
 * indexes. In both directions a symmetric relation keeps only its outgoing group, which holds the same entities.
 */
async function groupCounts(db: Queryable, kbId: number, nodes: number[], typeIds: number[], direction: GraphDirection, symmetric: Set<number>): Promise<GroupCount[]> {
  const directions: Direction[] = direction === 'both' ? ['out', 'in'] : [direction];
  const { rows } = await db.query<GroupCount>(groupCountsSql(directions), [kbId, nodes, typeIds]);
  return direction === 'both' ? rows.filter((g) => !(g.direction === 'in' && symmetric.has(g.typeId))) : rows;
}

interface Read { node: number; typeId: number; direction: Direction; limit: number }
interface ReadRow { node: number; typeId: number; direction: Direction; other: number; name: string; type: string }

/** The first `limit` neighbours of each group, in id order: a LIMIT-ed range read of the matching edge index per group. */
async function readGroups(db: Queryable, kbId: number, reads: Read[]): Promise<ReadRow[]> {
  if (reads.length === 0) return [];
  const column = (d: Direction, f: (r: Read) => number) => reads.filter((r) => r.direction === d).map(f);
  const { rows } = await db.query<ReadRow>(
    `WITH picked AS (
       SELECT 'out' AS direction, t.node, t.type_id, x.other
         FROM unnest($2::int[], $3::int[], $4::int[]) AS t(node, type_id, n)
         CROSS JOIN LATERAL (SELECT target_id AS other FROM edge
                              WHERE kb_id = $1 AND source_id = t.node AND type_id = t.type_id
                              ORDER BY target_id LIMIT t.n) x
       UNION ALL
       SELECT 'in', t.node, t.type_id, x.other
         FROM unnest($5::int[], $6::int[], $7::int[]) AS t(node, type_id, n)
         CROSS JOIN LATERAL (SELECT source_id AS other FROM edge
                              WHERE kb_id = $1 AND target_id = t.node AND type_id = t.type_id
                              ORDER BY source_id LIMIT t.n) x)
     SELECT p.direction, p.node, p.type_id AS "typeId", p.other, e.name, nt.name AS type
       FROM picked p
       JOIN entity e ON e.kb_id = $1 AND e.id = p.other
       JOIN node_type nt ON nt.id = e.type_id
      ORDER BY p.direction DESC, p.node, p.type_id, p.other`,
    [kbId,
      column('out', (r) => r.node), column('out', (r) => r.typeId), column('out', (r) => r.limit),
      column('in', (r) => r.node), column('in', (r) => r.typeId), column('in', (r) => r.limit)],
  );
  return rows;
}

/**
 * The distinct entities of the cut groups that are not among `drawn`: one index range read per group, exact
 * while the groups hold at most HIDDEN_COUNT_EDGES edges in all; otherwise each group reads an even share of
 * that many and the count is a lower bound.
 */
async function countHidden(db: Queryable, kbId: number, groups: GroupCount[], drawn: number[]): Promise<HiddenCount> {
  if (groups.length === 0) return { count: 0, exact: true };
  const exact = groups.reduce((s, g) => s + g.count, 0) <= HIDDEN_COUNT_EDGES;
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(DISTINCT x.other)::int AS n
       FROM unnest($2::int[], $3::int[], $4::text[]) AS g(node, type_id, direction)
       CROSS JOIN LATERAL (
         (SELECT target_id AS other FROM edge WHERE g.direction = 'out' AND kb_id = $1 AND source_id = g.node AND type_id = g.type_id LIMIT $5)
         UNION ALL
         (SELECT source_id FROM edge WHERE g.direction = 'in' AND kb_id = $1 AND target_id = g.node AND type_id = g.type_id LIMIT $5)) x
      WHERE x.other <> ALL($6::int[])`,
    [kbId, groups.map((g) => g.node), groups.map((g) => g.typeId), groups.map((g) => g.direction),
      exact ? null : Math.ceil(HIDDEN_COUNT_EDGES / groups.length), drawn],
  );
  return { count: rows[0]!.n, exact };
}

/**
 * The 1- to 3-hop neighbourhood of an entity within an element budget, breadth first. Each level counts the
 * frontier's edges per relation and direction (index-only), plans what to show with `planLevel` (max-min fair
 * between frontier nodes, then between a node's relations) and reads each group with LIMIT, so a hub costs no
 * more than a leaf. What a group leaves out becomes a stub whose `hidden` plus the group's shown edges is the
 * group's true size.
 */
export async function neighbourhood(db: Queryable, kbId: number, options: NeighbourhoodOptions): Promise<GraphView> {
  const { entityId, hops, direction = 'both' } = options;
  const budget = options.budget ?? MAX_ELEMENTS;
  if (!Number.isInteger(hops) || hops < 1 || hops > MAX_HOPS) throw badRequest(`Invalid query: hops: must be 1, 2 or 3, not ${hops}`);
  if (!Number.isInteger(budget) || budget < 1 || budget > MAX_ELEMENTS) throw badRequest(`Invalid query: budget: must be 1 to ${MAX_ELEMENTS}, not ${budget}`);
  const { names: relationNames, symmetric } = await resolveRelations(db, kbId, options.relations ?? []);
  const typeIds = [...relationNames.keys()];
  const center = await getEntity(db, kbId, entityId);

  const nodes = new Map<number, ViewNode>([[center.id, { id: center.id, name: center.name, type: center.type, depth: 0 }]]);
  const edges: GraphEdge[] = [];
  const edgeKeys = new Set<string>();
  const shownIn = new Map<string, number>();
  const bump = (key: string) => shownIn.set(key, (shownIn.get(key) ?? 0) + 1);
  const expandedGroups: GroupCount[] = [];
  const unexpanded: number[] = [];
  let cutGroups = 0;
  let frontier = [center.id];

  for (let level = 1; level <= hops && frontier.length > 0; level++) {
    const levelStart = nodes.size + edges.length;
    const allowance = levelAllowance(budget - levelStart - ELEMENTS_PER_STUB * cutGroups, level, hops);
    const counts = await groupCounts(db, kbId, frontier, typeIds, direction, symmetric);
    const groupsOf = new Map<number, GroupCount[]>(frontier.map((id) => [id, []]));
    for (const group of counts) groupsOf.get(group.node)!.push(group);
    const expanded = new Set<number>();
    const next: number[] = [];
    let cutHere = 0;

    // The cost model assumes every neighbour is new; shared neighbours and edges shown twice (symmetric
    // relations) cost less, so further passes spend what the previous one left, until nothing more is added.
    for (let pass = 0; pass < MAX_PASSES; pass++) {
      const openOf = (id: number) => groupsOf.get(id)!
        .map((group) => ({ group, known: shownIn.get(groupKey(group.node, group.typeId, group.direction)) ?? 0 }))
        .filter((g) => g.group.count > g.known);
      // Nodes expanded by an earlier pass come first and must stay expanded: the stubs they reserved pay their base.
      const again = frontier.filter((id) => expanded.has(id) && openOf(id).length > 0);
      const fresh = frontier.filter((id) => !expanded.has(id) && openOf(id).length > 0);
      const candidates = [...again, ...fresh];
      if (candidates.length === 0) break;
      cutGroups -= cutHere;
      cutHere = 0;
      const open = candidates.map(openOf);
      const plan = planLevel(open.map((gs) => gs.map((g) => g.group.count - g.known)), allowance - (nodes.size + edges.length - levelStart), again.length);

      const reads: (Read & { share: number })[] = [];
      candidates.forEach((id, i) => {
        if (!plan.expanded[i]) return;
        expanded.add(id);
        open[i]!.forEach(({ group, known }, j) => {
          const share = plan.shares[i]![j]!;
          if (share < group.count - known) cutHere++;
          // Reading `known` more rows makes up for edges already shown that the range may contain.
          if (share > 0) reads.push({ node: id, typeId: group.typeId, direction: group.direction, limit: share + known, share });
        });
      });
      cutGroups += cutHere;

      const rows = await readGroups(db, kbId, reads);
      const taken = new Map<string, number>();
      const shareOf = new Map(reads.map((r) => [groupKey(r.node, r.typeId, r.direction), r.share]));
      const before = edges.length;
      for (const row of rows) {
        const key = groupKey(row.node, row.typeId, row.direction);
        if ((taken.get(key) ?? 0) >= shareOf.get(key)!) continue;
        const [source, target] = row.direction === 'out' ? [row.node, row.other] : [row.other, row.node];
        // A symmetric relation's edge and its reverse are one link: drawn once, and counted as shown in
        // every group of both ends (each end's groups hold the other).
        const twoWay = symmetric.has(row.typeId);
        const edgeKey = twoWay ? `${Math.min(source, target)}|${row.typeId}|${Math.max(source, target)}` : `${source}|${row.typeId}|${target}`;
        if (edgeKeys.has(edgeKey)) continue;
        taken.set(key, (taken.get(key) ?? 0) + 1);
        edgeKeys.add(edgeKey);
        edges.push({ source, target, relation: relationNames.get(row.typeId)!, ...(twoWay ? { symmetric: true as const } : {}) });
        bump(groupKey(source, row.typeId, 'out'));
        bump(groupKey(target, row.typeId, 'in'));
        if (twoWay && source !== target) {
          bump(groupKey(target, row.typeId, 'out'));
          bump(groupKey(source, row.typeId, 'in'));
        }
        if (!nodes.has(row.other)) {
          nodes.set(row.other, { id: row.other, name: row.name, type: row.type, depth: level });
          next.push(row.other);
        }
      }
      if (edges.length === before) break;
    }

    for (const id of frontier) {
      const open = groupsOf.get(id)!.some((g) => g.count > (shownIn.get(groupKey(g.node, g.typeId, g.direction)) ?? 0));
      if (expanded.has(id) || !open) expandedGroups.push(...groupsOf.get(id)!);
      else unexpanded.push(id);
    }
    frontier = next;
  }

  const cut = expandedGroups.filter((g) => g.count > (shownIn.get(groupKey(g.node, g.typeId, g.direction)) ?? 0));
  const stubs = cut.map((g) => {
    const relation = relationNames.get(g.typeId)!;
    const hidden = g.count - (shownIn.get(groupKey(g.node, g.typeId, g.direction)) ?? 0);
    return { id: stubId(g.node, relation, g.direction), parent: g.node, relation, direction: g.direction, symmetric: symmetric.has(g.typeId), hidden, total: g.count };
  });
  const hiddenNeighbours = await countHidden(db, kbId, cut, [...nodes.keys()]);
  return {
    center: center.id,
    hops,
    direction,
    relations: options.relations ?? [],
    budget,
    nodes: [...nodes.values()],
    edges,
    stubs,
    unexpanded,
    elements: nodes.size + edges.length + ELEMENTS_PER_STUB * stubs.length,
    truncated: stubs.length > 0 || unexpanded.length > 0,
    hiddenNeighbours,
  };
}
