'use client';

import Link from 'next/link';
import type { Evidence } from '@/lib/authoring/drafts';
import type { ChosenEntity, SubmittedWork } from '@/lib/authoring/review';
import { entityPage } from './api';

/** The reviewer's call on one entity: accepted, rejected (with a reason) or not decided yet. */
export interface EntityDecision {
  accept: boolean | null;
  reason: string;
}

/** Entities every annotator chose start accepted; the others wait for the reviewer. */
export const defaultDecision = (e: ChosenEntity): EntityDecision => ({ accept: e.inAll ? true : null, reason: '' });

/** An entity's name for evidence lines; `#id` when the page does not know it. */
export type NameOf = (entityId: number) => string;

export function evidenceInWords(e: Evidence, nameOf: NameOf): string {
  return e.kind === 'edge'
    ? `${nameOf(e.source)} —${e.relation}→ ${nameOf(e.target)}`
    : `“${e.quote}” (${nameOf(e.entity)}, ${e.field})`;
}

function Chosen({ evidence, nameOf }: { evidence: Evidence[]; nameOf: NameOf }) {
  if (!evidence.length) return <span title="Chosen, without evidence">✓</span>;
  return (
    <details>
      <summary className="cursor-pointer" title={evidence.map((e) => evidenceInWords(e, nameOf)).join('\n')}>
        ✓ <span className="text-xs text-slate-500">{evidence.length} evidence</span>
      </summary>
      <ul className="mt-1 list-disc pl-4 text-xs text-slate-700">
        {evidence.map((e, i) => <li key={i}>{evidenceInWords(e, nameOf)}</li>)}
      </ul>
    </details>
  );
}

/**
 * The union of the answers the annotators chose, one column per annotator (✓ with their evidence), whether
 * all or only some chose it, and the reviewer's accept / reject (with a reason) for each.
 */
export function EntityDecisions({ slug, entities, work, decisions, onChange, nameOf }: {
  slug: string;
  entities: ChosenEntity[];
  work: SubmittedWork[];
  decisions: Record<number, EntityDecision>;
  onChange: (entityId: number, decision: EntityDecision) => void;
  nameOf: NameOf;
}) {
  if (!entities.length) return <p className="text-sm text-slate-500">No annotator chose an answer besides the seed.</p>;
  const evidenceOf = new Map(work.map((w) => [w.annotatorId, new Map(w.relevant.map((r) => [r.entityId, r.evidence as Evidence[]]))]));
  return (
    <div className="table-scroll">
      <table className="w-full text-sm" data-testid="entity-decisions">
        <thead className="text-left text-slate-600">
          <tr>
            <th scope="col" className="py-1 pr-3">Entity</th>
            {work.map((w) => <th key={w.annotatorId} scope="col" className="pr-3">{w.annotator}</th>)}
            <th scope="col" className="pr-3" title="Chosen by every annotator (the intersection) or only some (the rest of the union)">Chosen by</th>
            <th scope="col">Decision</th>
          </tr>
        </thead>
        <tbody>
          {entities.map((e) => {
            const d = decisions[e.entityId] ?? defaultDecision(e);
            const name = `decision-${e.entityId}`;
            return (
              <tr key={e.entityId} className="border-t border-slate-100 align-top" data-testid={`entity-${e.externalId}`}>
                <th scope="row" className="py-1 pr-3 text-left font-normal">
                  <Link href={entityPage(slug, e.entityId)} className="text-blue-700 hover:underline">{e.name}</Link>
                  <span className="block text-xs text-slate-500">{e.type} · {e.externalId}</span>
                </th>
                {work.map((w) => {
                  const evidence = evidenceOf.get(w.annotatorId)?.get(e.entityId);
                  return <td key={w.annotatorId} className="pr-3">{evidence ? <Chosen evidence={evidence} nameOf={nameOf} /> : <span className="sr-only">not chosen</span>}</td>;
                })}
                <td className="pr-3">
                  {e.inAll
                    ? <span className="rounded bg-green-100 px-1.5 py-0.5 text-xs font-semibold text-green-800">all</span>
                    : <span className="rounded bg-amber-100 px-1.5 py-0.5 text-xs font-semibold text-amber-800">some ({e.chosenBy.length} of {work.length})</span>}
                </td>
                <td>
                  <DecisionChoice name={name} subject={e.name} decision={d} onChange={(next) => onChange(e.entityId, next)}
                    acceptLabel="Accept" rejectLabel="Reject" reasonLabel={`Reason for rejecting ${e.name}`} reasonPlaceholder="Why it is not an answer" />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** A reviewer's accept-or-reject of one entity; a rejection needs a reason, asked for beside the choice. */
export function DecisionChoice({ name, subject, decision: d, onChange, acceptLabel, rejectLabel, reasonLabel, reasonPlaceholder }: {
  name: string; subject: string; decision: EntityDecision; onChange: (next: EntityDecision) => void;
  acceptLabel: string; rejectLabel: string; reasonLabel: string; reasonPlaceholder?: string;
}) {
  return (
    <fieldset className="flex flex-wrap items-center gap-3">
      <legend className="sr-only">Decision on {subject}</legend>
      <label className="flex items-center gap-1">
        <input type="radio" name={name} checked={d.accept === true} onChange={() => onChange({ ...d, accept: true })} />{acceptLabel}
      </label>
      <label className="flex items-center gap-1">
        <input type="radio" name={name} checked={d.accept === false} onChange={() => onChange({ ...d, accept: false })} />{rejectLabel}
      </label>
      {d.accept === null && <span className="text-xs text-amber-700">undecided</span>}
      {d.accept === false && (
        <input aria-label={reasonLabel} placeholder={reasonPlaceholder} value={d.reason} maxLength={1000}
          onChange={(ev) => onChange({ ...d, reason: ev.target.value })}
          aria-invalid={!d.reason.trim()} className="min-w-48 flex-1 rounded border border-slate-300 px-2 py-1" />
      )}
    </fieldset>
  );
}
