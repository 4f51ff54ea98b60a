'use client';

import cytoscape, { type Core, type ElementDefinition } from 'cytoscape';
import { forwardRef, useEffect, useImperativeHandle, useMemo, useRef, useState } from 'react';
import { usePrefersDark } from '@/lib/client/use-prefers-dark';
import type { Point } from '@/lib/kb/graph-layout';
import { GRAPH_STYLE, layoutOptions, planCanvas, type CanvasEdge, type CanvasLayout, type CanvasNode } from './graph-canvas-elements';
import { DARK_GRAPH_STYLE, graphExportBackground } from './graph-theme';

export { CANVAS_LAYOUTS, type CanvasEdge, type CanvasLayout, type CanvasNode } from './graph-canvas-elements';
export interface GraphCanvasHandle {
  exportPng(): string;
  /** Where each drawn node is now (dragged ones included), in model coordinates; group boxes left out. */
  positions(): Record<string, { x: number; y: number }>;
}

export interface GraphCanvasProps {
  nodes: CanvasNode[];
  edges: CanvasEdge[];
  /** Ignored when `positions` is given. */
  layout?: CanvasLayout;
  /** Fixed positions by node id (the paths view lays its paths out itself). */
  positions?: ReadonlyMap<string, Point>;
  /** `auto` draws with WebGL from WEBGL_MIN_ELEMENTS elements on, where the browser has hardware WebGL 2. */
  renderer?: 'auto' | 'canvas' | 'webgl';
  /** How the view is drawn while panned or zoomed; by default LARGE_VIEW_MOVING for a large view in the 2D canvas, else `full`. */
  moving?: MovingDraw;
  onSelect?: (nodeId: string) => void;
  onExpand?: (nodeId: string) => void;
  /** Called after each update's first drawn frame. */
  onDrawn?: () => void;
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

/**
 * From this many elements on, a view is large: it moves as LARGE_VIEW_MOVING says, is drawn at pixel ratio 1,
 * and with Cytoscape's WebGL renderer where the browser has a hardware one (see docs/benchmarks.md, "Graph
 * frames"): the 2D canvas redraws every element on each frame.
 */
export const WEBGL_MIN_ELEMENTS = 1000;

/**
 * What is drawn while the view is panned or zoomed: everything (`full`); everything but the edges
 * (`no-edges`); or a picture of the view taken when the gesture starts, moved and scaled (`texture`), redrawn
 * in full when it ends.
 */
export type MovingDraw = 'full' | 'no-edges' | 'texture';
/** A large view's choice, from frame times measured in software (docs/benchmarks.md, "Graph frames"). */
export const LARGE_VIEW_MOVING: MovingDraw = 'no-edges';

function movingOptions(mode: MovingDraw): Pick<cytoscape.CytoscapeOptions, 'hideEdgesOnViewport' | 'textureOnViewport'> {
  return { hideEdgesOnViewport: mode === 'no-edges', textureOnViewport: mode === 'texture' };
}

let hardwareGl: boolean | undefined;
/** Whether the browser offers WebGL 2 on a GPU; software GL (SwiftShader, llvmpipe) drew slower than the 2D canvas. */
function hardwareWebgl(): boolean {
  if (hardwareGl !== undefined) return hardwareGl;
  const gl = typeof document === 'undefined' ? null : document.createElement('canvas').getContext('webgl2');
  if (!gl) return (hardwareGl = false);
  const info = gl.getExtension('WEBGL_debug_renderer_info');
  const name = String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER));
  gl.getExtension('WEBGL_lose_context')?.loseContext();
  return (hardwareGl = !/swiftshader|llvmpipe|software/i.test(name));
}

/** Calls `done` once the frame after now is drawn: the 2D renderer says so; the WebGL one draws in the next animation frame and says nothing. */
function afterNextDraw(cy: Core, webgl: boolean, done: () => void) {
  if (webgl) requestAnimationFrame(() => requestAnimationFrame(done));
  else cy.one('render', done);
}

/**
 * A Cytoscape.js graph: nodes coloured by type, the centre larger, "+N more" stubs as grey boxes, neighbours
 * grouped by relation and type in the rings layout. The instance lives as long as the component (and its
 * renderer: crossing WEBGL_MIN_ELEMENTS starts a new one); new props update its elements in place and re-run
 * the layout. The time from an update to the first drawn frame is kept in `data-render-ms` (and as a
 * performance measure), the renderer in `data-renderer`, whether the view counts as large in `data-large`, what
 * is drawn while it moves in `data-moving`.
 */
export const GraphCanvas = forwardRef<GraphCanvasHandle, GraphCanvasProps>(function GraphCanvas(
  { nodes, edges, layout = 'concentric', positions, renderer = 'auto', moving, onSelect, onExpand, onDrawn, highlight, types, testId, className, label, describedBy },
  ref,
) {
  const container = useRef<HTMLDivElement>(null);
  const [cy, setCy] = useState<Core | null>(null);
  const handlers = useRef({ onSelect, onExpand, onDrawn });
  handlers.current = { onSelect, onExpand, onDrawn };
  const palette = useMemo(() => types ?? [...new Set(nodes.map((n) => n.type))], [types, nodes]);
  const dark = usePrefersDark();
  const large = nodes.length + edges.length >= WEBGL_MIN_ELEMENTS;
  const webgl = renderer === 'webgl' || (renderer === 'auto' && large && hardwareWebgl());
  // Cytoscape's WebGL renderer draws every frame in full whatever these options say.
  const movingDraw = moving ?? (large && !webgl ? LARGE_VIEW_MOVING : 'full');

  useImperativeHandle(ref, () => ({
    exportPng: () => cy?.png({ full: true, bg: graphExportBackground(dark), output: 'base64uri', scale: 2 }) ?? '',
    positions: () => {
      const at: Record<string, { x: number; y: number }> = {};
      cy?.nodes().forEach((n) => { if (!n.hasClass('group')) at[n.id()] = { ...n.position() }; });
      return at;
    },
  }), [cy, dark]);

  useEffect(() => {
    const el = container.current;
    if (!el) return;
    // Cytoscape's WebGL mode (experimental, 3.31+) is an option of its canvas renderer, not in its typings yet.
    const options: cytoscape.CytoscapeOptions & { renderer?: { name: 'canvas'; webgl: boolean } } = {
      container: el, style: GRAPH_STYLE, minZoom: 0.05, maxZoom: 4,
      // Redrawing thousands of elements on every frame of a gesture is what makes a large view stutter.
      ...movingOptions(movingDraw),
      // A large view is drawn at one canvas pixel per CSS pixel: on a high-density screen that is a quarter
      // of the pixels to fill, at the cost of sharpness.
      pixelRatio: large ? 1 : 'auto',
      ...(webgl ? { renderer: { name: 'canvas', webgl: true } } : {}),
    };
    const instance = cytoscape(options);
    const entity = (event: cytoscape.EventObject) => !event.target.hasClass('group');
    instance.on('tap', 'node', (event) => { if (entity(event)) handlers.current.onSelect?.(event.target.id()); });
    instance.on('dbltap', 'node', (event) => { if (entity(event)) handlers.current.onExpand?.(event.target.id()); });
    // A hovered node shows its name, a hovered edge its label.
    instance.on('mouseover', 'node, edge', (event) => event.target.addClass('hover'));
    instance.on('mouseout', 'node, edge', (event) => event.target.removeClass('hover'));
    // The selected node's neighbours show their labels too.
    instance.on('select', 'node', (event) => event.target.closedNeighborhood('node').addClass('focus'));
    instance.on('unselect', 'node', () => instance.nodes('.focus').removeClass('focus'));
    el.setAttribute('data-renderer', webgl ? 'webgl' : 'canvas');
    el.setAttribute('data-large', String(large));
    el.setAttribute('data-moving', movingDraw);
    setCy(instance);
    return () => {
      setCy(null);
      instance.destroy();
    };
  }, [webgl, large, movingDraw]);

  useEffect(() => {
    if (cy && !cy.destroyed()) cy.style(dark ? [...GRAPH_STYLE, ...DARK_GRAPH_STYLE] : GRAPH_STYLE);
  }, [cy, dark]);

  useEffect(() => {
    const el = container.current;
    // When the renderer changes, this render still holds the instance its cleanup just destroyed.
    if (!cy || cy.destroyed() || !el) return;
    const started = performance.now();
    el.setAttribute('aria-busy', 'true');
    const plan = planCanvas(nodes, edges, palette, layout, positions);
    const wantedIds = new Set(plan.elements.map((e) => e.data.id!));
    cy.batch(() => {
      cy.elements().filter((e) => !wantedIds.has(e.id())).remove();
      const fresh: ElementDefinition[] = [];
      for (const def of plan.elements) {
        const existing = cy.getElementById(def.data.id!);
        if (existing.empty()) { fresh.push(def); continue; }
        existing.data(def.data);
        existing.classes(def.classes ?? '');
      }
      cy.add(fresh);
    });
    const run = cy.layout(layoutOptions(layout, cy, plan.positions));
    run.one('layoutstop', () => {
      // A handful of nodes should not be blown up to fill the canvas.
      if (cy.zoom() > 1.6) { cy.zoom(1.6); cy.center(); }
      afterNextDraw(cy, webgl, () => {
        const ms = Math.round(performance.now() - started);
        const entities = cy.nodes().not('.group');
        el.setAttribute('data-render-ms', String(ms));
        // The view's elements; group boxes are drawing, not data.
        el.setAttribute('data-elements', String(entities.length + cy.edges().length));
        // The colour each drawn type got, for checks that every view colours a type alike.
        el.setAttribute('data-type-colours', JSON.stringify(Object.fromEntries(entities.filter('[stub = 0]').map((n) => [n.data('type'), n.data('colour')]))));
        el.setAttribute('aria-busy', 'false');
        performance.measure?.('skb-graph-render', { start: started, end: started + ms });
        handlers.current.onDrawn?.();
      });
      cy.forceRender();
    });
    run.run();
  }, [cy, webgl, nodes, edges, layout, positions, palette]);

  useEffect(() => {
    if (!cy || cy.destroyed()) return;
    const ids = new Set(highlight ?? []);
    cy.batch(() => {
      cy.elements('.highlight').removeClass('highlight');
      const lit = cy.elements().filter((e) => ids.has(e.id())).addClass('highlight');
      // One highlighted node is the focus: its neighbours show their labels.
      cy.nodes('.focus').not(':selected').removeClass('focus');
      if (lit.nodes().length === 1) lit.nodes().closedNeighborhood('node').addClass('focus');
    });
  }, [cy, highlight, nodes, edges]);

  return <div ref={container} data-testid={testId} role="img" aria-label={label} aria-describedby={describedBy} className={className ?? 'h-96 w-full rounded border border-slate-100 bg-slate-50'} />;
});
