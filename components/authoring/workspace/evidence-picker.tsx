'use client';

import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { Evidence } from '@/lib/authoring/drafts';
import type { Neighbourhood } from '@/lib/kb/neighbourhood';
import { fetchJson } from '@/lib/client/fetch-json';
import { documentFields } from '@/lib/kb/document-fields';
import { MarkableDocument } from './markable-document';
import { useEntity } from './use-entity';
import type { JudgedEntity } from './types';

interface Props {
  kbSlug: string;
  entity: JudgedEntity;
  evidence: Evidence[];
  /** Saves the judgment (relevant) with this evidence. */
  onChange: (evidence: Evidence[]) => void;
  onClose: () => void;
  /** What the evidence is to show; by default that the entity is relevant. */
  claim?: string;
}

const sameEdge = (e: Evidence, s: number, r: string, t: number) => e.kind === 'edge' && e.source === s && e.relation === r && e.target === t;

/**
 * Why a candidate is relevant: passages of its document (select and cite) and its edges (pick one), saved
 * with its judgment. What is cited is listed and can be removed.
 */
export function EvidencePicker({ kbSlug, entity, evidence, onChange, onClose, claim = 'is relevant' }: Props) {
  const { data: detail, error } = useEntity(kbSlug, entity.id);
  const { data: graph, error: graphError } = useQuery({
    queryKey: ['neighbours', kbSlug, entity.id],
    queryFn: () => fetchJson<Neighbourhood>(`/api/kbs/${encodeURIComponent(kbSlug)}/entities/${entity.id}/neighbours`),
  });
  const fields = useMemo(() => (detail ? documentFields(detail.document) : []), [detail]);
  const names = useMemo(() => new Map(graph ? [graph.center, ...graph.nodes].map((n) => [n.id, n.name]) : []), [graph]);
  const nameOf = (id: number) => names.get(id) ?? `#${id}`;
  const spans = evidence.flatMap((e) => (e.kind === 'span' && e.entity === entity.id ? [e] : []));

  return (
    <section className="space-y-3 rounded-lg border border-blue-200 bg-blue-50/40 p-4" aria-labelledby="evidence-heading" data-testid="evidence-picker">
      <div className="flex items-start justify-between gap-2">
        <h3 id="evidence-heading" className="font-medium">Evidence that {entity.name} {claim}</h3>
        <button type="button" onClick={onClose} className="rounded border border-slate-300 bg-white px-2 py-1 text-sm hover:bg-slate-50">Done</button>
      </div>
      <div>
        <h4 className="text-sm font-medium">Cited</h4>
        {evidence.length === 0 ? <p className="text-sm text-slate-500">Nothing cited yet.</p> : (
          <ul className="space-y-1 text-sm" data-testid="cited-evidence">
            {evidence.map((e, i) => (
              <li key={i} className="flex items-start gap-2">
                <span className="flex-1">
                  {e.kind === 'edge' ? <>Edge: {nameOf(e.source)} —{e.relation}→ {nameOf(e.target)}</> : <>Passage ({e.field}): “{e.quote}”</>}
                </span>
                <button type="button" onClick={() => onChange(evidence.filter((_, j) => j !== i))} className="text-xs text-red-700 hover:underline">Remove</button>
              </li>
            ))}
          </ul>
        )}
      </div>
      <div className="grid gap-4 lg:grid-cols-2">
        <div>
          <h4 className="mb-1 text-sm font-medium">Its document</h4>
          {error && <p role="alert" className="text-sm text-red-700">Could not load the document: {error.message}</p>}
          {detail && (
            <MarkableDocument fields={fields} marked={spans} testId="evidence-document" markLabel="Cite this passage"
              onMark={(p) => onChange([...evidence, { kind: 'span', entity: entity.id, ...p }])} />
          )}
        </div>
        <div>
          <h4 className="mb-1 text-sm font-medium">Its edges</h4>
          {graphError && <p role="alert" className="text-sm text-red-700">Could not load the edges: {graphError.message}</p>}
          {graph && (
            <ul tabIndex={0} aria-label="The entity’s edges" className="max-h-[28rem] space-y-1 overflow-auto text-sm" data-testid="evidence-edges">
              {graph.edges.map((g) => {
                const cited = evidence.some((e) => sameEdge(e, g.source, g.relation, g.target));
                return (
                  <li key={`${g.source}-${g.relation}-${g.target}`} className="flex items-center gap-2">
                    <span className="flex-1">{nameOf(g.source)} <span className="text-slate-500">—{g.relation}→</span> {nameOf(g.target)}</span>
                    <button type="button" disabled={cited} aria-label={`Cite ${nameOf(g.source)} ${g.relation} ${nameOf(g.target)}`}
                      onClick={() => onChange([...evidence, { kind: 'edge', source: g.source, relation: g.relation, target: g.target }])}
                      className="rounded border border-blue-600 px-2 py-0.5 text-xs text-blue-700 hover:bg-blue-50 disabled:border-slate-300 disabled:text-slate-400">
                      {cited ? 'Cited' : 'Cite'}
                    </button>
                  </li>
                );
              })}
              {graph.stubs.length > 0 && <li className="text-xs text-slate-500">{graph.stubs.reduce((s, x) => s + x.hidden, 0).toLocaleString('en')} more edges are not listed.</li>}
            </ul>
          )}
        </div>
      </div>
    </section>
  );
}
