/**
 * Readable graph layouts, computed as plain positions (no Cytoscape, no React): neighbourhoods grouped by
 * relation and type on rings around the centre, paths laid out left to right, and which nodes carry a label.
 */

/** The layouts a graph view can be drawn with: the page's address, saved views and the canvas share this list. */
export const GRAPH_LAYOUTS = ['concentric', 'cose', 'breadthfirst'] as const;
export type GraphLayoutName = (typeof GRAPH_LAYOUTS)[number];

export interface LayoutNode { id: string; type: string; center?: boolean; stub?: boolean }
export interface LayoutEdge { source: string; target: string; label: string }
export interface Point { x: number; y: number }

/** How a node was first reached walking out from the centre nodes (edge direction ignored for the walk). */
export interface Reach { depth: number; parent: string | null; relation: string; direction: 'out' | 'in' }

/** Nodes reached at the same depth by the same relation and direction, of the same type. */
export interface NodeGroup {
  id: string;
  depth: number;
  relation: string;
  direction: 'out' | 'in';
  type: string;
  members: string[];
  /** Shown members that are entities, not "+N more" stubs. */
  shown: number;
}

/** Breadth first from the centre nodes; nodes not reached get the depth one past the farthest, no parent. */
export function reach(nodes: readonly LayoutNode[], edges: readonly LayoutEdge[]): Map<string, Reach> {
  const adjacent = new Map<string, { other: string; relation: string; direction: 'out' | 'in' }[]>();
  const link = (from: string, other: string, relation: string, direction: 'out' | 'in') => {
    const list = adjacent.get(from);
    if (list) list.push({ other, relation, direction });
    else adjacent.set(from, [{ other, relation, direction }]);
  };
  for (const e of edges) {
    link(e.source, e.target, e.label, 'out');
    link(e.target, e.source, e.label, 'in');
  }
  const reached = new Map<string, Reach>();
  let frontier = nodes.filter((n) => n.center).map((n) => n.id);
  for (const id of frontier) reached.set(id, { depth: 0, parent: null, relation: '', direction: 'out' });
  for (let depth = 1; frontier.length > 0; depth++) {
    const next: string[] = [];
    for (const id of frontier) {
      for (const { other, relation, direction } of adjacent.get(id) ?? []) {
        if (reached.has(other)) continue;
        reached.set(other, { depth, parent: id, relation, direction });
        next.push(other);
      }
    }
    frontier = next;
  }
  const far = Math.max(0, ...[...reached.values()].map((r) => r.depth)) + 1;
  for (const n of nodes) if (!reached.has(n.id)) reached.set(n.id, { depth: far, parent: null, relation: '', direction: 'out' });
  return reached;
}

/**
 * Every non-centre node in one group per (depth, relation, direction, type), largest first within a depth.
 * A "+N more" stub joins the largest group of its depth, relation and direction, so the count sits beside the
 * neighbours it continues; nodes not reached from a centre form groups by type alone.
 */
export function groupNodes(nodes: readonly LayoutNode[], edges: readonly LayoutEdge[], reached = reach(nodes, edges)): NodeGroup[] {
  const groups = new Map<string, NodeGroup>();
  const stubs: LayoutNode[] = [];
  for (const n of nodes) {
    if (n.center) continue;
    if (n.stub) { stubs.push(n); continue; }
    const r = reached.get(n.id)!;
    const key = JSON.stringify([r.depth, r.relation, r.direction, n.type]);
    const group = groups.get(key);
    if (group) { group.members.push(n.id); group.shown++; }
    else groups.set(key, { id: `group:${key}`, depth: r.depth, relation: r.relation, direction: r.direction, type: n.type, members: [n.id], shown: 1 });
  }
  const ordered = [...groups.values()].sort((a, b) => a.depth - b.depth || b.members.length - a.members.length || a.id.localeCompare(b.id));
  for (const s of stubs) {
    const r = reached.get(s.id)!;
    const home = ordered.find((g) => g.depth === r.depth && g.relation === r.relation && g.direction === r.direction);
    if (home) home.members.push(s.id);
    else ordered.push({ id: `group:${JSON.stringify([r.depth, r.relation, r.direction, ''])}`, depth: r.depth, relation: r.relation, direction: r.direction, type: '', members: [s.id], shown: 0 });
  }
  return ordered.sort((a, b) => a.depth - b.depth || b.members.length - a.members.length || a.id.localeCompare(b.id));
}

/** A group's caption: the relation with its direction as seen from the centre, the type and how many are shown. */
export function groupLabel(g: NodeGroup): string {
  const relation = g.relation ? (g.direction === 'out' ? `${g.relation} →` : `← ${g.relation}`) : 'not connected';
  const what = g.type ? ` ${g.type}` : '';
  return g.shown > 0 ? `${relation}${what} (${g.shown.toLocaleString('en')})` : `${relation}${what}`;
}

export interface GroupedLayoutOptions {
  /** Room for one node and its label inside a group. */
  cellWidth?: number;
  cellHeight?: number;
  /** Space between neighbouring groups and between rings. */
  gap?: number;
}

interface Box { group: NodeGroup; cols: number; width: number; height: number; centre: Point }

/** A group's box: its centre and size, the cells of its members and nothing more. */
export interface GroupBox extends Point { width: number; height: number }

/** Where the grouped layout puts every node, and each group's box by group id. */
export interface GroupedLayout { positions: Map<string, Point>; boxes: Map<string, GroupBox> }

/**
 * Positions for the grouped layout: the centre nodes in a row at the origin; each group a compact grid of
 * cells; the groups of each depth side by side on a ring around the centre, each just clear of the rings inside. Groups further out are ordered by where their parents sit, so they face them.
 */
export function groupedPositions(nodes: readonly LayoutNode[], edges: readonly LayoutEdge[], groups: readonly NodeGroup[], opts: GroupedLayoutOptions = {}): GroupedLayout {
  const cellW = opts.cellWidth ?? 130;
  const cellH = opts.cellHeight ?? 40;
  const gap = opts.gap ?? 40;
  const positions = new Map<string, Point>();
  const drawnBoxes = new Map<string, GroupBox>();
  const centres = nodes.filter((n) => n.center);
  centres.forEach((n, i) => positions.set(n.id, { x: (i - (centres.length - 1) / 2) * cellW, y: 0 }));
  const reached = reach(nodes, edges);

  let inner = centres.length > 0 ? (centres.length * cellW) / 2 : 0;
  const depths = [...new Set(groups.map((g) => g.depth))].sort((a, b) => a - b);
  for (const depth of depths) {
    const boxes: Box[] = groups.filter((g) => g.depth === depth).map((group) => {
      // Roughly square on screen: columns × cell width ≈ rows × cell height.
      const cols = Math.max(1, Math.ceil(Math.sqrt((group.members.length * cellH) / cellW)));
      const rows = Math.ceil(group.members.length / cols);
      return { group, cols, width: cols * cellW, height: rows * cellH, centre: { x: 0, y: 0 } };
    });
    // Face the parents: order by the mean angle of the members' parents (the first ring has one parent).
    const facing = (b: Box) => {
      const angles = b.group.members.map((m) => positions.get(reached.get(m)?.parent ?? ''))
        .filter((p): p is Point => p !== undefined && (p.x !== 0 || p.y !== 0))
        .map((p) => Math.atan2(p.y, p.x));
      return angles.length === 0 ? 0 : Math.atan2(angles.reduce((s, a) => s + Math.sin(a), 0), angles.reduce((s, a) => s + Math.cos(a), 0));
    };
    if (depth > 1) boxes.sort((a, b) => facing(a) - facing(b));
    const span = (b: Box) => Math.hypot(b.width, b.height) + gap;
    const total = boxes.reduce((s, b) => s + span(b), 0);
    // Enough circumference for every group's diagonal; each group then as close as it can sit to the ring
    // inside (its half extent towards the centre), but never inside the common ring.
    const ring = boxes.length === 1 && centres.length === 0 ? 0 : total / (2 * Math.PI);
    let angle = boxes.length > 0 && depth > 1 ? facing(boxes[0]!) - (Math.PI * span(boxes[0]!)) / total : -Math.PI / 2;
    let outer = inner;
    for (const b of boxes) {
      const share = (2 * Math.PI * span(b)) / total;
      const mid = boxes.length === 1 ? (depth > 1 ? facing(b) : 0) : angle + share / 2;
      const extent = (Math.abs(Math.cos(mid)) * b.width + Math.abs(Math.sin(mid)) * b.height) / 2;
      const radius = ring === 0 ? 0 : Math.max(ring, inner + gap + extent);
      b.centre = { x: radius * Math.cos(mid), y: radius * Math.sin(mid) };
      drawnBoxes.set(b.group.id, { ...b.centre, width: b.width, height: b.height });
      angle += share;
      outer = Math.max(outer, radius + Math.hypot(b.width, b.height) / 2);
      b.group.members.forEach((id, i) => {
        const col = i % b.cols;
        const row = Math.floor(i / b.cols);
        positions.set(id, { x: b.centre.x - b.width / 2 + (col + 0.5) * cellW, y: b.centre.y - b.height / 2 + (row + 0.5) * cellH });
      });
    }
    inner = outer;
  }
  return { positions, boxes: drawnBoxes };
}

export interface PathLayoutOptions {
  /** Horizontal distance per hop. */
  hopWidth?: number;
  rowHeight?: number;
  /** Taller columns wrap into side-by-side sub-columns this far apart. */
  maxRows?: number;
  subColumnWidth?: number;
}

/**
 * Positions for paths read left to right: each path runs from its first node (x = 0) to its last
 * (x = the longest path's hop count × hopWidth), its inner nodes evenly between, so the shared source sits
 * alone on the left and the target alone on the right. A node on several paths keeps the place of the first
 * (list order: shortest first). Each column is spread vertically around y = 0.
 */
export function pathPositions(paths: readonly (readonly string[])[], opts: PathLayoutOptions = {}): Map<string, Point> {
  const hopWidth = opts.hopWidth ?? 300;
  const rowHeight = opts.rowHeight ?? 34;
  const maxRows = opts.maxRows ?? 24;
  const subWidth = opts.subColumnWidth ?? 90;
  const longest = Math.max(1, ...paths.map((p) => p.length - 1));
  const column = new Map<string, number>();
  for (const p of paths) {
    const hops = p.length - 1;
    p.forEach((id, i) => {
      if (!column.has(id)) column.set(id, hops === 0 ? 0 : (i / hops) * longest);
    });
  }
  const columns = new Map<number, string[]>();
  for (const [id, x] of column) {
    const key = Math.round(x * 1000) / 1000;
    const list = columns.get(key);
    if (list) list.push(id);
    else columns.set(key, [id]);
  }
  const positions = new Map<string, Point>();
  for (const [x, ids] of columns) {
    const subColumns = Math.ceil(ids.length / maxRows);
    const rows = Math.ceil(ids.length / subColumns);
    ids.forEach((id, i) => {
      const sub = Math.floor(i / rows);
      const row = i % rows;
      positions.set(id, { x: x * hopWidth + (sub - (subColumns - 1) / 2) * subWidth, y: (row - (rows - 1) / 2) * rowHeight });
    });
  }
  return positions;
}

/** Views this small label every node. */
export const LABEL_ALL_NODES = 30;

/**
 * Which nodes carry a label at the normal zoom: in a small view all; otherwise the centres and focused nodes,
 * their direct neighbours (unless `neighbours` is false), and the view's hubs (the `hubs` best-connected nodes with at least 3 edges). The
 * rest show theirs on hover or when zoomed in.
 */
export function labelledNodes(
  nodes: readonly LayoutNode[], edges: readonly LayoutEdge[], focus: readonly string[] = [],
  { hubs = 5, neighbours = true }: { hubs?: number; neighbours?: boolean } = {},
): Set<string> {
  if (nodes.length <= LABEL_ALL_NODES) return new Set(nodes.map((n) => n.id));
  const labelled = new Set<string>([...nodes.filter((n) => n.center).map((n) => n.id), ...focus]);
  const anchors = neighbours ? new Set(labelled) : new Set<string>();
  const degree = new Map<string, number>();
  for (const e of edges) {
    degree.set(e.source, (degree.get(e.source) ?? 0) + 1);
    degree.set(e.target, (degree.get(e.target) ?? 0) + 1);
    if (anchors.has(e.source)) labelled.add(e.target);
    if (anchors.has(e.target)) labelled.add(e.source);
  }
  const stubs = new Set(nodes.filter((n) => n.stub).map((n) => n.id));
  [...degree].filter(([id, d]) => d >= 3 && !stubs.has(id))
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, hubs)
    .forEach(([id]) => labelled.add(id));
  return labelled;
}
