'use client';

import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { fetchJson } from '@/lib/client/fetch-json';
import type { Metapath, MetapathSchema, MetapathsResult, MetapathStep } from '@/lib/kb/metapath';
import { MetapathBranch, useStartType, type BranchState } from '@/components/metapath-branch';
import type { Requirement } from './types';

interface Seed {
  id: number;
  name: string;
  type: string;
}

interface Props {
  kbSlug: string;
  seed: Seed;
  value: Requirement | null;
  onChange: (requirement: Requirement | null) => void;
  readOnly: boolean;
}

const complete = (b: BranchState | null): b is Metapath => b !== null && b.start !== null && b.steps.length > 0;
const endOf = (p: Metapath) => p.steps[p.steps.length - 1]!.targetType;

/** The paths a requirement holds: the seed's path, and the second one when it is complete and meets it. */
function requirementOf(first: BranchState, second: BranchState | null): Requirement | null {
  if (!complete(first)) return null;
  return { paths: complete(second) && endOf(second) === endOf(first) ? [first, second] : [first] };
}

/** A path in words, the way it reads on the schema: "brand ← has_brand ← product". */
export function pathWords(start: string, steps: MetapathStep[]): string {
  return [start, ...steps.map((s) => (s.direction === 'out' ? `→ ${s.relation} → ${s.targetType}` : `← ${s.relation} ← ${s.targetType}`))].join(' ');
}

function PatternWords({ kbSlug, seed, requirement }: { kbSlug: string; seed: Seed; requirement: Requirement | null }) {
  const second = requirement?.paths[1];
  const secondStart = useStartType(kbSlug, second?.start ?? null);
  if (!requirement) return <p className="text-sm text-slate-500" data-testid="pattern-words">No relational requirement yet: add a step from the seed.</p>;
  const [first] = requirement.paths;
  const secondLabel = second && ('type' in second.start ? `every ${second.start.type}` : secondStart.name ?? `#${second.start.entity}`);
  return (
    <p className="text-sm" data-testid="pattern-words">
      <span className="font-medium">Pattern:</span> {pathWords(`${seed.type} (the seed)`, first!.steps)}
      {second && <> and {pathWords(secondLabel!, second.steps)}, meeting at {endOf(second)}</>}
      <span className="text-slate-500"> · the candidates are the {endOf(first!)} entities it reaches.</span>
    </p>
  );
}

/**
 * The relational requirement, built with the explorer's metapath tool: a path from the seed and, optionally,
 * a second path that must end at the same type. Each complete change goes to the draft.
 */
export function RequirementBuilder({ kbSlug, seed, value, onChange, readOnly }: Props) {
  const fromSeed: BranchState = { start: { entity: seed.id }, steps: [] };
  const [first, setFirst] = useState<BranchState>(() => value?.paths[0] ?? fromSeed);
  const [second, setSecond] = useState<BranchState | null>(() => value?.paths[1] ?? null);
  const { data: schema, error } = useQuery({
    queryKey: ['metapath-schema', kbSlug],
    queryFn: () => fetchJson<MetapathSchema>(`/api/kbs/${encodeURIComponent(kbSlug)}/metapaths/schema`),
    enabled: !readOnly,
  });
  const { data: counts } = useQuery({
    queryKey: ['metapath', kbSlug, value?.paths ?? null, 'counts'],
    queryFn: () => fetchJson<MetapathsResult>(`/api/kbs/${encodeURIComponent(kbSlug)}/metapaths/evaluate`, { method: 'POST', body: JSON.stringify({ paths: value!.paths, limit: 1, offset: 0 }) }),
    enabled: !readOnly && value !== null,
  });

  const update = (nextFirst: BranchState, nextSecond: BranchState | null) => {
    setFirst(nextFirst);
    setSecond(nextSecond);
    const next = requirementOf(nextFirst, nextSecond);
    if (JSON.stringify(next) !== JSON.stringify(value)) onChange(next);
  };
  const firstEnd = complete(first) ? endOf(first) : null;

  return (
    <div className="space-y-3" data-testid="requirement-builder">
      <PatternWords kbSlug={kbSlug} seed={seed} requirement={value} />
      {!readOnly && error && <p role="alert" className="text-sm text-red-700">Could not load the schema: {error.message}</p>}
      {!readOnly && schema && (
        <>
          {/* The seed's path always starts at the seed: changing its start starts it again. */}
          <MetapathBranch kbSlug={kbSlug} schema={schema} label="Path from the seed" branch={first} testId="requirement-branch-1"
            counts={counts?.branches[0]} onChange={(b) => update(b.start ? b : fromSeed, second)} />
          {second ? (
            <div className="space-y-2">
              <MetapathBranch kbSlug={kbSlug} schema={schema} label={`Second path, meeting at ${firstEnd ?? 'the same type'}`} branch={second}
                testId="requirement-branch-2" counts={value?.paths.length === 2 ? counts?.branches[1] : undefined} mustEndAt={firstEnd}
                onChange={(b) => update(first, b)} />
              {!(complete(second) && endOf(second) === firstEnd) && (
                <p className="text-xs text-slate-500">Until the second path is complete and ends at {firstEnd ?? 'the same type'}, the requirement is the seed’s path alone.</p>
              )}
              <button type="button" onClick={() => update(first, null)} className="rounded border border-slate-300 px-2 py-1.5 text-sm hover:bg-slate-50">
                Remove the second path
              </button>
            </div>
          ) : firstEnd && (
            <button type="button" onClick={() => update(first, { start: null, steps: [] })} className="rounded border border-slate-300 px-2 py-1.5 text-sm hover:bg-slate-50">
              Add a second path meeting at {firstEnd}
            </button>
          )}
        </>
      )}
    </div>
  );
}
