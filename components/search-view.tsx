'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { plural } from '@/lib/format/plural';
import Link from 'next/link';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import type { SearchResult } from '@/lib/kb/search';
import { fetchJson } from '@/lib/client/fetch-json';
import { EntityPicker } from './entity-picker';
import { Snippet } from './snippet';
import { TypeBadge } from './type-legend';

const PAGE_SIZE = 20;
/** The search API stops at this offset. */
const MAX_OFFSET = 10_000;

interface SearchState {
  q: string;
  types: string[];
  page: number;
}

function readState(params: URLSearchParams): SearchState {
  const page = Number(params.get('page'));
  return { q: params.get('q')?.trim() ?? '', types: params.getAll('type'), page: Number.isInteger(page) && page > 1 ? page : 1 };
}

function toQueryString(state: SearchState): string {
  const params = new URLSearchParams();
  if (state.q) params.set('q', state.q);
  for (const t of state.types) params.append('type', t);
  if (state.page > 1) params.set('page', String(state.page));
  return params.toString();
}

/** While the ranking index is built, search answers by full-text matching; look again this often. */
const BUILDING_POLL_MS = 3000;

/** Ranked search with type filter and paging; everything it shows follows from `?q=&type=&page=`. */
export function SearchView({ kbSlug, types }: { kbSlug: string; types: { name: string; count: number }[] }) {
  const kbTypes = types.map((t) => t.name);
  const router = useRouter();
  const pathname = usePathname();
  const state = readState(new URLSearchParams(useSearchParams().toString()));
  const [draft, setDraft] = useState(state.q);
  const [shownQ, setShownQ] = useState(state.q);
  // Back/forward or a link changed the query: show it in the box.
  if (shownQ !== state.q) {
    setShownQ(state.q);
    setDraft(state.q);
  }

  // The native history API updates the URL (and useSearchParams) without a server round trip.
  const go = (next: SearchState) => window.history.pushState(null, '', `${pathname}?${toQueryString(next)}`);
  const offset = (state.page - 1) * PAGE_SIZE;

  const { data, error, isFetching } = useQuery({
    queryKey: ['search', kbSlug, state.q, state.types, state.page],
    queryFn: () => {
      const params = new URLSearchParams({ q: state.q, limit: String(PAGE_SIZE), offset: String(offset) });
      for (const t of state.types) params.append('type', t);
      return fetchJson<SearchResult>(`/api/kbs/${encodeURIComponent(kbSlug)}/search?${params}`);
    },
    enabled: state.q.length > 0 && offset <= MAX_OFFSET,
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.ranking === 'fulltext' ? BUILDING_POLL_MS : false),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    go({ ...state, q: draft.trim(), page: 1 });
  }

  function toggleType(name: string) {
    const selected = state.types.includes(name) ? state.types.filter((t) => t !== name) : [...state.types, name];
    go({ ...state, types: selected, page: 1 });
  }

  const pages = data ? Math.max(1, Math.ceil(Math.min(data.total, MAX_OFFSET + PAGE_SIZE) / PAGE_SIZE)) : 1;

  return (
    <div className="grid gap-6 lg:grid-cols-[16rem_1fr]">
      <aside className="space-y-6">
        <EntityPicker
          kbSlug={kbSlug}
          label="Go to entity"
          placeholder="Name, #id or external id"
          testId="goto-entity"
          onSelect={(e) => router.push(`/kb/${kbSlug}/entities/${e.id}`)}
        />
        <fieldset className="space-y-1" data-testid="type-filter">
          <legend className="mb-1 text-sm font-medium text-slate-700">Entity types</legend>
          {types.map((t) => (
            <label key={t.name} className="flex items-center gap-2 text-sm">
              <input type="checkbox" checked={state.types.includes(t.name)} onChange={() => toggleType(t.name)} />
              <span>{t.name}</span>
              <span className="ml-auto text-xs text-slate-500">{t.count.toLocaleString('en')}</span>
            </label>
          ))}
        </fieldset>
      </aside>

      <div className="space-y-4">
        <form onSubmit={submit} role="search" className="space-y-1">
          <div className="flex gap-2">
            <input
              type="search"
              name="q"
              aria-label="Search query"
              value={draft}
              onChange={(e) => setDraft(e.target.value)}
              placeholder="Search names and documents"
              className="w-full rounded border border-slate-300 px-3 py-2"
            />
            <button type="submit" className="rounded bg-blue-600 px-4 py-2 text-white hover:bg-blue-700">Search</button>
          </div>
          <p className="text-xs text-slate-500">
            Type words or paste a question: hits contain any of the words, best matches first (BM25). For strict matching use{' '}
            <code>&quot;quoted phrases&quot;</code>, <code>AND</code>, <code>OR</code> between alternatives and <code>-word</code> to exclude.
          </p>
        </form>

        {error && <p role="alert" className="text-sm text-red-700">Search failed: {error.message}</p>}
        {!state.q && <p className="text-sm text-slate-500">Type a query to search this knowledge base.</p>}
        {state.q && data && (
          <div aria-busy={isFetching} className={`min-w-0 ${isFetching ? 'opacity-60' : ''}`}>
            {data.ranking === 'fulltext' && (
              <p role="status" className="mb-2 rounded border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900" data-testid="index-building">
                The ranking index is being built. Until it is ready, results come from full-text matching, where every word must match.
              </p>
            )}
            <p className="mb-2 text-sm text-slate-600" data-testid="search-total">
              {data.total.toLocaleString('en')}{data.totalIsLowerBound && '+'} {data.total === 1 ? 'result' : 'results'}
              {data.total > 0 && <> · page {state.page} of {pages}</>}
              {data.ranking === 'fulltext' && data.totalIsLowerBound && <> · ranked among the best-connected matches; refine the query for exact ranking</>}
              {data.checkedBest !== undefined && <> · phrases checked in the {data.checkedBest.toLocaleString('en')} best-ranked entities holding their words; lower-ranked matches are not listed</>}
            </p>
            <ol className="space-y-3" data-testid="search-results">
              {data.hits.map((hit, i) => (
                <li key={hit.id} className="flex gap-3 rounded-lg border border-slate-200 bg-white p-3" data-testid="search-hit">
                  <span className="w-7 shrink-0 text-right text-sm tabular-nums text-slate-500" data-testid="hit-rank">{offset + i + 1}.</span>
                  <div className="min-w-0 flex-1">
                    <div className="flex flex-wrap items-baseline gap-x-2 gap-y-1">
                      <Link href={`/kb/${kbSlug}/entities/${hit.id}`} className="font-medium text-blue-700 [overflow-wrap:anywhere] hover:underline">{hit.name}</Link>
                      <TypeBadge kbTypes={kbTypes} type={hit.type} testId="hit-type" />
                      {hit.covered !== null && (
                        <span className="rounded bg-emerald-50 px-1.5 text-xs text-emerald-800" data-testid="hit-coverage">
                          covers {hit.covered} of {data.words.length} {data.words.length === 1 ? 'word' : 'words'}
                        </span>
                      )}
                      <span className="text-xs text-slate-500 [overflow-wrap:anywhere]">{plural(hit.degree, 'edge')} · {hit.externalId}</span>
                    </div>
                    <p className="mt-1 text-sm text-slate-700 [overflow-wrap:anywhere]"><Snippet text={hit.snippet} /></p>
                  </div>
                </li>
              ))}
            </ol>
            {data.hits.length === 0 && state.page > 1 && (
              <p className="text-sm text-slate-500">
                No results on this page. <button type="button" className="text-blue-700 hover:underline" onClick={() => go({ ...state, page: 1 })}>Back to page 1</button>
              </p>
            )}
            {data.total > 0 && (
              <nav aria-label="Result pages" className="mt-4 flex items-center gap-3 text-sm">
                <button type="button" disabled={state.page <= 1} onClick={() => go({ ...state, page: state.page - 1 })} className="rounded border border-slate-300 px-3 py-1 disabled:opacity-40">
                  Previous
                </button>
                <span>Page {state.page} of {pages}</span>
                <button type="button" disabled={state.page >= pages} onClick={() => go({ ...state, page: state.page + 1 })} className="rounded border border-slate-300 px-3 py-1 disabled:opacity-40">
                  Next
                </button>
              </nav>
            )}
          </div>
        )}
      </div>
    </div>
  );
}
