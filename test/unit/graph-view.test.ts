import { describe, expect, it } from 'vitest';
import type { Direction } from '../../lib/kb/entity';
import { expansionBudget, mergeExpansion, MIN_EXPANSION_BUDGET, stubId, VIEW_ELEMENT_CAP } from '../../lib/kb/graph-view';
import type { GraphEdge, GraphView } from '../../lib/kb/neighbourhood';

// A small graph: 1 -r-> 2..6, 2 -r-> 7..9, 3 -s-> 2.
const ALL: GraphEdge[] = [
  ...[2, 3, 4, 5, 6].map((t) => ({ source: 1, target: t, relation: 'r' })),
  ...[7, 8, 9].map((t) => ({ source: 2, target: t, relation: 'r' })),
  { source: 3, target: 2, relation: 's' },
];

/** True group sizes of the small graph. */
function total(node: number, relation: string, direction: Direction): number {
  return ALL.filter((e) => e.relation === relation && (direction === 'out' ? e.source : e.target) === node).length;
}

/** A view showing `edges`, with stubs for the cut groups of `expanded`, as the server builds them. */
function viewOf(center: number, edges: GraphEdge[], expanded: number[], depth: Record<number, number>, unexpanded: number[] = []): GraphView {
  const ids = [...new Set([center, ...edges.flatMap((e) => [e.source, e.target])])];
  const stubs = expanded.flatMap((node) => (['r', 's'] as const).flatMap((relation) => (['out', 'in'] as const).map((direction) => {
    const shown = edges.filter((e) => e.relation === relation && (direction === 'out' ? e.source : e.target) === node).length;
    const t = total(node, relation, direction);
    return { id: stubId(node, relation, direction), parent: node, relation, direction, symmetric: false, hidden: t - shown, total: t };
  }))).filter((s) => s.hidden > 0);
  return {
    center, hops: 1, direction: 'both', relations: [], budget: 500,
    nodes: ids.map((id) => ({ id, name: `n${id}`, type: 't', depth: depth[id] ?? 1 })),
    edges, stubs, unexpanded,
    elements: ids.length + edges.length + 2 * stubs.length,
    truncated: stubs.length > 0 || unexpanded.length > 0,
    hiddenNeighbours: { count: hiddenIn(stubs, ids).size, exact: true },
  };
}

/** The distinct entities of the stubs' groups that are not among `drawn`, from the whole small graph. */
function hiddenIn(stubs: { parent: number; relation: string; direction: Direction }[], drawn: number[]): Set<number> {
  const others = stubs.flatMap((s) => ALL.filter((e) => e.relation === s.relation && (s.direction === 'out' ? e.source : e.target) === s.parent)
    .map((e) => (s.direction === 'out' ? e.target : e.source)));
  return new Set(others.filter((id) => !drawn.includes(id)));
}

describe('mergeExpansion', () => {
  const base = viewOf(1, ALL.slice(0, 2), [1], { 1: 0 }, [2]);
  const expansion = viewOf(2, [ALL[5]!, ALL[6]!, ALL[8]!, ALL[0]!], [2], { 2: 0 });

  it('unites nodes and edges and places new nodes one hop beyond the expanded one', () => {
    const merged = mergeExpansion(base, expansion);
    expect(merged.center).toBe(1);
    expect(new Set(merged.nodes.map((n) => n.id))).toEqual(new Set([1, 2, 3, 7, 8]));
    expect(merged.edges).toHaveLength(5);
    const depth = Object.fromEntries(merged.nodes.map((n) => [n.id, n.depth]));
    expect(depth).toEqual({ 1: 0, 2: 1, 3: 1, 7: 2, 8: 2 });
    expect(merged.unexpanded).toEqual([]);
  });

  it('recounts every stub against the united edges', () => {
    const merged = mergeExpansion(base, expansion);
    const stubs = Object.fromEntries(merged.stubs.map((s) => [s.id, s.hidden]));
    // Node 1 still misses 3 of its 5 'r' neighbours; node 2 misses one 'r' target; its 's' source (3) is now drawn.
    expect(stubs).toEqual({ [stubId(1, 'r', 'out')]: 3, [stubId(2, 'r', 'out')]: 1 });
    expect(merged.elements).toBe(merged.nodes.length + merged.edges.length + 2 * merged.stubs.length);
    expect(merged.elements).toBeLessThanOrEqual(base.elements + expansion.elements);
    expect(merged.budget).toBe(base.budget + expansion.budget);
    expect(merged.truncated).toBe(true);
  });

  it('keeps a lower bound of the distinct entities not drawn, exact again once nothing is cut', () => {
    const merged = mergeExpansion(base, expansion);
    const truth = hiddenIn(merged.stubs, merged.nodes.map((n) => n.id)).size;
    expect(merged.hiddenNeighbours.exact).toBe(false);
    expect(merged.hiddenNeighbours.count).toBeLessThanOrEqual(truth);
    // Base hid 4, 5, 6 and the expansion 9; the merge drew two nodes (7, 8) the base had not, which might have
    // been among its hidden three, so all it can say is that at least one is still hidden.
    expect(truth).toBe(4);
    expect(merged.hiddenNeighbours.count).toBe(1);
    const whole = mergeExpansion(viewOf(1, ALL.slice(0, 5), [1], { 1: 0 }), viewOf(2, ALL.slice(5), [2], { 2: 0 }));
    expect(whole.stubs).toEqual([]);
    expect(whole.hiddenNeighbours).toEqual({ count: 0, exact: true });
  });

  it('drops a stub once an expansion shows its whole group', () => {
    const all = viewOf(1, ALL.slice(0, 5), [1], { 1: 0 });
    const merged = mergeExpansion(base, all);
    expect(merged.stubs.map((s) => s.id)).not.toContain(stubId(1, 'r', 'out'));
    expect(merged.edges).toHaveLength(5);
  });

  it('is idempotent', () => {
    const once = mergeExpansion(base, expansion);
    expect(mergeExpansion(once, expansion)).toEqual({ ...once, budget: once.budget + expansion.budget });
  });
});

describe('mergeExpansion with a symmetric relation', () => {
  // 'k' is stored both ways: 1 -k- 2, 1 -k- 3, 2 -k- 4. Each view has one 'k' group per node ('out'), holding the
  // neighbours either way; the centre's view reads 1->2 and its expansion at 2 reads the same link as 2->1.
  const link = (source: number, target: number): GraphEdge => ({ source, target, relation: 'k', symmetric: true });
  const stub = (parent: number, hidden: number, total: number) => ({ id: stubId(parent, 'k', 'out'), parent, relation: 'k', direction: 'out' as const, symmetric: true, hidden, total });
  const view = (center: number, edges: GraphEdge[], stubs: ReturnType<typeof stub>[]): GraphView => {
    const ids = [...new Set([center, ...edges.flatMap((e) => [e.source, e.target])])];
    return {
      center, hops: 1, direction: 'both', relations: [], budget: 500,
      nodes: ids.map((id) => ({ id, name: `n${id}`, type: 't', depth: id === center ? 0 : 1 })),
      edges, stubs, unexpanded: [], elements: ids.length + edges.length + 2 * stubs.length, truncated: stubs.length > 0,
      hiddenNeighbours: { count: stubs.reduce((n, s) => n + s.hidden, 0), exact: true },
    };
  };

  it('draws a link read from both ends once and counts it in both ends\' groups', () => {
    const base = view(1, [link(1, 2)], [stub(1, 1, 2)]);
    const expansion = view(2, [link(2, 1), link(2, 4)], []);
    const merged = mergeExpansion(base, expansion);
    expect(merged.edges).toHaveLength(2);
    expect(merged.stubs).toEqual([stub(1, 1, 2)]);
    // Node 2's group (1 and 4) is whole: no stub, though only 2->4 was read from 2's side as 'out' before.
    const partial = mergeExpansion(base, view(2, [link(2, 4)], [stub(2, 1, 2)]));
    expect(partial.stubs.map((s) => [s.id, s.hidden])).toEqual([[stubId(1, 'k', 'out'), 1]]);
  });
});

describe('expansionBudget', () => {
  const withElements = (elements: number) => ({ ...viewOf(1, [], [], { 1: 0 }), elements });
  it('asks for at most a request\'s budget and never beyond the cap', () => {
    expect(expansionBudget(withElements(100))).toBe(500);
    expect(expansionBudget(withElements(VIEW_ELEMENT_CAP - 120))).toBe(120);
    expect(expansionBudget(withElements(VIEW_ELEMENT_CAP - MIN_EXPANSION_BUDGET))).toBe(MIN_EXPANSION_BUDGET);
    expect(expansionBudget(withElements(VIEW_ELEMENT_CAP - MIN_EXPANSION_BUDGET + 1))).toBe(0);
  });
});
