'use client';

import Link from 'next/link';
import type { JudgmentLabel } from '@/lib/authoring/drafts';
import type { QueryEntity } from '@/lib/queries/edit';
import { entityPage } from './api';
import { EvidencePicker } from './workspace/evidence-picker';
import type { JudgedEntity } from './workspace/types';
import type { Judgments } from './workspace/use-judgments';

/** An audit's words for the labels: a current answer is correct, wrong, or the annotator cannot tell. */
export const VERDICTS: { label: JudgmentLabel; text: string; tone: string }[] = [
  { label: 'relevant', text: 'Correct', tone: 'border-green-700 bg-green-700 text-white' },
  { label: 'not_relevant', text: 'Wrong', tone: 'border-red-700 bg-red-700 text-white' },
  { label: 'unsure', text: 'Unsure', tone: 'border-amber-700 bg-amber-700 text-white' },
];

export const verdictText = (label: JudgmentLabel) => VERDICTS.find((v) => v.label === label)!.text;

interface Props {
  kbSlug: string;
  answers: QueryEntity[];
  judgments: Judgments;
  readOnly: boolean;
  citing: number | null;
  onCite: (entity: JudgedEntity | null) => void;
}

/**
 * The query's current answers, each to mark correct, wrong or unsure, with evidence either way: the passage or
 * edge that shows it is an answer, or that it is not.
 */
export function AuditAnswers({ kbSlug, answers, judgments, readOnly, citing, onCite }: Props) {
  if (!answers.length) return <p className="text-sm text-slate-500">The query has no answers.</p>;
  return (
    <ul className="divide-y divide-slate-100 text-sm" data-testid="audit-answers">
      {answers.map((a) => {
        const entity = { id: a.entityId!, name: a.name ?? a.id, type: a.type ?? '' };
        const state = judgments.stateOf(entity.id);
        const evidence = state?.evidence.length ?? 0;
        return (
          <li key={a.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 py-2" data-testid={`audit-answer-${a.id}`}>
            <span className="min-w-0 flex-1">
              <Link href={entityPage(kbSlug, entity.id)} target="_blank" className="font-medium text-blue-700 hover:underline">{entity.name}</Link>
              <span className="text-xs text-slate-500"> · {entity.type} · {a.id}</span>
            </span>
            {readOnly ? (
              <span className="text-xs text-slate-700" data-testid="verdict">
                {state ? verdictText(state.label) : 'Not judged'}{evidence > 0 && ` · ${evidence} evidence`}
              </span>
            ) : (
              <div className="flex flex-wrap items-center gap-1 text-xs" role="group" aria-label={`Is ${entity.name} an answer?`} aria-busy={judgments.pending.has(entity.id)}>
                {VERDICTS.map((v) => (
                  <button key={v.label} type="button" aria-pressed={state?.label === v.label}
                    onClick={() => state?.label !== v.label && judgments.judge(entity.id, v.label, { evidence: [] })}
                    className={`rounded border px-2 py-0.5 ${state?.label === v.label ? v.tone : 'border-slate-300 hover:bg-slate-50'}`}>
                    {v.text}
                  </button>
                ))}
                {state && (
                  <button type="button" onClick={() => onCite(citing === entity.id ? null : entity)} aria-expanded={citing === entity.id}
                    className="rounded border border-blue-600 px-2 py-0.5 text-blue-700 hover:bg-blue-50">
                    Cite evidence{evidence > 0 ? ` (${evidence})` : ''}
                  </button>
                )}
              </div>
            )}
            {citing === entity.id && state && !readOnly && (
              <div className="basis-full">
                <EvidencePicker kbSlug={kbSlug} entity={entity} evidence={state.evidence} onClose={() => onCite(null)}
                  claim={state.label === 'not_relevant' ? 'is not an answer' : state.label === 'relevant' ? 'is an answer' : 'may be an answer'}
                  onChange={(cited) => judgments.judge(entity.id, state.label, { evidence: cited })} />
              </div>
            )}
          </li>
        );
      })}
    </ul>
  );
}
