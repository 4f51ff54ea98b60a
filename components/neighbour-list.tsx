'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import type { Direction, RelationCount } from '@/lib/kb/entity';
import type { NeighbourPage, NeighbourSort, SortOrder } from '@/lib/kb/neighbours';
import { fetchJson } from '@/lib/client/fetch-json';
import { useKbTypes } from '@/lib/client/use-kb-types';
import { groupLabel } from '@/lib/kb/relation-groups';
import { TypeBadge } from './type-legend';

const NEIGHBOUR_PAGE_SIZE = 20;

const SORTS: { value: string; label: string; sort: NeighbourSort; order: SortOrder }[] = [
  { value: 'name-asc', label: 'Name A–Z', sort: 'name', order: 'asc' },
  { value: 'name-desc', label: 'Name Z–A', sort: 'name', order: 'desc' },
  { value: 'degree-desc', label: 'Most connected first', sort: 'degree', order: 'desc' },
  { value: 'degree-asc', label: 'Least connected first', sort: 'degree', order: 'asc' },
];

const groupKey = (r: { relationId: number; direction: Direction }) => `${r.relationId}-${r.direction}`;

/**
 * An entity's neighbours in one relation and direction at a time, sorted by name or degree, paged with the
 * API's cursors (so a hub's hundredth page costs what its first does); Previous goes back along the cursors seen.
 */
export function NeighbourList({ kbSlug, entityId, relations }: { kbSlug: string; entityId: number; relations: RelationCount[] }) {
  const largest = relations.reduce<RelationCount | undefined>((best, r) => (!best || r.count > best.count ? r : best), undefined);
  const [group, setGroup] = useState(largest ? groupKey(largest) : '');
  const [sortValue, setSortValue] = useState(SORTS[0]!.value);
  const kbTypes = useKbTypes(kbSlug);
  // cursors[i] opens page i + 1; page 1 has none.
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const page = cursors.length;
  const selected = relations.find((r) => groupKey(r) === group);
  const { sort, order } = SORTS.find((s) => s.value === sortValue)!;

  const { data, error, isFetching } = useQuery({
    queryKey: ['neighbour-list', kbSlug, entityId, group, sortValue, cursors.at(-1) ?? null],
    queryFn: () => {
      const params = new URLSearchParams({ relation: `#${selected!.relationId}`, direction: selected!.direction, sort, order, limit: String(NEIGHBOUR_PAGE_SIZE) });
      const cursor = cursors.at(-1);
      if (cursor) params.set('cursor', cursor);
      return fetchJson<NeighbourPage>(`/api/kbs/${encodeURIComponent(kbSlug)}/entities/${entityId}/neighbours/list?${params}`);
    },
    enabled: Boolean(selected),
    placeholderData: keepPreviousData,
  });

  if (!selected) return <p className="text-sm text-slate-500">This entity has no edges.</p>;
  const first = (page - 1) * NEIGHBOUR_PAGE_SIZE;
  const total = data?.total ?? selected.count;

  return (
    <div className="space-y-3" data-testid="neighbour-list">
      <div className="flex flex-wrap items-end gap-3 text-sm">
        <label className="flex flex-col gap-1">
          <span className="font-medium text-slate-700">Relation</span>
          <select
            value={group}
            onChange={(e) => {
              setGroup(e.target.value);
              setCursors([undefined]);
            }}
            className="rounded border border-slate-300 px-2 py-1"
          >
            {relations.map((r) => (
              <option key={groupKey(r)} value={groupKey(r)}>{groupLabel(r)} ({r.count.toLocaleString('en')})</option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1">
          <span className="font-medium text-slate-700">Sort</span>
          <select
            value={sortValue}
            onChange={(e) => {
              setSortValue(e.target.value);
              setCursors([undefined]);
            }}
            className="rounded border border-slate-300 px-2 py-1"
          >
            {SORTS.map((s) => <option key={s.value} value={s.value}>{s.label}</option>)}
          </select>
        </label>
      </div>
      {error && <p role="alert" className="text-sm text-red-700">Could not load neighbours: {error.message}</p>}
      <table className={`w-full text-sm ${isFetching ? 'opacity-60' : ''}`} aria-busy={isFetching}>
        <thead>
          <tr className="border-b border-slate-200 text-left text-slate-500">
            <th className="py-1 font-medium">Name</th>
            <th className="py-1 font-medium">Type</th>
            <th className="py-1 text-right font-medium">Edges</th>
          </tr>
        </thead>
        <tbody data-testid="neighbour-rows">
          {data?.items.map((n) => (
            <tr key={n.id} className="border-b border-slate-100">
              <td className="py-1"><Link href={`/kb/${kbSlug}/entities/${n.id}`} className="text-blue-700 hover:underline">{n.name}</Link></td>
              <td className="py-1"><TypeBadge kbTypes={kbTypes} type={n.type} /></td>
              <td className="py-1 text-right tabular-nums" data-testid="neighbour-degree">{n.degree.toLocaleString('en')}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <nav aria-label="Neighbour pages" className="flex items-center gap-3 text-sm">
        <button type="button" disabled={page <= 1} onClick={() => setCursors(cursors.slice(0, -1))} className="rounded border border-slate-300 px-3 py-1 disabled:opacity-40">
          Previous
        </button>
        <span data-testid="neighbour-range">
          {data && data.items.length > 0 ? `${(first + 1).toLocaleString('en')}–${(first + data.items.length).toLocaleString('en')}` : '0'} of {total.toLocaleString('en')}
        </span>
        <button
          type="button"
          disabled={!data?.nextCursor || first + (data?.items.length ?? 0) >= total}
          onClick={() => data?.nextCursor && setCursors([...cursors, data.nextCursor])}
          className="rounded border border-slate-300 px-3 py-1 disabled:opacity-40"
        >
          Next
        </button>
      </nav>
    </div>
  );
}
