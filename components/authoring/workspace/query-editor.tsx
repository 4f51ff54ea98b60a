'use client';

import { useId, useMemo } from 'react';
import { MAX_QUERY_LENGTH } from '@/lib/authoring/drafts';
import { findLeaks, type LeakMatch } from '@/lib/authoring/leak';
import { segments } from '@/lib/kb/document-fields';

interface Props {
  text: string;
  onChange: (text: string) => void;
  readOnly: boolean;
  /** The seed's name and aliases, which the query must not contain. */
  names: string[];
  leakPolicy: 'warn' | 'block';
  /** The leaks the server found in the last saved text. */
  savedLeaks: LeakMatch[];
  savedIsCurrent: boolean;
}

const quoted = (text: string, leaks: LeakMatch[]) => [...new Set(leaks.map((l) => `“${text.slice(l.start, l.end)}”`))].join(', ');

/** The query text, with its length and, as the author types, where it names the seed. */
export function QueryEditor({ text, onChange, readOnly, names, leakPolicy, savedLeaks, savedIsCurrent }: Props) {
  const id = useId();
  const leaks = useMemo(() => findLeaks(text, names), [text, names]);

  return (
    <div className="space-y-2">
      <label htmlFor={id} className="block font-medium">Query</label>
      <textarea id={id} value={text} readOnly={readOnly} maxLength={MAX_QUERY_LENGTH} rows={4}
        onChange={(e) => onChange(e.target.value)}
        placeholder="A question the seed answers, without naming it"
        className="w-full rounded border border-slate-300 px-2 py-1.5 text-sm read-only:bg-slate-50" />
      <p className="flex justify-between text-xs text-slate-500">
        <span data-testid="saved-leak-check">
          {savedIsCurrent && (savedLeaks.length > 0 ? `Checked when saved: the query names the seed (${quoted(text, savedLeaks)}).` : 'Checked when saved: the query does not name the seed.')}
        </span>
        <span data-testid="query-length" className={text.length >= MAX_QUERY_LENGTH ? 'text-red-700' : ''}>{text.length} / {MAX_QUERY_LENGTH}</span>
      </p>
      {leaks.length > 0 && (
        <div role="alert" className="space-y-1 rounded border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          <p>
            The query names the seed: {quoted(text, leaks)}.{' '}
            {leakPolicy === 'block'
              ? 'This campaign does not accept that: submitting is blocked until you rephrase it.'
              : 'Rephrase it without the name; this campaign warns but accepts it.'}
          </p>
          <p className="whitespace-pre-wrap text-xs text-slate-700">
            {segments(text, leaks).map((s, i) => (s.marked ? <mark key={i} className="bg-amber-300">{s.text}</mark> : <span key={i}>{s.text}</span>))}
          </p>
        </div>
      )}
    </div>
  );
}
