import { ELEMENTS_PER_STUB } from './budget';
import type { Direction } from './entity';
import type { GraphEdge, GraphView, HiddenCount, ViewStub } from './neighbourhood';

/** The most elements the graph view holds after expansions; an expansion asks for no more than what is left. */
export const VIEW_ELEMENT_CAP = 1500;
/**
 * Rows the graph page's node list holds before the canvas's first frame; the rest (a 2-hop view has up to 500)
 * follow it. As HTML, DOM and hydration they cost a page load a good part of its time, and the canvas is what the
 * page is opened for.
 */
export const NODE_LIST_FIRST = 40;
/** Below this many free elements an expansion could show next to nothing, so the view counts as full. */
export const MIN_EXPANSION_BUDGET = 10;

export const stubId = (parent: number, relation: string, direction: Direction) => `stub:${parent}:${direction}:${relation}`;
/** A symmetric relation's edge and its reverse are one link. */
const edgeKey = (e: GraphEdge) => (e.symmetric
  ? `${Math.min(e.source, e.target)}|${e.relation}|${Math.max(e.source, e.target)}`
  : `${e.source}|${e.relation}|${e.target}`);

/** The element budget an expansion may use so the view stays within the cap; 0 when the view is full. */
export function expansionBudget(view: GraphView, perRequest = 500): number {
  const left = Math.min(perRequest, VIEW_ELEMENT_CAP - view.elements);
  return left >= MIN_EXPANSION_BUDGET ? left : 0;
}

/**
 * The merged view's hidden entities, from its parts' counts without asking the server: each part's hidden
 * entities that the merge did not draw are still hidden (their groups are still cut), so a part's count less
 * the nodes the other part added is a lower bound. Exact only when nothing is cut any more.
 */
function mergedHidden(parts: GraphView[], nodes: number, stubs: number): HiddenCount {
  if (stubs === 0) return { count: 0, exact: true };
  return { count: Math.max(0, ...parts.map((p) => p.hiddenNeighbours.count - (nodes - p.nodes.length))), exact: false };
}

/**
 * Adds an expansion (the 1-hop view of a node already shown) to a view: nodes and edges are united, and
 * every stub is recounted against the united edges from its group's true size, so a group the expansion
 * filled loses its stub. The result holds at most the elements of both, and so stays within both budgets.
 * Its count of hidden entities becomes a lower bound (mergedHidden).
 */
export function mergeExpansion(view: GraphView, expansion: GraphView): GraphView {
  const nodes = new Map(view.nodes.map((n) => [n.id, n]));
  const base = nodes.get(expansion.center)?.depth ?? 0;
  for (const n of expansion.nodes) if (!nodes.has(n.id)) nodes.set(n.id, { ...n, depth: base + n.depth });

  const edges = new Map(view.edges.map((e) => [edgeKey(e), e]));
  for (const e of expansion.edges) if (!edges.has(edgeKey(e))) edges.set(edgeKey(e), e);

  const shown = new Map<string, number>();
  const bump = (key: string) => shown.set(key, (shown.get(key) ?? 0) + 1);
  for (const e of edges.values()) {
    bump(stubId(e.source, e.relation, 'out'));
    bump(stubId(e.target, e.relation, 'in'));
    // Each end's groups of a symmetric relation hold the other end, whichever way the link was read.
    if (e.symmetric && e.source !== e.target) {
      bump(stubId(e.target, e.relation, 'out'));
      bump(stubId(e.source, e.relation, 'in'));
    }
  }
  const groups = new Map<string, ViewStub>();
  for (const s of [...view.stubs, ...expansion.stubs]) groups.set(s.id, s);
  const stubs = [...groups.values()]
    .map((s) => ({ ...s, hidden: s.total - (shown.get(s.id) ?? 0) }))
    .filter((s) => s.hidden > 0);

  const unexpanded = [...new Set([...view.unexpanded.filter((id) => id !== expansion.center), ...expansion.unexpanded])];
  const elements = nodes.size + edges.size + ELEMENTS_PER_STUB * stubs.length;
  return {
    ...view,
    budget: view.budget + expansion.budget,
    nodes: [...nodes.values()],
    edges: [...edges.values()],
    stubs,
    unexpanded,
    elements,
    truncated: stubs.length > 0 || unexpanded.length > 0,
    hiddenNeighbours: mergedHidden([view, expansion], nodes.size, stubs.length),
  };
}
