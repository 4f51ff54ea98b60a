'use client';

import { useMemo } from 'react';
import { documentFields } from '@/lib/kb/document-fields';
import { MarkableDocument, type MarkedPassage } from './markable-document';

interface Props {
  document: Record<string, unknown>;
  spans: MarkedPassage[];
  onChange: (spans: MarkedPassage[]) => void;
  readOnly: boolean;
}

/**
 * The seed's document with the author's textual requirements highlighted: select a passage in a field and
 * mark it; each marked passage is listed and can be removed.
 */
export function SeedDocument({ document, spans, onChange, readOnly }: Props) {
  const fields = useMemo(() => documentFields(document), [document]);
  const labelOf = (path: string) => fields.find((f) => f.path === path)?.label ?? path;

  return (
    <div className="space-y-3">
      <MarkableDocument fields={fields} marked={spans} testId="seed-document" markLabel="Mark as textual requirement"
        onMark={readOnly ? undefined : (p) => {
          if (!spans.some((s) => s.field === p.field && s.start === p.start && s.end === p.end)) onChange([...spans, p]);
        }} />
      <div>
        <h3 className="text-sm font-medium">Textual requirements</h3>
        {spans.length === 0 ? (
          <p className="text-sm text-slate-500">None marked{readOnly ? '.' : ': select what the query asks of the seed’s text.'}</p>
        ) : (
          <ul className="space-y-1 text-sm" data-testid="text-spans">
            {spans.map((s, i) => (
              <li key={`${s.field}-${s.start}-${s.end}`} className="flex items-start gap-2">
                <span className="flex-1"><span className="text-xs capitalize text-slate-500">{labelOf(s.field)}:</span> “{s.quote}”</span>
                {!readOnly && (
                  <button type="button" aria-label={`Remove “${s.quote}”`} onClick={() => onChange(spans.filter((_, j) => j !== i))}
                    className="text-xs text-red-700 hover:underline">Remove</button>
                )}
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}
