'use client';

import { useRef, useState } from 'react';
import { GraphCanvas, type CanvasLayout, type GraphCanvasHandle } from './graph-canvas';
import { TypeLegend } from './type-legend';

export interface SchemaMapProps {
  entityTypes: { name: string; count: number }[];
  triples: { source: string; relation: string; target: string; count: number }[];
  /** Symmetric relations: their (A, r, B) and (B, r, A) triples are drawn as one undirected-looking link. */
  symmetric?: string[];
}

const fmt = (n: number) => n.toLocaleString('en');

/** The type-to-type relation map: one node per entity type, one edge per (source type, relation, target type) triple. */
export function SchemaMap({ entityTypes, triples, symmetric = [] }: SchemaMapProps) {
  const [layout, setLayout] = useState<CanvasLayout>('cose');
  const canvas = useRef<GraphCanvasHandle>(null);
  const types = entityTypes.map((t) => t.name).sort();
  const nodes = entityTypes.map((t) => ({ id: `type:${t.name}`, label: `${t.name} (${fmt(t.count)})`, type: t.name }));
  const twoWay = new Set(symmetric);
  const edges = triples
    .filter((t) => !twoWay.has(t.relation) || t.source <= t.target)
    .map((t) => ({
      id: `triple:${t.source}|${t.relation}|${t.target}`,
      source: `type:${t.source}`,
      target: `type:${t.target}`,
      label: `${t.relation}${twoWay.has(t.relation) ? ' ↔' : ''} (${fmt(t.count)})`,
    }));
  return (
    <div>
      <div className="mb-2 flex items-center gap-2 text-sm">
        <label className="flex items-center gap-1">
          Layout
          <select value={layout} onChange={(e) => setLayout(e.target.value as CanvasLayout)} className="rounded border border-slate-300 px-1 py-0.5">
            <option value="cose">force-directed</option>
            <option value="concentric">concentric</option>
          </select>
        </label>
      </div>
      <GraphCanvas ref={canvas} nodes={nodes} edges={edges} layout={layout} types={types} testId="schema-map"
        label="Schema map: the entity types and the relations between them" describedBy="schema-map-caption" />
      <div className="mt-2"><TypeLegend kbTypes={types} /></div>
      <p id="schema-map-caption" className="mt-1 text-xs text-slate-500" data-testid="schema-map-caption">
        {nodes.length} entity types, {edges.length} typed relations{twoWay.size > 0 ? ' (↔: symmetric, both directions drawn once)' : ''}. Hover an edge for its relation and edge count.
      </p>
    </div>
  );
}
