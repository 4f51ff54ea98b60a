'use client';

import { useState } from 'react';

/** Text longer than this is shown as a preview with "Show more". */
const COLLAPSE_AT = 300;
const PREVIEW_CHARS = 220;
/** Lists of objects (reviews, Q&A) are revealed this many at a time. */
const LIST_STEP = 5;

/** Renders a structured entity document of any shape: fields, long texts, lists, nested objects. */
export function DocumentView({ document }: { document: Record<string, unknown> }) {
  const entries = Object.entries(document).filter(([, v]) => !isEmpty(v));
  if (entries.length === 0) return <p className="text-sm text-slate-500">This entity has no document.</p>;
  return <FieldList entries={entries} />;
}

function FieldList({ entries, nested = false }: { entries: [string, unknown][]; nested?: boolean }) {
  return (
    <dl className={nested ? 'space-y-1' : 'space-y-3 text-sm'}>
      {entries.map(([key, value]) => (
        <div key={key} className={nested ? 'flex flex-wrap gap-x-1' : undefined}>
          <dt className={nested ? 'text-slate-500' : 'font-medium capitalize text-slate-700'}>{label(key)}{nested ? ':' : ''}</dt>
          <dd className={nested ? 'min-w-0 flex-1 text-slate-800' : 'mt-0.5 text-slate-800'}><Value value={value} /></dd>
        </div>
      ))}
    </dl>
  );
}

function Value({ value }: { value: unknown }) {
  if (Array.isArray(value)) {
    const items = value.filter((v) => !isEmpty(v));
    if (items.every((v) => typeof v !== 'object')) return <LongText text={items.map(String).join(', ')} />;
    return <PagedList items={items} />;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, v]) => !isEmpty(v));
    return (
      <div className="rounded border-l-2 border-slate-200 bg-slate-50 px-2 py-1">
        <FieldList entries={entries} nested />
      </div>
    );
  }
  return <LongText text={String(value)} />;
}

/** A long text shows a preview cut at a word boundary, expandable in place. */
function LongText({ text }: { text: string }) {
  const [expanded, setExpanded] = useState(false);
  if (text.length <= COLLAPSE_AT) return <span className="whitespace-pre-line">{text}</span>;
  const cut = text.lastIndexOf(' ', PREVIEW_CHARS);
  const preview = `${text.slice(0, cut > PREVIEW_CHARS / 2 ? cut : PREVIEW_CHARS).trimEnd()}…`;
  return (
    <span className="whitespace-pre-line" data-testid="long-text">
      {expanded ? text : preview}{' '}
      <button type="button" aria-expanded={expanded} onClick={() => setExpanded(!expanded)} className="text-xs font-medium text-blue-700 hover:underline">
        {expanded ? 'Show less' : 'Show more'}
      </button>
    </span>
  );
}

/** Lists of objects, e.g. reviews: the first few, then more on request. */
function PagedList({ items }: { items: unknown[] }) {
  const [shown, setShown] = useState(LIST_STEP);
  const visible = items.slice(0, shown);
  return (
    <div data-testid="paged-list">
      <p className="mb-1 text-xs text-slate-500">{visible.length < items.length ? `${visible.length} of ${items.length}` : `${items.length}`} {items.length === 1 ? 'item' : 'items'}</p>
      <ol className="ml-5 list-decimal space-y-2">
        {visible.map((item, i) => <li key={i}><Value value={item} /></li>)}
      </ol>
      <div className="mt-1 flex gap-3 text-xs">
        {shown < items.length && (
          <button type="button" onClick={() => setShown(shown + LIST_STEP)} className="font-medium text-blue-700 hover:underline">
            Show {Math.min(LIST_STEP, items.length - shown)} more
          </button>
        )}
        {shown > LIST_STEP && (
          <button type="button" onClick={() => setShown(LIST_STEP)} className="font-medium text-blue-700 hover:underline">Show fewer</button>
        )}
      </div>
    </div>
  );
}

const label = (key: string) => key.replace(/_/g, ' ');

function isEmpty(value: unknown): boolean {
  return value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0);
}
