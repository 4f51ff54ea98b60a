'use client';

import Link from 'next/link';
import { useQuery } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useMemo } from 'react';
import type { Neighbourhood } from '@/lib/kb/neighbourhood';
import { fetchJson } from '@/lib/client/fetch-json';
import { useKbTypes } from '@/lib/client/use-kb-types';
import { GraphCanvas, type CanvasEdge, type CanvasNode } from './graph-canvas';
import { TypeLegend } from './type-legend';

function toCanvas(graph: Neighbourhood): { nodes: CanvasNode[]; edges: CanvasEdge[] } {
  const centre = String(graph.center.id);
  const nodes: CanvasNode[] = [graph.center, ...graph.nodes].map((n) => ({ id: String(n.id), label: n.name, type: n.type, center: n.id === graph.center.id }));
  const edges: CanvasEdge[] = graph.edges.map((e) => ({ id: `${e.source}-${e.relation}-${e.target}`, source: String(e.source), target: String(e.target), label: e.relation }));
  // One stub node per relation and direction the budget cut, so nothing is silently missing.
  graph.stubs.forEach((s, i) => {
    const id = `stub${i}`;
    nodes.push({ id, label: `+${s.hidden.toLocaleString('en')} more`, type: '', stub: true });
    edges.push({ id: `${id}e`, source: s.direction === 'out' ? centre : id, target: s.direction === 'out' ? id : centre, label: s.relation });
  });
  return { nodes, edges };
}

/**
 * The entity page's preview: direct neighbours within a budget; clicking a neighbour opens it, in a new tab
 * where the page holds work in progress (the authoring workspace).
 */
export function EntityGraph({ kbSlug, entityId, newTab = false }: { kbSlug: string; entityId: number; newTab?: boolean }) {
  const router = useRouter();
  const { data, error, isPending } = useQuery({
    queryKey: ['neighbours', kbSlug, entityId],
    queryFn: () => fetchJson<Neighbourhood>(`/api/kbs/${encodeURIComponent(kbSlug)}/entities/${entityId}/neighbours`),
  });
  const canvas = useMemo(() => (data ? toCanvas(data) : null), [data]);
  const kbTypes = useKbTypes(kbSlug);
  const shownTypes = useMemo(() => (data ? [...new Set([data.center, ...data.nodes].map((n) => n.type))] : []), [data]);

  if (error) return <p role="alert" className="text-sm text-red-700">Could not load neighbours: {error.message}</p>;
  const open = (id: string) => {
    if (!/^\d+$/.test(id) || Number(id) === entityId) return;
    const href = `/kb/${kbSlug}/entities/${id}`;
    if (newTab) window.open(href, '_blank', 'noopener');
    else router.push(href);
  };
  return (
    <div>
      <div data-testid="entity-graph" aria-busy={isPending}>
        {canvas && kbTypes
          ? <GraphCanvas nodes={canvas.nodes} edges={canvas.edges} layout="concentric" types={kbTypes} onSelect={open} testId="entity-graph-canvas"
              label={`Graph of the entity's neighbours`} describedBy="entity-graph-caption" />
          : <div className="h-96 w-full rounded border border-slate-100 bg-slate-50" />}
      </div>
      <div className="mt-2">{kbTypes && <TypeLegend kbTypes={kbTypes} types={shownTypes} />}</div>
      {data && (
        <p id="entity-graph-caption" className="mt-1 text-xs text-slate-500" data-testid="graph-caption">
          <span data-testid="graph-neighbour-counts">{data.nodes.length.toLocaleString('en')} neighbours shown
          {data.neighbours > data.nodes.length ? `, ${(data.neighbours - data.nodes.length).toLocaleString('en')} more neighbours not drawn` : ''}</span>.
          {' '}Grouped by relation and type; hover or zoom in for every name. Click a neighbour to open it{newTab ? ' in a new tab' : ''}. <Link className="text-blue-700 underline" href={`/kb/${kbSlug}/graph?entity=${entityId}`}>Explore the graph</Link>
        </p>
      )}
    </div>
  );
}
