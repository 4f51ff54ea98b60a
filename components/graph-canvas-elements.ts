import type { Core, ElementDefinition, LayoutOptions, NodeSingular, StylesheetJson } from 'cytoscape';
import { GRAPH_LAYOUTS, groupedPositions, groupLabel, groupNodes, labelledNodes, reach, type GraphLayoutName, type Point } from '@/lib/kb/graph-layout';
import { typeColour } from '@/lib/kb/type-colours';

export interface CanvasNode { id: string; label: string; type: string; center?: boolean; stub?: boolean }
export interface CanvasEdge { id: string; source: string; target: string; label: string }
export type CanvasLayout = GraphLayoutName;
export const CANVAS_LAYOUTS: readonly CanvasLayout[] = GRAPH_LAYOUTS;

const STUB_COLOUR = '#cbd5e1';
/** Room around a group's cells inside its box. */
const GROUP_PADDING = 12;
/**
 * Above this many edges, an edge's label appears only while it or one of its ends is hovered: more labels pile
 * up where edges meet (the type map's busiest types) and are slow to draw.
 */
const ALWAYS_LABEL_EDGES = 12;

/**
 * Names are cut to these many characters here rather than by Cytoscape's `text-wrap: ellipsis`, which measures
 * the text once per character kept: with long names (paper titles) that was most of a first frame's cost.
 */
const SHORT_LABEL = 28;
const LONG_LABEL = 48;
const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`);

/** What the canvas draws for one update: the elements and, for the grouped and path layouts, their positions. */
export interface CanvasPlan { elements: ElementDefinition[]; positions: ReadonlyMap<string, Point> | null }

/**
 * The Cytoscape elements for a view. With `concentric` and a centre, the neighbours are grouped by relation and
 * type (lib/kb/graph-layout): each group a box behind its members captioned with its relation, type and count,
 * placed on rings by hop. `positions` (the paths view) places the nodes as given instead.
 */
export function planCanvas(nodes: CanvasNode[], edges: CanvasEdge[], types: string[], layout: CanvasLayout, positions?: ReadonlyMap<string, Point>): CanvasPlan {
  const ids = new Set(nodes.map((n) => n.id));
  // An edge to a node that is not drawn would make cytoscape throw; such an edge is a caller's slip, not data.
  const drawn = edges.filter((e) => ids.has(e.source) && ids.has(e.target));
  const reached = reach(nodes, drawn);
  // In the paths view nearly every node neighbours an end: only the ends and hubs keep their names there.
  const labelled = labelledNodes(nodes, drawn, [], { neighbours: !positions });
  const grouped = !positions && layout === 'concentric' && nodes.some((n) => n.center);
  const groups = grouped ? groupNodes(nodes, drawn, reached) : [];
  const groupOf = new Map(groups.flatMap((g) => g.members.map((m) => [m, g.id] as const)));
  const layoutOfGroups = grouped ? groupedPositions(nodes, drawn, groups, { cellWidth: 140, cellHeight: 22 }) : null;
  // A group is a box drawn behind its members, not a Cytoscape compound parent: compound bounds are recomputed
  // whenever a member's style or place changes, which made them a third of the first frame's cost.
  const groupElements: ElementDefinition[] = groups.map((g) => {
    const box = layoutOfGroups!.boxes.get(g.id)!;
    const label = groupLabel(g);
    return {
      group: 'nodes', classes: 'group', selectable: false, grabbable: false, pannable: true,
      data: { id: g.id, label, short: label, long: label, type: g.type, colour: STUB_COLOUR, depth: g.depth, center: 0, stub: 0, members: g.members.length, width: box.width + GROUP_PADDING, height: box.height + GROUP_PADDING },
    };
  });
  const nodeElements: ElementDefinition[] = nodes.map((n) => ({
    group: 'nodes',
    classes: [labelled.has(n.id) ? 'labelled' : '', groupOf.has(n.id) ? 'member' : ''].join(' ').trim(),
    data: {
      id: n.id, label: n.label, short: clip(n.label, SHORT_LABEL), long: clip(n.label, LONG_LABEL), width: n.stub ? Math.max(16, n.label.length * 5) : 16,
      type: n.type, depth: reached.get(n.id)?.depth ?? 0, group: groupOf.get(n.id),
      colour: n.stub ? STUB_COLOUR : typeColour(types, n.type), center: n.center ? 1 : 0, stub: n.stub ? 1 : 0,
    },
  }));
  const edgeElements: ElementDefinition[] = drawn.map((e) => ({
    group: 'edges',
    classes: [drawn.length <= ALWAYS_LABEL_EDGES ? 'labelled' : '', groupOf.has(e.source) || groupOf.has(e.target) ? 'grouped' : ''].join(' ').trim(),
    data: { id: e.id, source: e.source, target: e.target, label: e.label },
  }));
  return {
    // Nodes before the edges that need both ends present.
    elements: [...groupElements, ...nodeElements, ...edgeElements],
    positions: positions ?? (layoutOfGroups ? new Map([...layoutOfGroups.positions, ...[...layoutOfGroups.boxes].map(([id, b]) => [id, { x: b.x, y: b.y }] as const)]) : null),
  };
}

export function layoutOptions(name: CanvasLayout, cy: Core, positions: ReadonlyMap<string, Point> | null): LayoutOptions {
  const common = { fit: true, padding: 24, animate: false } as const;
  if (positions) return { ...common, name: 'preset', positions: Object.fromEntries(positions) };
  if (name === 'concentric') {
    const maxDepth = Math.max(0, ...cy.nodes().map((n) => Number(n.data('depth'))));
    return { ...common, name, concentric: (n: NodeSingular) => maxDepth - Number(n.data('depth')), levelWidth: () => 1, minNodeSpacing: 28 };
  }
  if (name === 'breadthfirst') return { ...common, name, roots: cy.nodes('[center = 1]').map((n) => n.id()), directed: false, spacingFactor: 1.1 };
  // Starting from the current positions keeps the picture steady when an expansion adds nodes; counting the
  // labels in the node sizes keeps the type map's long labels apart.
  return { ...common, name, randomize: false, nodeDimensionsIncludeLabels: true, nodeRepulsion: () => 12000, idealEdgeLength: () => 80, numIter: 1000 };
}

/**
 * Labels stay legible: every node has one, but at a size Cytoscape skips below zoom 1.5 (`min-zoomed-font-size`);
 * `.labelled` nodes (centres, their neighbours, hubs) show theirs from zoom 0.4; hovered, selected, focused and
 * highlighted nodes always, above the rest.
 */
export const GRAPH_STYLE: StylesheetJson = [
  { selector: 'node', style: { 'background-color': 'data(colour)', label: 'data(short)', 'font-size': 8, 'min-zoomed-font-size': 12, width: 16, height: 16, color: '#1e293b' } },
  { selector: 'node.labelled', style: { 'font-size': 10, 'min-zoomed-font-size': 4 } },
  { selector: 'node[center = 1]', style: { width: 30, height: 30, 'font-weight': 'bold', 'font-size': 12, 'min-zoomed-font-size': 3, 'border-width': 2, 'border-color': '#0f172a' } },
  { selector: 'node[stub = 1]', style: { shape: 'round-rectangle', width: 'data(width)', height: 14, padding: '3px', 'text-valign': 'center', 'text-halign': 'center', color: '#334155', 'font-size': 8, 'min-zoomed-font-size': 4 } },
  // Behind everything, edges included, as a compound parent would be.
  { selector: 'node.group', style: { shape: 'round-rectangle', width: 'data(width)', height: 'data(height)', 'z-compound-depth': 'bottom', 'background-color': '#f1f5f9', 'background-opacity': 0.7, 'border-width': 1, 'border-color': '#cbd5e1', 'text-valign': 'top', 'text-halign': 'center', 'font-size': 11, 'font-weight': 'bold', 'min-zoomed-font-size': 4, color: '#334155' } },
  // In a group, names sit to the right of their nodes, a list in rows.
  { selector: 'node.member', style: { width: 12, height: 12, 'text-halign': 'right', 'text-valign': 'center', 'text-margin-x': 4 } },
  { selector: 'node.hover, node.focus, node.highlight, node:selected', style: { label: 'data(long)', 'font-size': 11, 'min-zoomed-font-size': 0, 'z-index': 20, 'text-outline-width': 2, 'text-outline-color': '#ffffff' } },
  { selector: 'node.highlight', style: { 'border-width': 3, 'border-color': '#f59e0b' } },
  { selector: 'node:selected', style: { 'border-width': 3, 'border-color': '#0f172a' } },
  { selector: 'edge', style: { width: 1, 'line-color': '#cbd5e1', 'target-arrow-color': '#cbd5e1', 'target-arrow-shape': 'triangle', 'curve-style': 'straight', 'arrow-scale': 0.7, 'font-size': 7, color: '#64748b', 'text-rotation': 'autorotate' } },
  // The many edges into a group would cross its names; the box already says how they connect.
  { selector: 'edge.grouped', style: { opacity: 0.35 } },
  { selector: 'edge.labelled, edge.hover', style: { label: 'data(label)', 'text-background-color': '#ffffff', 'text-background-opacity': 0.8 } },
  { selector: 'edge.highlight', style: { width: 2.5, 'line-color': '#f59e0b', 'target-arrow-color': '#f59e0b' } },
];
