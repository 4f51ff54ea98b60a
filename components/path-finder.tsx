'use client';

import Link from 'next/link';
import { useQuery } from '@tanstack/react-query';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useMemo, useState } from 'react';
import { fetchJson } from '@/lib/client/fetch-json';
import type { MetapathSchema } from '@/lib/kb/metapath';
import { pathPositions } from '@/lib/kb/graph-layout';
import type { FoundPath, PathEntity, PathsResult } from '@/lib/kb/paths';
import { EntityPicker } from './entity-picker';
import { useKbTypes } from '@/lib/client/use-kb-types';
import { GraphCanvas, type CanvasEdge, type CanvasNode } from './graph-canvas';
import { TypeLegend } from './type-legend';

/** Most entities drawn at once; the list holds every returned path, the drawing the first ones that fit. */
const DRAW_NODES = 150;

const edgeId = (e: { source: number; relation: string; target: number }) => `${e.source}-${e.relation}-${e.target}`;
const pathKey = (p: FoundPath) => p.edges.map(edgeId).join('|');

function toCanvas(result: PathsResult, drawn: FoundPath[]): { nodes: CanvasNode[]; edges: CanvasEdge[] } {
  const byId = new Map(result.entities.map((e) => [e.id, e]));
  const ends = new Set([result.from.id, result.to.id]);
  const nodes = new Map<number, CanvasNode>();
  const edges = new Map<string, CanvasEdge>();
  for (const end of [result.from, result.to]) nodes.set(end.id, { id: String(end.id), label: end.name, type: end.type, center: true });
  for (const p of drawn) {
    for (const id of p.nodes) {
      const e = byId.get(id);
      if (e && !nodes.has(id)) nodes.set(id, { id: String(id), label: e.name, type: e.type, center: ends.has(id) });
    }
    for (const e of p.edges) edges.set(edgeId(e), { id: edgeId(e), source: String(e.source), target: String(e.target), label: e.relation });
  }
  return { nodes: [...nodes.values()], edges: [...edges.values()] };
}

/** The paths that fit in the drawing, in list order. */
function drawable(paths: FoundPath[]): FoundPath[] {
  const seen = new Set<number>();
  const out: FoundPath[] = [];
  for (const p of paths) {
    const fresh = p.nodes.filter((id) => !seen.has(id));
    if (seen.size + fresh.length > DRAW_NODES) break;
    fresh.forEach((id) => seen.add(id));
    out.push(p);
  }
  return out;
}

function PathText({ path, byId }: { path: FoundPath; byId: Map<number, PathEntity> }) {
  return (
    <>
      {path.nodes.map((id, i) => (
        <span key={`${i}-${id}`}>
          {i > 0 && (
            <span className="mx-1 text-xs text-slate-500">
              {path.edges[i - 1]!.direction === 'out' ? `—${path.edges[i - 1]!.relation}→` : `←${path.edges[i - 1]!.relation}—`}
            </span>
          )}
          <span className={i === 0 || i === path.nodes.length - 1 ? 'font-medium' : ''}>{byId.get(id)?.name ?? `#${id}`}</span>
        </span>
      ))}
    </>
  );
}

/** How a chosen end reads: from the last answer, else from the picker, else its id. */
function endLabel(id: number | null, known: (PathEntity | null | undefined)[]): string | null {
  if (id === null) return null;
  const e = known.find((k) => k?.id === id);
  return e ? `${e.name} (${e.type})` : `#${id}`;
}

/**
 * Every simple path of up to 3 edges between two entities. State in the URL:
 * ?from=ID&to=ID&hops=1|2|3&rel=NAME (repeatable; none = every relation).
 */
export function PathFinder({ kbSlug }: { kbSlug: string }) {
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const positive = (v: string | null) => (v && /^\d+$/.test(v) && Number(v) > 0 ? Number(v) : null);
  const from = positive(params.get('from'));
  const to = positive(params.get('to'));
  const hops = [1, 2, 3].includes(Number(params.get('hops'))) ? Number(params.get('hops')) : 3;
  const rel = params.getAll('rel');
  const [selected, setSelected] = useState<string | null>(null);
  const [picked, setPicked] = useState<{ from: PathEntity | null; to: PathEntity | null }>({ from: null, to: null });

  const update = (change: (next: URLSearchParams) => void) => {
    // From the address bar, not the render's params: two quick changes must not undo each other.
    const next = new URLSearchParams(window.location.search);
    change(next);
    setSelected(null);
    // The native history call updates useSearchParams and the address bar at once (Next.js syncs it).
    window.history.replaceState(null, '', `${pathname}?${next.toString()}`);
  };

  const { data: schema } = useQuery({
    queryKey: ['metapath-schema', kbSlug],
    queryFn: () => fetchJson<MetapathSchema>(`/api/kbs/${encodeURIComponent(kbSlug)}/metapaths/schema`),
  });
  const query = from && to ? new URLSearchParams([['from', String(from)], ['to', String(to)], ['hops', String(hops)], ...rel.map((r) => ['rel', r])]) : null;
  const { data: result, error, isFetching } = useQuery({
    queryKey: ['paths', kbSlug, query?.toString()],
    queryFn: () => fetchJson<PathsResult>(`/api/kbs/${encodeURIComponent(kbSlug)}/paths?${query}`),
    enabled: query !== null,
  });
  const fromName = endLabel(from, [result?.from, picked.from]);
  const toName = endLabel(to, [result?.to, picked.to]);

  const byId = useMemo(() => new Map(result?.entities.map((e) => [e.id, e]) ?? []), [result]);
  const drawn = useMemo(() => (result ? drawable(result.paths) : []), [result]);
  const canvas = useMemo(() => (result ? toCanvas(result, drawn) : null), [result, drawn]);
  // With no path drawn, the two ends still sit left and right.
  const positions = useMemo(() => pathPositions(drawn.length > 0 || !result ? drawn.map((p) => p.nodes.map(String)) : [[String(result.from.id), String(result.to.id)]]), [drawn, result]);
  const kbTypes = useKbTypes(kbSlug);
  const shownTypes = useMemo(() => [...new Set(canvas?.nodes.map((n) => n.type) ?? [])], [canvas]);
  const selectedPath = result?.paths.find((p) => pathKey(p) === selected);
  const highlight = useMemo(
    () => (selectedPath ? [...selectedPath.nodes.map(String), ...selectedPath.edges.map(edgeId)] : []),
    [selectedPath],
  );

  return (
    <div className="space-y-4">
      <div className="grid gap-4 rounded-lg border border-slate-200 bg-white p-4 md:grid-cols-2">
        <div>
          <EntityPicker kbSlug={kbSlug} label="From" testId="path-from" onSelect={(e) => { setPicked((p) => ({ ...p, from: e })); update((n) => n.set('from', String(e.id))); }} />
          <p className="mt-1 text-xs text-slate-500" data-testid="path-from-chosen">{fromName ?? 'No entity chosen'}</p>
        </div>
        <div>
          <EntityPicker kbSlug={kbSlug} label="To" testId="path-to" onSelect={(e) => { setPicked((p) => ({ ...p, to: e })); update((n) => n.set('to', String(e.id))); }} />
          <p className="mt-1 text-xs text-slate-500" data-testid="path-to-chosen">{toName ?? 'No entity chosen'}</p>
        </div>
        <label className="text-sm">
          <span className="mr-2 font-medium text-slate-700">Up to</span>
          <select aria-label="Hops" value={hops} onChange={(e) => update((n) => n.set('hops', e.target.value))}
            className="rounded border border-slate-300 px-2 py-1">
            {[1, 2, 3].map((h) => <option key={h} value={h}>{h} {h === 1 ? 'hop' : 'hops'}</option>)}
          </select>
        </label>
        <fieldset className="text-sm md:col-span-2">
          <legend className="font-medium text-slate-700">Relations <span className="font-normal text-slate-500">(none ticked = all)</span></legend>
          <div className="mt-1 flex flex-wrap gap-3">
            {schema?.relations.map((r) => (
              <label key={r} className="flex items-center gap-1">
                <input type="checkbox" checked={rel.includes(r)} onChange={(e) => update((n) => {
                  n.delete('rel');
                  for (const x of e.target.checked ? [...rel, r] : rel.filter((x) => x !== r)) n.append('rel', x);
                })} />
                {r}
              </label>
            ))}
          </div>
        </fieldset>
      </div>

      {error && <p role="alert" className="text-sm text-red-700">{error.message}</p>}
      {!query && <p className="text-sm text-slate-500">Choose two entities to see the paths between them.</p>}
      {result && query && (
        <div className="grid gap-4 lg:grid-cols-2" aria-busy={isFetching}>
          <div className="space-y-3 rounded-lg border border-slate-200 bg-white p-4" data-testid="path-list">
            <p className="text-sm" data-testid="path-counts">
              {result.counts.map((c) => `${c.hops} ${c.hops === 1 ? 'hop' : 'hops'}: ${c.total === null ? 'many' : c.total.toLocaleString('en')}`).join(' · ')}
            </p>
            {result.truncated && <p className="text-xs text-amber-700">Showing the first {result.paths.length.toLocaleString('en')} paths, shortest first.</p>}
            {result.paths.length === 0 && <p className="text-sm text-slate-500">No path of up to {hops} {hops === 1 ? 'hop' : 'hops'}.</p>}
            {result.counts.map((c) => {
              const group = result.paths.filter((p) => p.edges.length === c.hops);
              return group.length > 0 && (
                <section key={c.hops} aria-label={`${c.hops}-hop paths`}>
                  <h3 className="text-sm font-medium">{c.hops} {c.hops === 1 ? 'hop' : 'hops'}</h3>
                  <ul className="max-h-96 overflow-auto text-sm">
                    {group.map((p) => {
                      const key = pathKey(p);
                      return (
                        <li key={key}>
                          <button type="button" aria-pressed={selected === key} data-testid="path-item"
                            onClick={() => setSelected(selected === key ? null : key)}
                            className={`w-full rounded px-1 py-0.5 text-left hover:bg-slate-50 ${selected === key ? 'bg-amber-50' : ''}`}>
                            <PathText path={p} byId={byId} />
                          </button>
                        </li>
                      );
                    })}
                  </ul>
                </section>
              );
            })}
            {selectedPath && (
              // What a click on an entity of the drawing does, for the keyboard.
              <p className="text-sm" data-testid="path-entities">
                Open an entity of this path:{' '}
                {selectedPath.nodes.map((id, i) => (
                  <span key={`${i}-${id}`}>{i > 0 && ' → '}<Link href={`/kb/${kbSlug}/entities/${id}`} className="text-blue-700 underline">{byId.get(id)?.name ?? `#${id}`}</Link></span>
                ))}
              </p>
            )}
          </div>
          <div className="rounded-lg border border-slate-200 bg-white p-4">
            {canvas && kbTypes && <GraphCanvas nodes={canvas.nodes} edges={canvas.edges} positions={positions} types={kbTypes} highlight={highlight} testId="path-graph"
              label={`Paths from ${result.from.name} to ${result.to.name}`} describedBy="path-graph-caption"
              onSelect={(id) => { if (/^\d+$/.test(id)) router.push(`/kb/${kbSlug}/entities/${id}`); }} />}
            <div className="mt-2">{kbTypes && <TypeLegend kbTypes={kbTypes} types={shownTypes} />}</div>
            <p id="path-graph-caption" className="mt-1 text-xs text-slate-500" data-testid="path-graph-caption">
              {drawn.length === result.paths.length ? `All ${drawn.length} listed paths drawn.` : `The first ${drawn.length} of ${result.paths.length} listed paths drawn.`}
              {' '}Source on the left, target on the right. Click a path to highlight it; click an entity to open it; hover or zoom in for the other names.{' '}
              <Link className="text-blue-700 underline" href={`/kb/${kbSlug}/metapaths?start=${result.from.id}`}>Metapaths from {result.from.name}</Link>
            </p>
          </div>
        </div>
      )}
    </div>
  );
}
