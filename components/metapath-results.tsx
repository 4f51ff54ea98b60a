'use client';

import Link from 'next/link';
import { plural } from '@/lib/format/plural';
import { useState, type FormEvent, type ReactNode } from 'react';
import type { MetapathsResult } from '@/lib/kb/metapath';
import { countLabel, WALK_EDGE_BUDGET } from '@/lib/kb/metapath-count';
import { MATCH_END, MATCH_START } from '@/lib/kb/highlight';

/** A snippet with its matches marked; the markers are control characters no document can contain. */
function Snippet({ text }: { text: string }) {
  const parts: ReactNode[] = [];
  const re = new RegExp(`${MATCH_START}([^${MATCH_END}]*)${MATCH_END}`, 'g');
  let at = 0;
  for (const m of text.matchAll(re)) {
    parts.push(text.slice(at, m.index), <mark key={m.index}>{m[1]}</mark>);
    at = m.index + m[0].length;
  }
  parts.push(text.slice(at));
  return <p className="text-xs text-slate-600">{parts}</p>;
}

const isLowerBound = (r: MetapathsResult) => Boolean(r.totalAtLeast || r.branches.some((b) => b.steps.some((s) => s.atLeast)));

interface ResultsProps {
  kbSlug: string;
  type: string;
  result: MetapathsResult | undefined;
  loading: boolean;
  q: string;
  page: number;
  pageSize: number;
  onSearch: (q: string) => void;
  onPage: (page: number) => void;
  /** Asks for exact counts (a walk without bound), offered when a count is a lower bound. */
  onCountExactly: () => void;
}

/** The reachable entities, a page at a time, with a full-text box that filters and ranks them. */
export function MetapathResults({ kbSlug, type, result, loading, q, page, pageSize, onSearch, onPage, onCountExactly }: ResultsProps) {
  const [text, setText] = useState(q);
  const pages = result ? Math.max(1, Math.ceil(result.total / pageSize)) : 1;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSearch(text.trim());
  };

  return (
    <div className="space-y-3 rounded-lg border border-slate-200 bg-white p-4" data-testid="metapath-results" aria-busy={loading}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 className="font-medium">
          Reachable {type}:{' '}
          <span data-testid="metapath-total">{result ? countLabel(result.total, result.totalAtLeast) : '…'}</span>
          {q && <span className="text-sm font-normal text-slate-500"> matching “{q}”</span>}
        </h2>
        <form role="search" onSubmit={submit} className="flex gap-2 text-sm">
          <input aria-label="Search within these" placeholder="Search within these" value={text} onChange={(e) => setText(e.target.value)}
            className="rounded border border-slate-300 px-2 py-1.5" />
          <button type="submit" className="rounded bg-blue-600 px-3 py-1.5 text-white hover:bg-blue-700">Search within these</button>
          {q && <button type="button" className="rounded border border-slate-300 px-2 py-1.5" onClick={() => { setText(''); onSearch(''); }}>Clear</button>}
        </form>
      </div>
      {result && isLowerBound(result) && (
        <p className="text-sm text-slate-600" data-testid="metapath-bounded">
          Counts marked + are lower bounds (at least that many): the walk stops after {WALK_EDGE_BUDGET.toLocaleString('en')} edges per
          step, and the list shows what it reached.{' '}
          <button type="button" onClick={onCountExactly} disabled={loading}
            className="rounded border border-slate-300 px-2 py-0.5 hover:bg-slate-50 disabled:opacity-50">Count exactly</button>
          {' '}<span className="text-xs text-slate-500">(reads every edge: can take seconds from a large hub)</span>
        </p>
      )}
      {result && result.items.length === 0 && <p className="text-sm text-slate-500">No entity is reached{q ? ' that matches' : ''}.</p>}
      <ol className="divide-y divide-slate-100" data-testid="metapath-items" start={(page - 1) * pageSize + 1}>
        {result?.items.map((item) => (
          <li key={item.id} className="py-1.5">
            <Link href={`/kb/${kbSlug}/entities/${item.id}`} className="font-medium text-blue-700 hover:underline">{item.name}</Link>
            <span className="ml-2 text-xs text-slate-500">{item.type} · #{item.id} · {plural(item.degree, 'edge')}</span>
            {item.snippet && <Snippet text={item.snippet} />}
          </li>
        ))}
      </ol>
      {result && result.total > pageSize && (
        <nav aria-label="Pages" className="flex items-center gap-3 text-sm">
          <button type="button" disabled={page <= 1} onClick={() => onPage(page - 1)}
            className="rounded border border-slate-300 px-2 py-1 disabled:opacity-40">Previous</button>
          <span data-testid="metapath-page">Page {page} of {pages}</span>
          <button type="button" disabled={page >= pages} onClick={() => onPage(page + 1)}
            className="rounded border border-slate-300 px-2 py-1 disabled:opacity-40">Next</button>
        </nav>
      )}
    </div>
  );
}
