'use client';

import Link from 'next/link';
import type { Suggestion } from '@/lib/authoring/validation-campaign';
import { entityPage } from '../api';
import { LABELS } from './types';
import type { Judgments } from './use-judgments';

/** What a suggestion says, in the words the annotator reads beside it. */
export function suggestionWords(s: Suggestion): string {
  if (s.label === 'not_relevant') return `not relevant — suggested: ${s.reason ?? 'removed by the synthesis filter'}`;
  return s.source === 'synthesis' ? 'relevant — suggested by the synthesis filter' : 'relevant — suggested by the query set’s answers';
}

interface Props {
  kbSlug: string;
  suggestions: Suggestion[];
  judgments: Judgments;
  readOnly: boolean;
}

/**
 * The validated query's answers, offered as suggestions: each is marked as one and becomes a judgment (the
 * annotator's own, like any other) only when accepted, one by one or all at once. Judged entities show the
 * annotator's judgment beside the suggestion.
 */
export function SuggestionList({ kbSlug, suggestions, judgments, readOnly }: Props) {
  const open = suggestions.filter((s) => !judgments.stateOf(s.entityId));
  const accept = (s: Suggestion) => judgments.judge(s.entityId, s.label);
  return (
    <div className="space-y-2 text-sm">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-slate-600">
          Suggestions are not judgments: accept one when the entity’s document and relations support it, or judge the entity yourself.
        </p>
        {!readOnly && open.length > 1 && (
          <button type="button" onClick={() => open.forEach(accept)}
            className="rounded border border-violet-600 px-2 py-0.5 text-xs text-violet-800 hover:bg-violet-50">
            Accept all ({open.length})
          </button>
        )}
      </div>
      <ul className="divide-y divide-slate-100" data-testid="suggestions">
        {suggestions.map((s) => {
          const state = judgments.stateOf(s.entityId);
          return (
            <li key={s.entityId} className="flex flex-wrap items-center gap-x-3 gap-y-1 py-2" data-testid={`suggestion-${s.externalId}`}>
              <span className="min-w-0 flex-1">
                <Link href={entityPage(kbSlug, s.entityId)} target="_blank" className="font-medium text-blue-700 hover:underline">{s.name}</Link>
                <span className="text-xs text-slate-500"> · {s.type} · {s.externalId}</span>
                <span className="mt-0.5 flex flex-wrap items-center gap-1 text-xs">
                  <span className="rounded border border-dashed border-violet-500 bg-violet-50 px-1.5 text-violet-800">Suggestion</span>
                  <span className={s.label === 'relevant' ? 'text-green-800' : 'text-slate-700'}>{suggestionWords(s)}</span>
                </span>
              </span>
              {state ? (
                <span className="text-xs text-slate-700" data-testid="suggestion-judged">
                  Your judgment: <strong>{LABELS.find((l) => l.label === state.label)!.text}</strong>
                </span>
              ) : !readOnly && (
                <button type="button" onClick={() => accept(s)} disabled={judgments.pending.has(s.entityId)} aria-label={`Accept the suggestion for ${s.name}`}
                  className="rounded border border-violet-600 px-2 py-0.5 text-xs text-violet-800 hover:bg-violet-50 disabled:opacity-60">
                  Accept
                </button>
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
