'use client';

import { useEffect, useRef, useState } from 'react';
import type { Dimension } from '@/lib/studies/dimensions';

const DEBOUNCE_MS = 800;

/** A free comment: saved when the participant pauses typing or leaves the box. */
export function TextAnswer({ itemId, dimension, saved, readOnly, onSave }: {
  itemId: number;
  dimension: Extract<Dimension, { kind: 'text' }>;
  saved: string | null;
  readOnly: boolean;
  onSave: (text: string) => void;
}) {
  const [text, setText] = useState(saved ?? '');
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const sent = useRef(saved);
  const id = `item-${itemId}-${dimension.key}`;

  const commit = (value: string) => {
    clearTimeout(timer.current);
    if (value === (sent.current ?? '')) return;
    sent.current = value;
    onSave(value);
  };

  // Moving to another item unmounts the box: what was typed is saved then too.
  const latest = useRef({ text, commit });
  latest.current = { text, commit };
  useEffect(() => () => latest.current.commit(latest.current.text), []);

  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block font-medium">
        {dimension.label}
        {!dimension.required && <span className="font-normal text-slate-500"> (optional)</span>}
      </label>
      {dimension.question && <p id={`${id}-question`} className="text-sm text-slate-600">{dimension.question}</p>}
      <textarea id={id} value={text} maxLength={2000} rows={3} readOnly={readOnly} aria-describedby={dimension.question ? `${id}-question` : undefined}
        onChange={(e) => {
          const value = e.target.value;
          setText(value);
          clearTimeout(timer.current);
          timer.current = setTimeout(() => commit(value), DEBOUNCE_MS);
        }}
        onBlur={() => commit(text)}
        className="w-full rounded border border-slate-300 px-2 py-1 text-sm" />
    </div>
  );
}
