'use client';

import cytoscape, { type Core, type ElementDefinition, type LayoutOptions, type NodeSingular } from 'cytoscape';
import { forwardRef, useEffect, useImperativeHandle, useMemo, useRef } from 'react';
import { usePrefersDark } from '@/lib/client/use-prefers-dark';
import { typeColour } from '@/lib/kb/type-colours';
import { DARK_GRAPH_STYLE, graphExportBackground } from './graph-theme';

export interface CanvasNode { id: string; label: string; type: string; center?: boolean; stub?: boolean }
export interface CanvasEdge { id: string; source: string; target: string; label: string }
export type CanvasLayout = 'concentric' | 'cose' | 'breadthfirst';
export const CANVAS_LAYOUTS: readonly CanvasLayout[] = ['concentric', 'cose', 'breadthfirst'];
export interface GraphCanvasHandle {
  exportPng(): string;
  /** Where each drawn node is now (dragged ones included), in model coordinates; group boxes left out. */
  positions(): Record<string, { x: number; y: number }>;
}

export interface GraphCanvasProps {
  nodes: CanvasNode[];
  edges: CanvasEdge[];
  layout: CanvasLayout;
  onSelect?: (nodeId: string) => void;
  onExpand?: (nodeId: string) => void;
  highlight?: string[];
  /** The knowledge base's entity types, which pick the colours (see lib/kb/type-colours); defaults to the types of `nodes`. */
  types?: string[];
  testId?: string;
  className?: string;
  /** What the drawing shows, for screen readers (the canvas itself says nothing)... */
  label: string;
  /** ...and the id(s) of the text on the page that lists what it draws (a caption, a node list). */
  describedBy?: string;
}

const STUB_COLOUR = '#cbd5e1';
/** Above this many edges, edge labels appear only on hover: hundreds of labels are unreadable and slow to draw. */
const ALWAYS_LABEL_EDGES = 40;

/** Hop distance of every node from the centre nodes, ignoring edge direction (unreached nodes count as one hop further than the farthest). */
function hopDepths(nodes: CanvasNode[], edges: CanvasEdge[]): Map<string, number> {
  const adjacent = new Map<string, string[]>();
  const link = (a: string, b: string) => {
    const list = adjacent.get(a);
    if (list) list.push(b);
    else adjacent.set(a, [b]);
  };
  for (const e of edges) {
    link(e.source, e.target);
    link(e.target, e.source);
  }
  const depth = new Map<string, number>();
  let frontier = nodes.filter((n) => n.center).map((n) => n.id);
  for (const id of frontier) depth.set(id, 0);
  for (let d = 1; frontier.length > 0; d++) {
    const next: string[] = [];
    for (const id of frontier) {
      for (const other of adjacent.get(id) ?? []) {
        if (!depth.has(other)) { depth.set(other, d); next.push(other); }
      }
    }
    frontier = next;
  }
  const far = Math.max(0, ...depth.values()) + 1;
  for (const n of nodes) if (!depth.has(n.id)) depth.set(n.id, far);
  return depth;
}

function toElements(nodes: CanvasNode[], edges: CanvasEdge[], types: string[]): ElementDefinition[] {
  const depth = hopDepths(nodes, edges);
  const ids = new Set(nodes.map((n) => n.id));
  return [
    ...nodes.map((n) => ({
      group: 'nodes' as const,
      data: {
        id: n.id, label: n.label, type: n.type, depth: depth.get(n.id) ?? 0,
        colour: n.stub ? STUB_COLOUR : typeColour(types, n.type), center: n.center ? 1 : 0, stub: n.stub ? 1 : 0,
      },
    })),
    // An edge to a node that is not drawn would make cytoscape throw; such an edge is a caller's slip, not data.
    ...edges.filter((e) => ids.has(e.source) && ids.has(e.target))
      .map((e) => ({ group: 'edges' as const, data: { id: e.id, source: e.source, target: e.target, label: e.label } })),
  ];
}

function layoutOptions(name: CanvasLayout, cy: Core): LayoutOptions {
  const common = { fit: true, padding: 24, animate: false } as const;
  if (name === 'concentric') {
    const maxDepth = Math.max(0, ...cy.nodes().map((n) => Number(n.data('depth'))));
    return { ...common, name, concentric: (n: NodeSingular) => maxDepth - Number(n.data('depth')), levelWidth: () => 1, minNodeSpacing: 28 };
  }
  if (name === 'breadthfirst') return { ...common, name, roots: cy.nodes('[center = 1]').map((n) => n.id()), directed: false, spacingFactor: 1.1 };
  // Starting from the current positions keeps the picture steady when an expansion adds nodes.
  return { ...common, name, randomize: false, nodeRepulsion: () => 8000, idealEdgeLength: () => 60, numIter: 1000 };
}

const STYLE: cytoscape.StylesheetJson = [
  { selector: 'node', style: { 'background-color': 'data(colour)', label: 'data(label)', 'font-size': 9, 'text-wrap': 'ellipsis', 'text-max-width': '110px', width: 16, height: 16, color: '#1e293b', 'min-zoomed-font-size': 5 } },
  { selector: 'node[center = 1]', style: { width: 30, height: 30, 'font-weight': 'bold', 'font-size': 11, 'border-width': 2, 'border-color': '#0f172a' } },
  { selector: 'node[stub = 1]', style: { shape: 'round-rectangle', width: (n: cytoscape.NodeSingular) => Math.max(16, String(n.data('label') ?? '').length * 5), height: 14, padding: '3px', 'text-valign': 'center', 'text-halign': 'center', color: '#334155', 'font-size': 8 } },
  { selector: 'node.highlight', style: { 'border-width': 3, 'border-color': '#f59e0b' } },
  { selector: 'node:selected', style: { 'border-width': 3, 'border-color': '#0f172a' } },
  { selector: 'edge', style: { width: 1, 'line-color': '#cbd5e1', 'target-arrow-color': '#cbd5e1', 'target-arrow-shape': 'triangle', 'curve-style': 'bezier', 'arrow-scale': 0.7, 'font-size': 7, color: '#64748b', 'text-rotation': 'autorotate' } },
  { selector: 'edge.labelled, edge.hover', style: { label: 'data(label)' } },
  { selector: 'edge.highlight', style: { width: 2.5, 'line-color': '#f59e0b', 'target-arrow-color': '#f59e0b' } },
];

/**
 * A Cytoscape.js graph: nodes coloured by type, the centre larger, "+N more" stubs as grey boxes. The instance
 * lives as long as the component; new props update its elements in place and re-run the layout. The time from
 * an update to the first drawn frame is kept in `data-render-ms` (and as a performance measure).
 */
export const GraphCanvas = forwardRef<GraphCanvasHandle, GraphCanvasProps>(function GraphCanvas(
  { nodes, edges, layout, onSelect, onExpand, highlight, types, testId, className, label, describedBy },
  ref,
) {
  const container = useRef<HTMLDivElement>(null);
  const cyRef = useRef<Core | null>(null);
  const handlers = useRef({ onSelect, onExpand });
  handlers.current = { onSelect, onExpand };
  const palette = useMemo(() => types ?? [...new Set(nodes.map((n) => n.type))], [types, nodes]);
  const dark = usePrefersDark();

  useImperativeHandle(ref, () => ({
    exportPng: () => cyRef.current?.png({ full: true, bg: graphExportBackground(dark), output: 'base64uri', scale: 2 }) ?? '',
    positions: () => {
      const at: Record<string, { x: number; y: number }> = {};
      cyRef.current?.nodes().forEach((n) => { if (!n.hasClass('group')) at[n.id()] = { ...n.position() }; });
      return at;
    },
  }), [dark]);

  useEffect(() => {
    if (!container.current) return;
    const cy = cytoscape({ container: container.current, style: STYLE, minZoom: 0.05, maxZoom: 4 });
    cy.on('tap', 'node', (event) => handlers.current.onSelect?.(event.target.id()));
    cy.on('dbltap', 'node', (event) => handlers.current.onExpand?.(event.target.id()));
    cy.on('mouseover', 'edge', (event) => event.target.addClass('hover'));
    cy.on('mouseout', 'edge', (event) => event.target.removeClass('hover'));
    cyRef.current = cy;
    return () => {
      cyRef.current = null;
      cy.destroy();
    };
  }, []);

  useEffect(() => {
    cyRef.current?.style(dark ? [...STYLE, ...DARK_GRAPH_STYLE] : STYLE);
  }, [dark]);

  useEffect(() => {
    const cy = cyRef.current;
    const el = container.current;
    if (!cy || !el) return;
    const started = performance.now();
    el.setAttribute('aria-busy', 'true');
    const wanted = toElements(nodes, edges, palette);
    const wantedIds = new Set(wanted.map((e) => e.data.id!));
    cy.batch(() => {
      cy.elements().filter((e) => !wantedIds.has(e.id())).remove();
      const fresh: ElementDefinition[] = [];
      for (const def of wanted) {
        const existing = cy.getElementById(def.data.id!);
        if (existing.nonempty()) existing.data(def.data);
        else fresh.push(def);
      }
      // Nodes first, then edges: an edge needs both ends present.
      cy.add(fresh.filter((d) => d.group === 'nodes'));
      cy.add(fresh.filter((d) => d.group === 'edges'));
      const edgesAll = cy.edges();
      if (edgesAll.length <= ALWAYS_LABEL_EDGES) edgesAll.addClass('labelled');
      else edgesAll.removeClass('labelled');
    });
    const run = cy.layout(layoutOptions(layout, cy));
    run.one('layoutstop', () => {
      // A handful of nodes should not be blown up to fill the canvas.
      if (cy.zoom() > 1.6) { cy.zoom(1.6); cy.center(); }
      cy.one('render', () => {
        const ms = Math.round(performance.now() - started);
        el.setAttribute('data-render-ms', String(ms));
        el.setAttribute('data-elements', String(cy.elements().length));
        // The colour each drawn type got, for checks that every view colours a type alike.
        el.setAttribute('data-type-colours', JSON.stringify(Object.fromEntries(cy.nodes('[stub = 0]').map((n) => [n.data('type'), n.data('colour')]))));
        el.setAttribute('aria-busy', 'false');
        performance.measure?.('skb-graph-render', { start: started, end: started + ms });
      });
      cy.forceRender();
    });
    run.run();
  }, [nodes, edges, layout, palette]);

  useEffect(() => {
    const cy = cyRef.current;
    if (!cy) return;
    const ids = new Set(highlight ?? []);
    cy.batch(() => {
      cy.elements('.highlight').removeClass('highlight');
      cy.elements().filter((e) => ids.has(e.id())).addClass('highlight');
    });
  }, [highlight, nodes, edges]);

  return <div ref={container} data-testid={testId} role="img" aria-label={label} aria-describedby={describedBy} className={className ?? 'h-96 w-full rounded border border-slate-100 bg-slate-50'} />;
});
