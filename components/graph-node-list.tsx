'use client';

import { NODE_LIST_FIRST } from '@/lib/kb/graph-view';
import type { GraphView } from '@/lib/kb/neighbourhood';
import { typeColour } from '@/lib/kb/type-colours';

export interface GraphNodeListProps {
  nodes: GraphView['nodes'];
  /** The knowledge base's types, for the colours. */
  types: string[];
  selected: number | null;
  onSelect: (id: number) => void;
  /** Whether every row is listed; until then the first NODE_LIST_FIRST are, and a button lists the rest. */
  complete: boolean;
  onComplete: () => void;
}

/** The view's nodes as buttons, centre first, then by hop and name: the canvas's content for keyboards and screen readers. */
export function GraphNodeList({ nodes, types, selected, onSelect, complete, onComplete }: GraphNodeListProps) {
  const sorted = [...nodes].sort((a, b) => a.depth - b.depth || a.name.localeCompare(b.name));
  const listed = complete ? sorted : sorted.slice(0, NODE_LIST_FIRST);
  const rest = sorted.length - listed.length;
  return (
    <section className="rounded-lg border border-slate-200 bg-white p-3">
      <h2 className="mb-1 text-sm font-medium">Nodes</h2>
      <ul id="graph-node-list" aria-label="Nodes" aria-busy={rest > 0} className="max-h-72 overflow-y-auto text-sm" data-testid="graph-node-list">
        {listed.map((n) => (
          <li key={n.id}>
            <button type="button" aria-pressed={n.id === selected} onClick={() => onSelect(n.id)}
              className={`flex w-full items-center gap-2 rounded px-1 py-0.5 text-left hover:bg-slate-100 ${n.id === selected ? 'bg-amber-50 font-medium' : ''}`}>
              <span className="inline-block h-2 w-2 shrink-0 rounded-full" aria-hidden style={{ background: typeColour(types, n.type) }} />
              <span className="min-w-0 truncate">{n.name}</span>
              <span className="ml-auto shrink-0 text-xs text-slate-500">{n.type}{n.depth > 0 ? ` · ${n.depth}` : ' · centre'}</span>
            </button>
          </li>
        ))}
      </ul>
      {rest > 0 && (
        <button type="button" className="mt-1 text-xs text-blue-700 hover:underline" onClick={onComplete} data-testid="graph-node-list-rest">
          List {rest.toLocaleString('en')} more
        </button>
      )}
    </section>
  );
}
