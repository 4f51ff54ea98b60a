'use client';

import cytoscape, { type ElementDefinition } from 'cytoscape';
import { useQuery } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useEffect, useMemo, useRef } from 'react';
import type { Neighbourhood } from '@/lib/kb/neighbourhood';
import { fetchJson } from '@/lib/client/fetch-json';

const PALETTE = ['#2563eb', '#16a34a', '#d97706', '#9333ea', '#dc2626', '#0891b2', '#65a30d', '#db2777', '#4b5563', '#7c3aed'];

function colourFor(types: string[], type: string): string {
  return PALETTE[types.indexOf(type) % PALETTE.length] ?? '#4b5563';
}

function toElements(graph: Neighbourhood, types: string[]): ElementDefinition[] {
  const nodes = [graph.center, ...graph.nodes].map((n) => ({
    data: { id: String(n.id), label: n.name, colour: colourFor(types, n.type), center: n.id === graph.center.id ? 1 : 0 },
  }));
  const edges = graph.edges.map((e, i) => ({ data: { id: `e${i}`, source: String(e.source), target: String(e.target), label: e.relation } }));
  // One stub node per relation and direction the budget cut, so nothing is silently missing.
  const stubs = graph.stubs.flatMap((s, i) => {
    const id = `stub${i}`;
    const centre = String(graph.center.id);
    return [
      { data: { id, label: `+${s.hidden.toLocaleString('en')} more`, colour: '#cbd5e1', stub: 1 } },
      { data: { id: `${id}e`, source: s.direction === 'out' ? centre : id, target: s.direction === 'out' ? id : centre, label: s.relation } },
    ];
  });
  return [...nodes, ...edges, ...stubs];
}

export function EntityGraph({ kbSlug, entityId }: { kbSlug: string; entityId: number }) {
  const container = useRef<HTMLDivElement>(null);
  const router = useRouter();
  const { data, error, isPending } = useQuery({
    queryKey: ['neighbours', kbSlug, entityId],
    queryFn: () => fetchJson<Neighbourhood>(`/api/kbs/${encodeURIComponent(kbSlug)}/entities/${entityId}/neighbours`),
  });
  const types = useMemo(() => (data ? [...new Set([data.center, ...data.nodes].map((n) => n.type))].sort() : []), [data]);

  useEffect(() => {
    if (!data || !container.current) return;
    const cy = cytoscape({
      container: container.current,
      elements: toElements(data, types),
      style: [
        { selector: 'node', style: { 'background-color': 'data(colour)', label: 'data(label)', 'font-size': 9, 'text-wrap': 'ellipsis', 'text-max-width': '110px', width: 14, height: 14 } },
        { selector: 'node[center = 1]', style: { width: 26, height: 26, 'font-weight': 'bold', 'font-size': 11 } },
        { selector: 'node[stub = 1]', style: { shape: 'round-rectangle', color: '#475569' } },
        { selector: 'edge', style: { width: 1, 'line-color': '#cbd5e1', 'target-arrow-color': '#cbd5e1', 'target-arrow-shape': 'triangle', 'curve-style': 'bezier' } },
      ],
      // A few neighbours should not be blown up to fill the canvas.
      maxZoom: 1.6,
      minZoom: 0.1,
      layout: { name: 'concentric', concentric: (n) => (n.data('center') ? 2 : 1), levelWidth: () => 1, minNodeSpacing: 40, padding: 24 },
    });
    cy.on('tap', 'node', (event) => {
      const node = event.target;
      if (!node.data('stub') && !node.data('center')) router.push(`/kb/${kbSlug}/entities/${node.id()}`);
    });
    return () => cy.destroy();
  }, [data, types, kbSlug, router]);

  if (error) return <p role="alert" className="text-sm text-red-700">Could not load neighbours: {error.message}</p>;
  return (
    <div>
      <div ref={container} className="h-96 w-full rounded border border-slate-100 bg-slate-50" data-testid="entity-graph" aria-busy={isPending} />
      <ul className="mt-2 flex flex-wrap gap-3 text-xs text-slate-600" aria-label="Legend">
        {types.map((t) => (
          <li key={t} className="flex items-center gap-1">
            <span className="inline-block h-2.5 w-2.5 rounded-full" style={{ background: colourFor(types, t) }} />{t}
          </li>
        ))}
      </ul>
      {data && <p className="mt-1 text-xs text-slate-500" data-testid="graph-caption">{data.nodes.length} neighbours shown{data.stubs.length > 0 ? `, ${data.stubs.reduce((s, x) => s + x.hidden, 0).toLocaleString('en')} more not drawn` : ''}. Click a neighbour to open it.</p>}
    </div>
  );
}
