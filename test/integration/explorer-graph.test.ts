import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../lib/errors';
import { neighbourhood, type GraphDirection, type GraphView, type NeighbourhoodOptions } from '../../lib/kb/neighbourhood';
import { openAppDatabase, pool } from '../support/app-database';
import { ibdIds, importIbd, readIbdEdges } from '../support/primekg-ibd';
import type { TestDatabase } from '../support/test-database';

/** The IBD graph as read from the edge file, on internal ids: edges keyed `source|relation|target`. */
interface Truth {
  edges: Set<string>;
  /** node -> `relation|direction` -> neighbour count (edges, as the same triple occurs once). */
  groups: Map<number, Map<string, number>>;
  relations: string[];
  /** Relations whose every edge is stored both ways (all of PrimeKG's): one group and one drawn link per pair. */
  symmetric: Set<string>;
}

let testDb: TestDatabase;
let kbId: number;
let truth: Truth;
let idOf: (externalId: string) => number;

beforeAll(async () => {
  testDb = await openAppDatabase();
  kbId = await importIbd(pool());
  const ids = (await ibdIds(pool(), kbId)).idOf;
  idOf = (externalId) => ids.get(externalId) ?? Number.NaN;
  const edges = new Set<string>();
  const groups = new Map<number, Map<string, number>>();
  const count = (node: number, key: string) => {
    const g = groups.get(node) ?? new Map<string, number>();
    g.set(key, (g.get(key) ?? 0) + 1);
    groups.set(node, g);
  };
  for (const e of readIbdEdges()) {
    const key = `${idOf(e.source)}|${e.relation}|${idOf(e.target)}`;
    if (edges.has(key)) continue;
    edges.add(key);
    count(idOf(e.source), `${e.relation}|out`);
    count(idOf(e.target), `${e.relation}|in`);
  }
  const relations = [...new Set(readIbdEdges().map((e) => e.relation))].sort();
  const reversed = (key: string) => key.split('|').reverse().join('|');
  const symmetric = new Set(relations.filter((r) => [...edges].every((k) => k.split('|')[1] !== r || edges.has(reversed(k)))));
  truth = { edges, groups, relations, symmetric };
}, 300_000);

afterAll(async () => {
  await testDb?.drop();
});

/** An edge's link: a symmetric relation's edge and its reverse are the same link. */
const linkKey = (e: { source: number; relation: string; target: number }) => (truth.symmetric.has(e.relation)
  ? `${Math.min(e.source, e.target)}|${e.relation}|${Math.max(e.source, e.target)}`
  : `${e.source}|${e.relation}|${e.target}`);

const view = (options: Partial<NeighbourhoodOptions> & { entityId: number }) => neighbourhood(pool(), kbId, { hops: 1, ...options });

/** True neighbour counts of a node's groups under the view's filters. */
function trueGroups(node: number, direction: GraphDirection, relations: string[]): Map<string, number> {
  return new Map([...(truth.groups.get(node) ?? new Map<string, number>())].filter(([key]) => {
    const [relation, dir] = key.split('|');
    return (direction === 'both' || dir === direction) && (relations.length === 0 || relations.includes(relation!));
  }));
}

/** Everything a view must satisfy whatever was cut. */
function checkInvariants(v: GraphView): void {
  const ids = new Set(v.nodes.map((n) => n.id));
  expect(ids.size).toBe(v.nodes.length);
  expect(v.nodes[0]).toMatchObject({ id: v.center, depth: 0 });
  expect(v.elements).toBe(v.nodes.length + v.edges.length + 2 * v.stubs.length);
  expect(v.elements).toBeLessThanOrEqual(v.budget);

  const edgeKeys = v.edges.map((e) => `${e.source}|${e.relation}|${e.target}`);
  expect(new Set(edgeKeys).size).toBe(edgeKeys.length);
  // A symmetric relation's edge and its reverse are one link, drawn once.
  const links = v.edges.map(linkKey);
  expect(new Set(links).size).toBe(links.length);
  for (const key of edgeKeys) expect(truth.edges.has(key), `edge ${key} is in the edge file`).toBe(true);
  for (const e of v.edges) {
    expect(ids.has(e.source) && ids.has(e.target)).toBe(true);
    if (v.relations.length > 0) expect(v.relations).toContain(e.relation);
  }

  // Every node but the centre hangs on a shown edge to a node one hop nearer, read in the allowed direction.
  const depth = new Map(v.nodes.map((n) => [n.id, n.depth]));
  for (const n of v.nodes.filter((x) => x.depth > 0)) {
    expect(n.depth).toBeLessThanOrEqual(v.hops);
    const parents = v.edges.filter((e) =>
      (v.direction !== 'in' && e.target === n.id && depth.get(e.source) === n.depth - 1) ||
      (v.direction !== 'out' && e.source === n.id && depth.get(e.target) === n.depth - 1));
    expect(parents.length, `node ${n.id} at depth ${n.depth} has a parent`).toBeGreaterThan(0);
  }

  // Expanded nodes: per relation and direction, shown edges plus the stub's hidden count are the true count. In
  // both directions a symmetric relation has one group, 'out', holding the neighbours linked either way.
  const unexpanded = new Set(v.unexpanded);
  const stubs = new Map(v.stubs.map((s) => [`${s.parent}|${s.relation}|${s.direction}`, s]));
  expect(stubs.size).toBe(v.stubs.length);
  for (const s of v.stubs) {
    expect(s.hidden).toBeGreaterThan(0);
    expect(depth.get(s.parent)).toBeLessThan(v.hops);
    expect(unexpanded.has(s.parent)).toBe(false);
  }
  for (const n of v.nodes.filter((x) => x.depth < v.hops && !unexpanded.has(x.id))) {
    for (const [key, count] of trueGroups(n.id, v.direction, v.relations)) {
      const [relation, dir] = key.split('|') as [string, 'out' | 'in'];
      const twoWay = truth.symmetric.has(relation);
      if (twoWay && v.direction === 'both' && dir === 'in') {
        expect(stubs.has(`${n.id}|${relation}|in`)).toBe(false);
        continue;
      }
      const shown = v.edges.filter((e) => e.relation === relation && (twoWay ? e.source === n.id || e.target === n.id : (dir === 'out' ? e.source : e.target) === n.id)).length;
      const stub = stubs.get(`${n.id}|${relation}|${dir}`);
      expect(shown + (stub?.hidden ?? 0), `node ${n.id} ${key}`).toBe(count);
      if (stub) expect(stub.total).toBe(count);
    }
  }
  for (const id of v.unexpanded) expect(depth.get(id)).toBeLessThan(v.hops);
  expect(v.truncated).toBe(v.stubs.length > 0 || v.unexpanded.length > 0);
  // The caption's count: the distinct entities of the cut groups that are not drawn (these views are small enough to count exactly).
  expect(v.hiddenNeighbours).toEqual({ count: hiddenEntities(v).size, exact: true });
}

/** The distinct entities the view's stubs stand for that are not drawn, from the edge file. */
function hiddenEntities(v: GraphView): Set<number> {
  const drawn = new Set(v.nodes.map((n) => n.id));
  const hidden = new Set<number>();
  for (const key of truth.edges) {
    const [source, relation, target] = key.split('|');
    for (const s of v.stubs) {
      if (s.relation !== relation) continue;
      const other = s.direction === 'out' ? (Number(source) === s.parent ? Number(target) : null) : (Number(target) === s.parent ? Number(source) : null);
      if (other !== null && !drawn.has(other)) hidden.add(other);
    }
  }
  return hidden;
}

describe('graph view neighbourhoods on PrimeKG IBD', () => {
  it('1 hop within a large budget is exactly the direct neighbour set of the edge file', async () => {
    // The best-connected entity whose whole 1-hop view fits in 500 elements.
    const incidentTo = new Map<number, string[]>();
    for (const key of truth.edges) {
      const [s, , t] = key.split('|');
      for (const end of new Set([Number(s), Number(t)])) incidentTo.set(end, [...(incidentTo.get(end) ?? []), key]);
    }
    const fits = [...incidentTo]
      .map(([id, incident]) => {
        const others = new Set(incident.flatMap((k) => { const [s, , t] = k.split('|'); return [Number(s), Number(t)]; }));
        others.add(id);
        return { id, incident, others, size: others.size + incident.length };
      })
      .filter((x) => x.size <= 500)
      .sort((a, b) => b.size - a.size)[0]!;
    expect(fits.incident.length).toBeGreaterThan(50);

    const v = await view({ entityId: fits.id, hops: 1, budget: 500 });
    checkInvariants(v);
    expect(new Set(v.nodes.map((n) => n.id))).toEqual(fits.others);
    // Every incident link once (PrimeKG stores each edge both ways).
    expect(new Set(v.edges.map(linkKey))).toEqual(new Set(fits.incident.map((k) => { const [s, r, t] = k.split('|'); return linkKey({ source: Number(s), relation: r!, target: Number(t) }); })));
    expect(v.edges.length).toBeLessThan(fits.incident.length);
    expect(v.stubs).toEqual([]);
    expect(v.truncated).toBe(false);
  });

  it('2 hops from a hub stays within the budget, shows only real edges and accounts for every cut neighbour', async () => {
    const crohn = idOf('37784');
    for (const budget of [500, 120, 20]) {
      const v = await view({ entityId: crohn, hops: 2, budget });
      checkInvariants(v);
      expect(v.truncated).toBe(true);
      expect(v.stubs.length).toBeGreaterThan(0);
      if (budget < 120) continue;
      // Neighbours of several drawn nodes are cut from each one's group but counted once.
      if (budget === 500) expect(v.hiddenNeighbours.count).toBeLessThan(v.stubs.reduce((n, s) => n + s.hidden, 0));
      expect(v.nodes.some((n) => n.depth === 2)).toBe(true);
      // The hub's surroundings hold far more than the budget, so a good plan spends nearly all of it.
      expect(v.elements).toBeGreaterThanOrEqual(budget * 0.9);
    }
  });

  it('follows only the chosen relations and direction', async () => {
    const crohn = idOf('37784');
    const smad3 = idOf('144');
    for (const [entityId, relations, direction] of [
      [crohn, ['associated with'], 'both'],
      [smad3, ['interacts with', 'target'], 'out'],
      [smad3, [], 'in'],
      [crohn, ['associated with'], 'in'],
    ] as [number, string[], GraphDirection][]) {
      const v = await view({ entityId, hops: 2, relations, direction, budget: 300 });
      checkInvariants(v);
      expect(v.nodes.length).toBeGreaterThan(1);
      for (const s of v.stubs) {
        if (relations.length > 0) expect(relations).toContain(s.relation);
        if (direction !== 'both') expect(s.direction).toBe(direction);
      }
      const notExpanded = new Set([...v.unexpanded, ...v.nodes.filter((n) => n.depth === v.hops).map((n) => n.id)]);
      // In one direction, every edge was read from its expanded end.
      for (const e of v.edges) {
        if (direction === 'out') expect(notExpanded.has(e.source), `edge ${e.source}->${e.target} read from its source`).toBe(false);
        if (direction === 'in') expect(notExpanded.has(e.target), `edge ${e.source}->${e.target} read from its target`).toBe(false);
      }
    }
  });

  it('reaches 3 hops', async () => {
    const smad3 = idOf('144');
    const v = await view({ entityId: smad3, hops: 3, relations: ['interacts with'], budget: 500 });
    checkInvariants(v);
    expect(v.nodes.some((n) => n.depth === 3)).toBe(true);
    const plain = await view({ entityId: smad3, hops: 3, budget: 500 });
    checkInvariants(plain);
  });

  it('is deterministic, so a shared view reads back the same', async () => {
    const options = { entityId: idOf('37784'), hops: 2, budget: 200 };
    expect(await view(options)).toEqual(await view(options));
  });

  it('refuses bad input with the field named', async () => {
    const crohn = idOf('37784');
    const failure = async (options: Partial<NeighbourhoodOptions>) => {
      const err = await view({ entityId: crohn, ...options }).then(() => null, (e: unknown) => e);
      expect(err).toBeInstanceOf(AppError);
      return err as AppError;
    };
    for (const hops of [0, 4, 1.5]) {
      const err = await failure({ hops });
      expect(err.status).toBe(400);
      expect(err.message).toContain('hops');
    }
    for (const budget of [0, 501]) expect((await failure({ budget })).message).toContain('budget');
    const unknown = await failure({ relations: ['associated with', 'no such relation'] });
    expect(unknown.status).toBe(400);
    expect(unknown.message).toContain('rel');
    expect(unknown.message).toContain('"no such relation"');
    expect(unknown.message).not.toContain('"associated with"');
    expect((await failure({ entityId: 99_999_999 })).status).toBe(404);
  });
});
