import Link from 'next/link';
import type { ReactNode } from 'react';
import type { FilterVote, Provenance, TextProperty } from '@/lib/synthesis/types';
import { llmCallPage } from './api';
import { quoteContext } from './quote';

/** What the page knows of entities named by external id: the internal id (for a link) and the name. */
export type EntityNames = Record<string, { entityId: number | null; name: string | null }>;

interface Props {
  slug: string;
  /** A kept query's whole provenance, or what a dropped or failed attempt got to. */
  provenance: Partial<Provenance>;
  entities?: EntityNames;
  /** The document of the answer the properties come from, to show each quote in its field. */
  sourceDocument?: Record<string, unknown> | null;
  /** LLM calls are linked for those who may open them (curators). */
  canSeeCalls: boolean;
}

/**
 * How a synthesized query was made: its template and seeds, the properties and where in the answer's document
 * each was read, the relational answers against those the filter kept, every judge's vote, and the methods,
 * prompts and LLM calls used. Only the parts an attempt reached are shown.
 */
export function ProvenanceView({ slug, provenance: p, entities = {}, sourceDocument = null, canSeeCalls }: Props) {
  const ref = (id: string, name?: string | null) => <EntityRef key={id} slug={slug} id={id} name={name ?? entities[id]?.name ?? null} entityId={entities[id]?.entityId ?? null} />;
  return (
    <dl className="space-y-3 break-words text-sm" data-testid="provenance">
      {p.template && (
        <Part label="Template">
          <span data-testid="provenance-template">{p.template.words}</span>
          <code className="mt-0.5 block break-all text-xs text-slate-500">{p.template.key}</code>
        </Part>
      )}
      {p.seeds && (
        <Part label={p.seeds.length === 1 ? 'Seed' : 'Seeds'}>
          <ul data-testid="provenance-seeds" className="flex flex-wrap gap-x-3">{p.seeds.map((s) => <li key={s.id}>{ref(s.id, s.name)}</li>)}</ul>
        </Part>
      )}
      {p.propertySource !== undefined && (
        <Part label="Properties read from">
          {p.propertySource ? <span data-testid="provenance-source">{ref(p.propertySource.id, p.propertySource.name)}</span> : 'No answer was picked.'}
        </Part>
      )}
      {p.properties && (
        <Part label="Properties">
          {p.properties.length === 0 ? 'None.' : (
            <ul className="space-y-2" data-testid="provenance-properties">
              {p.properties.map((prop, i) => <PropertyItem key={i} property={prop} document={sourceDocument} />)}
            </ul>
          )}
        </Part>
      )}
      {p.relationalAnswers && (
        <Part label="Answers">
          <p data-testid="provenance-counts">
            {p.relationalAnswers.length} relational {p.relationalAnswers.length === 1 ? 'answer' : 'answers'}
            {p.kept && `, ${p.kept.length} kept by the filter`}
            {p.removed && `, ${p.removed.length} removed`}
          </p>
          {p.kept && p.kept.length > 0 && (
            <p className="mt-1"><span className="text-slate-500">Kept: </span>
              <span data-testid="provenance-kept">{p.kept.map((id, i) => <span key={id}>{i > 0 && ', '}{ref(id)}</span>)}</span>
            </p>
          )}
          {p.removed && p.removed.length > 0 && (
            <ul className="mt-1 space-y-0.5" data-testid="provenance-removed" aria-label="Removed answers">
              {p.removed.map((r) => <li key={r.id}><span className="text-slate-500">Removed </span>{ref(r.id)}: {r.reason}</li>)}
            </ul>
          )}
        </Part>
      )}
      {p.votes && p.votes.length > 0 && (
        <Part label="Votes">
          <Votes votes={p.votes} render={ref} slug={slug} canSeeCalls={canSeeCalls} />
        </Part>
      )}
      {p.methods && (
        <Part label="Methods">
          <span data-testid="provenance-methods">
            properties by {p.methods.properties}, query by {p.methods.compose}, filter by {p.methods.filter.join(', ') || '—'}
          </span>
        </Part>
      )}
      {p.prompts && p.prompts.length > 0 && (
        <Part label="Prompts">
          <span data-testid="provenance-prompts">{p.prompts.map((x) => `${x.id}@v${x.version}`).join(', ')}</span>
        </Part>
      )}
      {p.llmCallIds && p.llmCallIds.length > 0 && (
        <Part label="LLM calls">
          <ul className="flex flex-wrap gap-x-3" data-testid="provenance-calls">
            {p.llmCallIds.map((id) => <li key={id}><CallRef slug={slug} id={id} linked={canSeeCalls} /></li>)}
          </ul>
        </Part>
      )}
    </dl>
  );
}

function Part({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="font-medium text-slate-700">{label}</dt>
      <dd className="mt-0.5 text-slate-800">{children}</dd>
    </div>
  );
}

function EntityRef({ slug, id, name, entityId }: { slug: string; id: string; name: string | null; entityId: number | null }) {
  const label = name ?? id;
  if (entityId === null) return <span title={`external id ${id}`}>{label}{name !== null && <code className="ml-1 text-xs text-slate-500">{id}</code>}</span>;
  return <Link href={`/kb/${encodeURIComponent(slug)}/entities/${entityId}`} className="text-blue-700 underline" title={`external id ${id}`}>{label}</Link>;
}

function CallRef({ slug, id, linked }: { slug: string; id: number; linked: boolean }) {
  return linked
    ? <Link href={llmCallPage(slug, id)} className="text-blue-700 underline">call #{id}</Link>
    : <span>call #{id}</span>;
}

/** A property, its source and method, and the quoted span marked in its document field when that is at hand. */
function PropertyItem({ property: p, document }: { property: TextProperty; document: Record<string, unknown> | null }) {
  const context = quoteContext(document, p);
  return (
    <li data-testid="provenance-property">
      <span className="font-medium">{p.text}</span>
      <span className="ml-1 text-xs text-slate-500">
        {p.field === null ? 'not found verbatim in the document' : <>field <code>{p.field}</code>{context && ` (${context.label})`}, characters {p.start}–{p.end}</>}
        {' · '}{p.source === 'llm' ? 'LLM' : 'extractor'}
      </span>
      {context && (
        <blockquote className="mt-0.5 border-l-2 border-slate-200 pl-2 text-slate-600">
          {context.before}<mark className="bg-yellow-100 text-slate-900">{context.quote}</mark>{context.after}
        </blockquote>
      )}
    </li>
  );
}

/** Every judge's verdict, grouped by candidate answer. */
function Votes({ votes, render, slug, canSeeCalls }: { votes: FilterVote[]; render: (id: string) => ReactNode; slug: string; canSeeCalls: boolean }) {
  const byEntity = new Map<string, FilterVote[]>();
  for (const v of votes) byEntity.set(v.entity, [...(byEntity.get(v.entity) ?? []), v]);
  return (
    <ul className="space-y-1" data-testid="provenance-votes">
      {[...byEntity].map(([entity, list]) => (
        <li key={entity}>
          {render(entity)}
          <ul className="ml-4 list-disc">
            {list.map((v, i) => (
              <li key={i}>
                <span className={v.keep ? 'text-green-700' : 'text-red-700'}>{v.keep ? 'keep' : 'remove'}</span> by {v.judge}
                {v.reason && <>: {v.reason}</>}
                {v.callId !== undefined && <> (<CallRef slug={slug} id={v.callId} linked={canSeeCalls} />)</>}
              </li>
            ))}
          </ul>
        </li>
      ))}
    </ul>
  );
}
