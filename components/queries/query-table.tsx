'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useState, type FormEvent } from 'react';
import type { QueryPage } from '@/lib/queries/sets';
import { requestJson, queryPage, setApi } from './api';
import { Field } from './field';
import { fmtCount, splitLabel } from './format';
import { Pager } from './pager';
import { intParam } from './use-url-params';

const PAGE_SIZE = 50;

interface Props {
  slug: string;
  name: string;
  splits: string[];
  params: URLSearchParams;
  setParams: (patch: Record<string, string | number | null>) => void;
}

/** The set's queries in file order, a page at a time, filtered by split and by text or query id (`?split=&q=&page=`). */
export function QueryTable({ slug, name, splits, params, setParams }: Props) {
  const split = params.get('split') ?? '';
  const q = params.get('q') ?? '';
  const page = intParam(params, 'page', 1);
  const [draft, setDraft] = useState(q);
  const [shownQ, setShownQ] = useState(q);
  // Back/forward changed the filter: show it in the box.
  if (shownQ !== q) {
    setShownQ(q);
    setDraft(q);
  }

  const { data, error, isFetching } = useQuery({
    queryKey: ['query-set-queries', slug, name, split, q, page],
    queryFn: () => {
      const search = new URLSearchParams({ limit: String(PAGE_SIZE), offset: String((page - 1) * PAGE_SIZE) });
      if (split) search.set('split', split);
      if (q) search.set('q', q);
      return requestJson<QueryPage>(`${setApi(slug, name)}/queries?${search}`);
    },
    placeholderData: keepPreviousData,
  });

  function onSearch(event: FormEvent) {
    event.preventDefault();
    setParams({ q: draft.trim(), page: null });
  }

  return (
    <section aria-labelledby="queries-heading" className="space-y-3 text-sm">
      <h2 id="queries-heading" className="sr-only">Queries</h2>
      <div className="flex flex-wrap items-end gap-4">
        <Field id="queries-split" label="Split">
          <select id="queries-split" value={split} onChange={(e) => setParams({ split: e.target.value, page: null })} className="rounded border border-slate-300 px-2 py-1">
            <option value="">All splits</option>
            {splits.map((s) => <option key={s} value={s}>{s}</option>)}
          </select>
        </Field>
        <form role="search" onSubmit={onSearch} className="flex flex-wrap items-end gap-2">
          <Field id="queries-q" label="Text or query id">
            <input id="queries-q" type="search" value={draft} onChange={(e) => setDraft(e.target.value)} className="w-72 max-w-full rounded border border-slate-300 px-2 py-1" />
          </Field>
          <button type="submit" className="rounded bg-blue-600 px-3 py-1 text-white hover:bg-blue-700">Filter</button>
        </form>
      </div>
      {error && <p role="alert" className="text-red-700">Could not load the queries: {error.message}</p>}
      {data && (
        <div aria-busy={isFetching} className={isFetching ? 'opacity-60' : ''}>
          <p className="mb-2 text-slate-600" data-testid="query-total">{fmtCount(data.total)} {data.total === 1 ? 'query' : 'queries'}</p>
          <table className="w-full" data-testid="query-table">
            <thead className="text-left text-slate-600">
              <tr><th scope="col" className="py-1">Id</th><th scope="col">Query</th><th scope="col">Split</th><th scope="col" className="text-right">Answers</th></tr>
            </thead>
            <tbody>
              {data.items.map((row) => (
                <tr key={row.id} className="border-t border-slate-100 align-top">
                  <td className="py-1 pr-3 font-mono">
                    <Link href={queryPage(slug, name, row.id)} className="text-blue-700 hover:underline">{row.id}</Link>
                  </td>
                  <td className="pr-3">{row.text}</td>
                  <td className="pr-3 text-slate-600">{splitLabel(row.split)}</td>
                  <td className="text-right tabular-nums">{row.answers.length}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <Pager page={page} pages={Math.max(1, Math.ceil(data.total / PAGE_SIZE))} onPage={(p) => setParams({ page: p === 1 ? null : p })} />
        </div>
      )}
    </section>
  );
}
