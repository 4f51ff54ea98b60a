'use client';

import Link from 'next/link';
import { plural } from '@/lib/format/plural';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { Suspense, useCallback, useMemo, useRef, useState } from 'react';
import type { EntityDetail } from '@/lib/kb/entity';
import type { SavedView } from '@/lib/kb/saved-views';
import { expansionBudget, mergeExpansion, VIEW_ELEMENT_CAP } from '@/lib/kb/graph-view';
import type { GraphDirection, GraphView } from '@/lib/kb/neighbourhood';
import { groupLabel } from '@/lib/kb/relation-groups';
import { fetchJson } from '@/lib/client/fetch-json';
import { DocumentView } from './document-view';
import { EntityPicker } from './entity-picker';
import { TypeLegend } from './type-legend';
import { SavedViews, useOpenedView, type ExplorerView } from './saved-views';
import { GraphNodeList } from './graph-node-list';
import { CANVAS_LAYOUTS, GraphCanvas, type CanvasEdge, type CanvasLayout, type CanvasNode, type GraphCanvasHandle } from './graph-canvas';

export interface GraphExplorerProps {
  kbSlug: string;
  /** All entity types of the knowledge base, sorted: the palette order, so colours stay put between views. */
  types: string[];
  relations: string[];
  hubs: { id: number; name: string; type: string; degree: number }[];
}

interface ViewState {
  entity: number | null;
  hops: 1 | 2 | 3;
  rel: string[];
  dir: GraphDirection;
  layout: CanvasLayout;
  selected: number | null;
  /** Nodes expanded on top of the view, in order. */
  expand: number[];
  /** The saved view shown, while nothing but the selection has changed. */
  view: number | null;
}

const DIRECTIONS: { value: GraphDirection; label: string }[] = [
  { value: 'both', label: 'Both directions' }, { value: 'out', label: 'Outgoing' }, { value: 'in', label: 'Incoming' },
];
const LAYOUT_LABELS: Record<CanvasLayout, string> = { concentric: 'Rings by hop', cose: 'Force-directed', breadthfirst: 'Tree' };

const positiveId = (v: string | null) => (v && /^\d+$/.test(v) && Number(v) > 0 ? Number(v) : null);

/** The view state as the URL holds it; anything unreadable falls back to its default. */
function readState(params: URLSearchParams, relations: string[]): ViewState {
  const hops = Number(params.get('hops'));
  const dir = params.get('dir');
  const layout = params.get('layout');
  return {
    entity: positiveId(params.get('entity')),
    hops: hops === 2 || hops === 3 ? hops : 1,
    rel: params.getAll('rel').filter((r) => relations.includes(r)),
    dir: dir === 'out' || dir === 'in' ? dir : 'both',
    layout: CANVAS_LAYOUTS.includes(layout as CanvasLayout) ? (layout as CanvasLayout) : 'concentric',
    selected: positiveId(params.get('selected')),
    expand: [...new Set(params.getAll('expand').map(positiveId).filter((x): x is number => x !== null))],
    view: positiveId(params.get('view')),
  };
}

function writeState(s: ViewState): string {
  const q = new URLSearchParams();
  if (s.entity !== null) q.set('entity', String(s.entity));
  q.set('hops', String(s.hops));
  for (const r of s.rel) q.append('rel', r);
  q.set('dir', s.dir);
  q.set('layout', s.layout);
  if (s.selected !== null) q.set('selected', String(s.selected));
  for (const e of s.expand) q.append('expand', String(e));
  if (s.view !== null) q.set('view', String(s.view));
  return q.toString();
}

function graphUrl(slug: string, entity: number, hops: number, rel: string[], dir: GraphDirection, budget: number): string {
  const q = new URLSearchParams({ entity: String(entity), hops: String(hops), dir, budget: String(budget) });
  for (const r of rel) q.append('rel', r);
  return `/api/kbs/${encodeURIComponent(slug)}/graph?${q}`;
}

function toCanvas(view: GraphView): { nodes: CanvasNode[]; edges: CanvasEdge[] } {
  const nodes: CanvasNode[] = view.nodes.map((n) => ({ id: String(n.id), label: n.name, type: n.type, center: n.id === view.center }));
  const edges: CanvasEdge[] = view.edges.map((e) => ({ id: `${e.source}-${e.relation}-${e.target}`, source: String(e.source), target: String(e.target), label: e.relation }));
  for (const s of view.stubs) {
    nodes.push({ id: s.id, label: `+${s.hidden.toLocaleString('en')} more`, type: '', stub: true });
    const parent = String(s.parent);
    edges.push({ id: `${s.id}-edge`, source: s.direction === 'out' ? parent : s.id, target: s.direction === 'out' ? s.id : parent, label: s.relation });
  }
  return { nodes, edges };
}

/** A canvas id as an entity id: a stub stands for its parent. */
function entityOf(view: GraphView | undefined, canvasId: string): number | null {
  if (/^\d+$/.test(canvasId)) return Number(canvasId);
  return view?.stubs.find((s) => s.id === canvasId)?.parent ?? null;
}

/**
 * The graph view: a 1- to 3-hop neighbourhood within the server's element budget, expandable node by node,
 * filtered by relation and direction. Its whole state lives in the URL, so a view can be shared and reloaded.
 */
export function GraphExplorer({ kbSlug, types, relations, hubs }: GraphExplorerProps) {
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const queryClient = useQueryClient();
  const canvas = useRef<GraphCanvasHandle>(null);
  const [notice, setNotice] = useState<string | null>(null);
  // The node list is completed once the canvas has drawn its first frame (see GraphNodeList).
  const [listComplete, setListComplete] = useState(false);
  const completeList = useCallback(() => setListComplete(true), []);
  const state = useMemo(() => readState(new URLSearchParams(params.toString()), relations), [params, relations]);

  const update = useCallback((patch: Partial<ViewState>) => {
    setNotice(null);
    // Any change but the selection leaves the saved view.
    const view = Object.keys(patch).every((k) => k === 'selected' || k === 'view') ? state.view : null;
    router.replace(`${pathname}?${writeState({ ...state, view, ...patch })}`, { scroll: false });
  }, [router, pathname, state]);
  const shown: ExplorerView | null = useMemo(() => {
    const { entity, hops, dir, rel, layout, expand, selected } = state;
    return entity === null ? null : { entity, hops, dir, rel, layout, expand, selected };
  }, [state]);
  const showView = useCallback(({ id, state: { positions: _, ...s } }: SavedView) => {
    setNotice(null);
    // Read back as any URL is, so a layout or relation the page no longer knows falls back to its default.
    const q = new URLSearchParams(writeState({ ...s, hops: s.hops as ViewState['hops'], layout: s.layout as CanvasLayout, view: id }));
    router.replace(`${pathname}?${writeState(readState(q, relations))}`, { scroll: false });
  }, [router, pathname, relations]);
  const saved = useOpenedView(kbSlug, state.view, shown, showView);
  const savedViews = (
    <SavedViews kbSlug={kbSlug} current={shown} openId={state.view} readPositions={() => canvas.current?.positions() ?? {}} onOpen={showView}
      onDeleted={(id) => { if (id === state.view) update({ view: null }); }} />
  );

  const { data: view, error, isFetching } = useQuery({
    queryKey: ['graph-view', kbSlug, state.entity, state.hops, state.rel, state.dir, state.expand],
    enabled: state.entity !== null,
    placeholderData: keepPreviousData,
    queryFn: async () => {
      // Each request is cached on its own, so adding an expansion refetches only the new one.
      const request = (entity: number, hops: number, budget: number) => queryClient.fetchQuery({
        queryKey: ['graph', kbSlug, entity, hops, state.rel, state.dir, budget],
        queryFn: () => fetchJson<GraphView>(graphUrl(kbSlug, entity, hops, state.rel, state.dir, budget)),
        staleTime: 5 * 60_000,
      });
      let merged = await request(state.entity!, state.hops, 500);
      const skipped: number[] = [];
      for (const id of state.expand) {
        const budget = expansionBudget(merged);
        if (budget === 0 || !merged.nodes.some((n) => n.id === id)) { skipped.push(id); continue; }
        merged = mergeExpansion(merged, await request(id, 1, budget));
      }
      return { view: merged, skipped };
    },
  });
  const current = view?.view;
  const elements = useMemo(() => (current ? toCanvas(current) : { nodes: [], edges: [] }), [current]);
  const highlight = useMemo(() => (state.selected !== null ? [String(state.selected)] : []), [state.selected]);

  const expand = useCallback((id: number) => {
    if (!current) return;
    if (expansionBudget(current) === 0) {
      setNotice(`The view holds ${current.elements.toLocaleString('en')} elements, near its cap of ${VIEW_ELEMENT_CAP.toLocaleString('en')}: narrow the filters or centre the view on this node to see more.`);
      return;
    }
    update({ expand: [...state.expand.filter((x) => x !== id), id], selected: id });
  }, [current, state.expand, update]);

  const onSelect = useCallback((canvasId: string) => {
    const id = entityOf(current, canvasId);
    if (id !== null) update({ selected: id });
  }, [current, update]);
  const onExpand = useCallback((canvasId: string) => {
    const id = entityOf(current, canvasId);
    if (id !== null) expand(id);
  }, [current, expand]);

  const exportPng = () => {
    const url = canvas.current?.exportPng();
    if (!url || state.entity === null) return;
    const a = document.createElement('a');
    a.href = url;
    a.download = `graph-${kbSlug}-${state.entity}.png`;
    a.click();
  };

  const toggleRelation = (name: string, on: boolean) => {
    const chosen = state.rel.length === 0 ? relations : state.rel;
    const next = on ? [...chosen, name] : chosen.filter((r) => r !== name);
    // All relations chosen is the same as none: the URL stays short.
    update({ rel: next.length === relations.length ? [] : relations.filter((r) => next.includes(r)), expand: [], selected: null });
  };

  const picker = (
    <EntityPicker kbSlug={kbSlug} label="Centre entity" placeholder="Find an entity by name or id…" testId="graph-entity-picker"
      onSelect={(e) => update({ entity: e.id, expand: [], selected: null })} />
  );

  if (state.entity === null) {
    return (
      <div className="space-y-4">
        <div className="max-w-xl">{picker}</div>
        <p className="text-sm text-slate-600" data-testid="graph-hint">Choose an entity to see its neighbourhood, or start from one of the most connected:</p>
        <ul className="flex flex-wrap gap-2 text-sm" data-testid="graph-suggestions">
          {hubs.map((h) => (
            <li key={h.id}>
              <Link className="rounded border border-slate-200 bg-white px-2 py-1 hover:border-blue-400" href={`${pathname}?${writeState({ ...state, entity: h.id, view: null })}`}>
                {h.name} <span className="text-xs text-slate-500">{h.type} · {h.degree.toLocaleString('en')}</span>
              </Link>
            </li>
          ))}
        </ul>
        {saved.error && <p role="alert" className="text-sm text-red-700">Could not open the saved view: {saved.error.message}</p>}
        <div className="max-w-xl">{savedViews}</div>
      </div>
    );
  }

  const chosen = state.rel.length === 0 ? relations : state.rel;
  const selectedNode = current?.nodes.find((n) => n.id === state.selected) ?? null;
  const centre = current?.nodes.find((n) => n.id === current.center) ?? null;
  // Distinct entities: one held by two stubs counts once (after expansions, at least this many).
  const hidden = current?.hiddenNeighbours;
  const shownTypes = types.filter((t) => current?.nodes.some((n) => n.type === t));

  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-end gap-4 rounded-lg border border-slate-200 bg-white p-3 text-sm">
        <div className="w-72">{picker}</div>
        <label className="flex flex-col gap-1">
          <span className="text-xs font-medium text-slate-600">Hops</span>
          <select className="rounded border border-slate-300 px-2 py-1" value={state.hops} data-testid="graph-hops"
            onChange={(e) => update({ hops: Number(e.target.value) as 1 | 2 | 3, expand: [], selected: null })}>
            {[1, 2, 3].map((h) => <option key={h} value={h}>{h}</option>)}
          </select>
        </label>
        <label className="flex flex-col gap-1">
          <span className="text-xs font-medium text-slate-600">Direction</span>
          <select className="rounded border border-slate-300 px-2 py-1" value={state.dir} data-testid="graph-direction"
            onChange={(e) => update({ dir: e.target.value as GraphDirection, expand: [], selected: null })}>
            {DIRECTIONS.map((d) => <option key={d.value} value={d.value}>{d.label}</option>)}
          </select>
        </label>
        <label className="flex flex-col gap-1">
          <span className="text-xs font-medium text-slate-600">Layout</span>
          <select className="rounded border border-slate-300 px-2 py-1" value={state.layout} data-testid="graph-layout"
            onChange={(e) => update({ layout: e.target.value as CanvasLayout })}>
            {CANVAS_LAYOUTS.map((l) => <option key={l} value={l}>{LAYOUT_LABELS[l]}</option>)}
          </select>
        </label>
        <button type="button" className="rounded border border-slate-300 px-3 py-1 hover:bg-slate-50 disabled:opacity-50" onClick={exportPng} disabled={!current}>
          Export PNG
        </button>
        <fieldset className="basis-full">
          <legend className="text-xs font-medium text-slate-600">Relations</legend>
          <div className="mt-1 flex flex-wrap gap-x-4 gap-y-1" data-testid="graph-relations">
            {relations.map((r) => {
              const on = chosen.includes(r);
              return (
                <label key={r} className="flex items-center gap-1">
                  <input type="checkbox" checked={on} disabled={on && chosen.length === 1} onChange={(e) => toggleRelation(r, e.target.checked)} />
                  {r}
                </label>
              );
            })}
          </div>
        </fieldset>
      </div>

      {error && <p role="alert" className="text-sm text-red-700">Could not load the graph: {error.message}</p>}
      {saved.error && <p role="alert" className="text-sm text-red-700">Could not open the saved view: {saved.error.message}</p>}
      {notice && <p role="status" className="text-sm text-amber-800" data-testid="graph-notice">{notice}</p>}

      <div className="grid gap-3 lg:grid-cols-[1fr_22rem]">
        <div className="min-w-0 space-y-2">
          <div className="relative">
            <GraphCanvas ref={canvas} nodes={elements.nodes} edges={elements.edges} layout={state.layout} positions={saved.positions} types={types}
              highlight={highlight} onSelect={onSelect} onExpand={onExpand} onDrawn={completeList} testId="graph-canvas"
              label={centre ? `Graph around ${centre.name}` : 'Graph'} describedBy="graph-caption"
              className="h-[36rem] w-full rounded-lg border border-slate-200 bg-white" />
            {isFetching && <span className="absolute right-2 top-2 text-xs text-slate-500">Loading…</span>}
          </div>
          <TypeLegend kbTypes={types} types={shownTypes} />
          {centre && (
            <p className="text-sm" data-testid="graph-centre">
              Centre: <Link className="font-medium text-blue-700 hover:underline" href={`/kb/${encodeURIComponent(kbSlug)}/entities/${centre.id}`}>{centre.name}</Link>
              <span className="text-slate-500"> · {centre.type}</span>
            </p>
          )}
          {current && (
            <p id="graph-caption" className="text-xs text-slate-600" data-testid="graph-caption">
              <span data-testid="graph-counts">{plural(current.nodes.length, 'node')}, {plural(current.edges.length, 'edge')}</span>
              {' '}within {state.hops} {state.hops === 1 ? 'hop' : 'hops'}
              {hidden && hidden.count > 0 && <>; {hidden.exact ? '' : 'at least '}{plural(hidden.count, 'more neighbour')} not drawn</>}
              {current.unexpanded.length > 0 && <>; {plural(current.unexpanded.length, 'node')} not expanded</>}
              {view?.skipped.length ? <>; {view.skipped.length} expansions skipped (view full or node not shown)</> : null}
              . {current.elements.toLocaleString('en')} elements
              {state.expand.length > 0 ? ` (the view holds at most ${VIEW_ELEMENT_CAP.toLocaleString('en')})` : ` of at most ${current.budget.toLocaleString('en')}`}.
              {' '}Click a node to see its document, double-click to expand it.
            </p>
          )}
        </div>

        {/* A boundary of its own: React hydrates it after the rest, so the canvas starts drawing before the
            node list is hydrated. */}
        <Suspense>
          <aside className="min-w-0 space-y-3">
            {selectedNode
              ? <SidePanel kbSlug={kbSlug} view={current!} nodeId={selectedNode.id} onExpand={() => expand(selectedNode.id)}
                  onCentre={() => update({ entity: selectedNode.id, expand: [], selected: selectedNode.id })} />
              : <p className="rounded-lg border border-slate-200 bg-white p-3 text-sm text-slate-500">Select a node to see its document.</p>}
            {savedViews}
            {current && (
              <GraphNodeList nodes={current.nodes} types={types} selected={state.selected} onSelect={(id) => update({ selected: id })}
                complete={listComplete} onComplete={completeList} />
            )}
          </aside>
        </Suspense>
      </div>
    </div>
  );
}

function SidePanel({ kbSlug, view, nodeId, onExpand, onCentre }: { kbSlug: string; view: GraphView; nodeId: number; onExpand: () => void; onCentre: () => void }) {
  const { data, error } = useQuery({
    queryKey: ['entity', kbSlug, nodeId],
    queryFn: () => fetchJson<EntityDetail>(`/api/kbs/${encodeURIComponent(kbSlug)}/entities/${nodeId}`),
  });
  const stubs = view.stubs.filter((s) => s.parent === nodeId);
  const unexpanded = view.unexpanded.includes(nodeId);
  return (
    <section className="space-y-2 rounded-lg border border-slate-200 bg-white p-3" data-testid="graph-side-panel" aria-live="polite">
      <div>
        <h2 className="font-medium" data-testid="graph-selected-name">{data?.name ?? view.nodes.find((n) => n.id === nodeId)?.name}</h2>
        <p className="text-xs text-slate-500">{data ? `${data.type} · id ${data.id} · ${plural(data.degree, 'edge')}` : 'Loading…'}</p>
      </div>
      <div className="flex flex-wrap gap-2 text-sm">
        <Link className="rounded border border-slate-300 px-2 py-0.5 hover:bg-slate-50" href={`/kb/${encodeURIComponent(kbSlug)}/entities/${nodeId}`}>Open entity page</Link>
        <button type="button" className="rounded border border-slate-300 px-2 py-0.5 hover:bg-slate-50" onClick={onExpand}>Expand</button>
        {nodeId !== view.center && <button type="button" className="rounded border border-slate-300 px-2 py-0.5 hover:bg-slate-50" onClick={onCentre}>Centre here</button>}
      </div>
      {(stubs.length > 0 || unexpanded) && (
        <p className="text-xs text-slate-600" data-testid="graph-selected-cut">
          {unexpanded ? 'Its neighbours are not loaded yet (budget); Expand shows them.' : `Not drawn: ${stubs.map((s) => `${s.hidden.toLocaleString('en')} ${groupLabel(s)}`).join(', ')}.`}
        </p>
      )}
      {error && <p role="alert" className="text-sm text-red-700">{error.message}</p>}
      {data && <div role="region" tabIndex={0} aria-label="The node’s document" className="max-h-96 overflow-y-auto" data-testid="graph-document"><DocumentView document={data.document} /></div>}
    </section>
  );
}
