'use client';

import { useState } from 'react';
import type { DimensionResult, ItemResult } from '@/lib/studies/results';
import { fmtCount } from '../queries/format';
import { Pager } from '../queries/pager';
import { fmtStat } from './result-format';

const PAGE_SIZE = 25;
type SortKey = 'disagreement' | 'raters' | `mean:${string}`;

function sortValue(item: ItemResult, key: SortKey): number {
  if (key === 'disagreement') return item.disagreement;
  if (key === 'raters') return item.raters;
  return item.dimensions[key.slice(5)]?.mean ?? Number.NEGATIVE_INFINITY;
}

/** Every rated item with its raters, its mean and spread per dimension; by default the most disputed first. */
export function ItemTable({ items, dimensions }: { items: ItemResult[]; dimensions: DimensionResult[] }) {
  const [sort, setSort] = useState<{ key: SortKey; descending: boolean }>({ key: 'disagreement', descending: true });
  const [page, setPage] = useState(1);
  const sorted = [...items].sort((a, b) => (sortValue(a, sort.key) - sortValue(b, sort.key)) * (sort.descending ? -1 : 1) || a.itemId - b.itemId);
  const pages = Math.max(1, Math.ceil(sorted.length / PAGE_SIZE));
  const shown = sorted.slice((Math.min(page, pages) - 1) * PAGE_SIZE, Math.min(page, pages) * PAGE_SIZE);
  const header = (key: SortKey, label: string) => {
    const active = sort.key === key;
    return (
      <th key={key} scope="col" className="px-2 text-right" aria-sort={active ? (sort.descending ? 'descending' : 'ascending') : 'none'}>
        <button type="button" className="hover:underline" onClick={() => { setSort({ key, descending: active ? !sort.descending : true }); setPage(1); }}>
          {label}{active ? (sort.descending ? ' ↓' : ' ↑') : ''}
        </button>
      </th>
    );
  };
  return (
    <div className="text-sm">
      <div className="table-scroll">
        <table className="w-full" data-testid="item-table">
          <thead className="text-left text-slate-600">
            <tr>
              <th scope="col" className="py-1">Query</th><th scope="col" className="px-2">Source</th>
              {header('raters', 'Raters')}
              {dimensions.map((d) => header(`mean:${d.key}`, `${d.label} mean (sd)`))}
              {header('disagreement', 'Disagreement')}
            </tr>
          </thead>
          <tbody>
            {shown.map((item) => (
              <tr key={item.itemId} className="border-t border-slate-100 align-top">
                <td className="py-1 pr-2">{item.text}{item.queryExternalId !== null && <span className="ml-1 font-mono text-xs text-slate-500">{item.queryExternalId}</span>}</td>
                <td className="px-2 font-mono text-xs">{item.source}</td>
                <td className="px-2 text-right tabular-nums">{fmtCount(item.raters)}</td>
                {dimensions.map((d) => {
                  const x = item.dimensions[d.key];
                  return <td key={d.key} className="px-2 text-right tabular-nums">{x ? `${fmtStat(x.mean)} (${fmtStat(x.sd)})` : '—'}</td>;
                })}
                <td className="px-2 text-right tabular-nums">{fmtStat(item.disagreement)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="mt-1 text-xs text-slate-500">Disagreement is an item’s largest standard deviation over its dimensions.</p>
      <Pager page={Math.min(page, pages)} pages={pages} onPage={setPage} />
    </div>
  );
}
