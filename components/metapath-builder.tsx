'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { usePathname, useSearchParams } from 'next/navigation';
import { useState } from 'react';
import { fetchJson } from '@/lib/client/fetch-json';
import type { Metapath, MetapathSchema, MetapathsResult, MetapathStep } from '@/lib/kb/metapath';
import { finalType, MetapathBranch, useStartType, type BranchState } from './metapath-branch';
import { MetapathResults } from './metapath-results';

const PAGE_SIZE = 25;

/*
 * The builder's state lives in the URL, so a metapath can be shared and reloaded:
 *   start=ID | type=NAME          where the first branch starts (an entity id, or every entity of a type)
 *   step=DIR~RELATION~TYPE        one per step, in order; DIR is out (forwards) or in (backwards)
 *   start2 / type2 / step2        the second branch, meeting the first at its final type
 *   q=TEXT                        "search within these" (full-text filter on the reachable set)
 *   page=N                        the page of reachable entities (1-based)
 *   exact=1                       count exactly instead of within the bounded walk (see WALK_EDGE_BUDGET)
 */
function readBranch(params: URLSearchParams, suffix: string): BranchState {
  const id = Number(params.get(`start${suffix}`));
  const type = params.get(`type${suffix}`);
  const start = Number.isInteger(id) && id > 0 ? { entity: id } : type ? { type } : null;
  const steps = params.getAll(`step${suffix}`).flatMap((raw): MetapathStep[] => {
    const first = raw.indexOf('~');
    const last = raw.lastIndexOf('~');
    const direction = raw.slice(0, first);
    if (first < 0 || last <= first || (direction !== 'out' && direction !== 'in')) return [];
    return [{ direction, relation: raw.slice(first + 1, last), targetType: raw.slice(last + 1) }];
  });
  return { start, steps };
}

function writeBranch(params: URLSearchParams, suffix: string, branch: BranchState | null): void {
  for (const key of ['start', 'type', 'step']) params.delete(`${key}${suffix}`);
  if (!branch?.start) return;
  if ('entity' in branch.start) params.set(`start${suffix}`, String(branch.start.entity));
  else params.set(`type${suffix}`, branch.start.type);
  for (const s of branch.steps) params.append(`step${suffix}`, `${s.direction}~${s.relation}~${s.targetType}`);
}

const complete = (b: BranchState): b is { start: NonNullable<BranchState['start']>; steps: MetapathStep[] } => b.start !== null && b.steps.length > 0;

/** Builds one metapath, or two meeting at one type, step by step, and pages through what they reach. */
export function MetapathBuilder({ kbSlug }: { kbSlug: string }) {
  const pathname = usePathname();
  const params = useSearchParams();
  const first = readBranch(params, '');
  const second = readBranch(params, '2');
  const [secondOpen, setSecondOpen] = useState(second.start !== null);
  const q = params.get('q') ?? '';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const exact = params.get('exact') === '1';

  const update = (change: (next: URLSearchParams) => void) => {
    // From the address bar, not the render's params: two quick changes must not undo each other.
    const next = new URLSearchParams(window.location.search);
    change(next);
    // The native history call updates useSearchParams and the address bar at once (Next.js syncs it).
    window.history.replaceState(null, '', `${pathname}?${next.toString()}`);
  };
  const setBranch = (suffix: string, branch: BranchState | null) => update((next) => {
    writeBranch(next, suffix, branch);
    next.delete('page');
    next.delete('exact');
  });

  const { data: schema, error: schemaError } = useQuery({
    queryKey: ['metapath-schema', kbSlug],
    queryFn: () => fetchJson<MetapathSchema>(`/api/kbs/${encodeURIComponent(kbSlug)}/metapaths/schema`),
  });
  const firstEnd = finalType(useStartType(kbSlug, first.start).type, first.steps);
  const secondEnd = finalType(useStartType(kbSlug, second.start).type, second.steps);

  const paths: Metapath[] | null = complete(first)
    ? secondOpen
      ? complete(second) && secondEnd === firstEnd ? [first, second] : null
      : [first]
    : null;
  const body = paths && { paths, q: q || undefined, limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE, ...(exact ? { exact } : {}) };
  const { data: result, error, isFetching } = useQuery({
    queryKey: ['metapath', kbSlug, body],
    queryFn: () => fetchJson<MetapathsResult>(`/api/kbs/${encodeURIComponent(kbSlug)}/metapaths/evaluate`, { method: 'POST', body: JSON.stringify(body) }),
    enabled: body !== null,
    placeholderData: keepPreviousData,
  });
  const shown = body ? result : undefined;

  if (schemaError) return <p role="alert" className="text-sm text-red-700">Could not load the schema: {schemaError.message}</p>;
  if (!schema) return <p className="text-sm text-slate-500">Loading the schema…</p>;
  return (
    <div className="space-y-4">
      <MetapathBranch kbSlug={kbSlug} schema={schema} label="Path" branch={first} testId="branch-1"
        counts={shown?.branches[0]} onChange={(b) => setBranch('', b)} />
      {secondOpen ? (
        <div className="space-y-2">
          <MetapathBranch kbSlug={kbSlug} schema={schema} label={`Second path, meeting at ${firstEnd ?? 'the same type'}`} branch={second} testId="branch-2"
            counts={shown?.branches[1]} mustEndAt={firstEnd} onChange={(b) => setBranch('2', b)} />
          <button type="button" className="rounded border border-slate-300 px-2 py-1.5 text-sm hover:bg-slate-50"
            onClick={() => { setSecondOpen(false); setBranch('2', null); }}>Remove the second path</button>
        </div>
      ) : complete(first) && (
        <button type="button" className="rounded border border-slate-300 px-2 py-1.5 text-sm hover:bg-slate-50" onClick={() => setSecondOpen(true)}>
          Add a second path meeting at {firstEnd}
        </button>
      )}
      {error && <p role="alert" className="text-sm text-red-700">{error.message}</p>}
      {body && firstEnd && (
        <MetapathResults key={q} kbSlug={kbSlug} type={firstEnd} result={shown} loading={isFetching} q={q} page={page} pageSize={PAGE_SIZE}
          onSearch={(text) => update((next) => { if (text) next.set('q', text); else next.delete('q'); next.delete('page'); })}
          onPage={(n) => update((next) => next.set('page', String(n)))}
          onCountExactly={() => update((next) => next.set('exact', '1'))} />
      )}
    </div>
  );
}
