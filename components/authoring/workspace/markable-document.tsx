'use client';

import { useEffect, useRef, useState } from 'react';
import { segments, trimRange, type DocField } from '@/lib/kb/document-fields';

/** The longest passage the API stores. */
const MAX_QUOTE = 5000;

/** A passage of one field: offsets within that field's text, and the text itself. */
export interface MarkedPassage {
  field: string;
  start: number;
  end: number;
  quote: string;
}

interface Props {
  fields: DocField[];
  /** Passages shown highlighted. */
  marked: readonly { field: string; start: number; end: number }[];
  /** Without it the document is only shown, never marked. */
  onMark?: (passage: MarkedPassage) => void;
  markLabel: string;
  testId: string;
}

/** Where the current text selection lies, when it lies inside one field of `root`. */
function selectedPassage(root: HTMLElement, fields: DocField[]): MarkedPassage | null {
  const selection = window.getSelection();
  if (!selection || selection.rangeCount === 0 || selection.isCollapsed) return null;
  const range = selection.getRangeAt(0).cloneRange();
  const fieldOf = (node: Node) => (node instanceof Element ? node : node.parentElement)?.closest<HTMLElement>('[data-field]') ?? null;
  const el = fieldOf(range.startContainer);
  if (!el || !root.contains(el)) return null;
  if (fieldOf(range.endContainer) !== el) {
    // A triple click ends the selection at the start of the next block: keep it when that adds no text.
    const whole = range.toString().trim();
    range.setEnd(el, el.childNodes.length);
    if (range.toString().trim() !== whole) return null;
  }
  const field = fields.find((f) => f.path === el.dataset.field);
  if (!field) return null;
  // The field's element holds exactly its text (highlights are inline), so a range from its start counts offsets.
  const before = document.createRange();
  before.selectNodeContents(el);
  before.setEnd(range.startContainer, range.startOffset);
  const start = before.toString().length;
  const trimmed = trimRange(field.text, start, start + range.toString().length);
  return trimmed && { field: field.path, ...trimmed, quote: field.text.slice(trimmed.start, trimmed.end) };
}

/**
 * A document whose fields can be marked: select text within one field and press the mark button. The
 * marked passages are highlighted. Shared by the seed's textual requirements and the evidence of a judgment.
 */
export function MarkableDocument({ fields, marked, onMark, markLabel, testId }: Props) {
  const root = useRef<HTMLDivElement>(null);
  const [pending, setPending] = useState<MarkedPassage | null>(null);

  useEffect(() => {
    if (!onMark) return;
    const update = () => root.current && setPending(selectedPassage(root.current, fields));
    document.addEventListener('selectionchange', update);
    return () => document.removeEventListener('selectionchange', update);
  }, [fields, onMark]);

  if (fields.length === 0) return <p className="text-sm text-slate-500">This entity has no document.</p>;
  return (
    <div className="space-y-2" data-testid={testId}>
      {onMark && (
        <div className="flex flex-wrap items-center gap-2 text-sm">
          <button type="button" disabled={!pending || pending.quote.length > MAX_QUOTE}
            // Pressing the button must not clear the selection it acts on.
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => {
              if (!pending) return;
              onMark(pending);
              window.getSelection()?.removeAllRanges();
              setPending(null);
            }}
            className="rounded border border-blue-600 px-2 py-1 text-blue-700 hover:bg-blue-50 disabled:border-slate-300 disabled:text-slate-400">
            {markLabel}
          </button>
          <span className="text-xs text-slate-500">
            {pending && pending.quote.length > MAX_QUOTE ? `The selection is longer than ${MAX_QUOTE.toLocaleString('en')} characters; select less.`
              : pending ? <>Selected in {fields.find((f) => f.path === pending.field)?.label}: “{pending.quote.length > 80 ? `${pending.quote.slice(0, 80)}…` : pending.quote}”</> : 'Select text within one field of the document.'}
          </span>
        </div>
      )}
      <div ref={root} role="region" tabIndex={0} aria-label="The document" className="max-h-[28rem] overflow-auto rounded border border-slate-100 p-2">
        <dl className="space-y-2 text-sm">
          {fields.map((f) => (
            <div key={f.path}>
              <dt className="font-medium capitalize text-slate-700">{f.label}</dt>
              <dd className="mt-0.5 whitespace-pre-line text-slate-800">
                <span data-field={f.path}>
                  {segments(f.text, marked.filter((m) => m.field === f.path)).map((s, i) =>
                    s.marked ? <mark key={i} className="rounded-sm bg-amber-200">{s.text}</mark> : <span key={i}>{s.text}</span>)}
                </span>
              </dd>
            </div>
          ))}
        </dl>
      </div>
    </div>
  );
}
