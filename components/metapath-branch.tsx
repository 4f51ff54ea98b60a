'use client';

import Link from 'next/link';
import { plural } from '@/lib/format/plural';
import { useQuery } from '@tanstack/react-query';
import { fetchJson } from '@/lib/client/fetch-json';
import type { EntityDetail } from '@/lib/kb/entity';
import type { MetapathSchema, MetapathStart, MetapathStep } from '@/lib/kb/metapath';
import { countLabel, type StepCount } from '@/lib/kb/metapath-count';
import { movesFrom, MAX_STEPS } from '@/lib/kb/metapath-moves';
import { EntityPicker } from './entity-picker';

export interface BranchState {
  start: MetapathStart | null;
  steps: MetapathStep[];
}

const stepKey = (s: MetapathStep) => `${s.direction}~${s.relation}~${s.targetType}`;

/** How a move reads: `target → gene/protein` forwards, `← target · gene/protein` backwards. */
export function moveLabel(s: MetapathStep): string {
  return s.direction === 'out' ? `${s.relation} → ${s.targetType}` : `← ${s.relation} · ${s.targetType}`;
}

/** The entity type a branch's start has (an entity start's type comes from its page in the API). */
export function useStartType(kbSlug: string, start: MetapathStart | null): { type: string | null; name: string | null } {
  const entityId = start && 'entity' in start ? start.entity : null;
  const { data } = useQuery({
    queryKey: ['metapath-start', kbSlug, entityId],
    queryFn: () => fetchJson<EntityDetail>(`/api/kbs/${encodeURIComponent(kbSlug)}/entities/${entityId}`),
    enabled: entityId !== null,
  });
  if (!start) return { type: null, name: null };
  if ('type' in start) return { type: start.type, name: null };
  return { type: data?.type ?? null, name: data?.name ?? null };
}

/** The type a branch ends at: its start's type, then each step's target type. */
export function finalType(startType: string | null, steps: MetapathStep[]): string | null {
  return steps.length > 0 ? steps[steps.length - 1]!.targetType : startType;
}

interface BranchEditorProps {
  kbSlug: string;
  schema: MetapathSchema;
  label: string;
  branch: BranchState;
  onChange: (branch: BranchState) => void;
  /** Start size and distinct entities reached after each step, once evaluated. */
  counts?: { start: number; steps: StepCount[] };
  /** A second branch must end where the first does; only moves that can still get there are offered last. */
  mustEndAt?: string | null;
  testId: string;
}

/** One branch of a metapath: pick a start (an entity or a whole type), then add moves the schema offers. */
export function MetapathBranch({ kbSlug, schema, label, branch, onChange, counts, mustEndAt, testId }: BranchEditorProps) {
  const start = useStartType(kbSlug, branch.start);
  const current = finalType(start.type, branch.steps);
  const moves = current ? movesFrom(schema.triples, current) : [];
  const mismatch = mustEndAt && branch.steps.length > 0 && current !== mustEndAt;

  return (
    <div className="space-y-3 rounded-lg border border-slate-200 bg-white p-4" data-testid={testId}>
      <h2 className="font-medium">{label}</h2>
      {branch.start === null ? (
        <div className="grid gap-3 sm:grid-cols-2">
          <EntityPicker kbSlug={kbSlug} label="Start from an entity" testId={`${testId}-picker`}
            onSelect={(e) => onChange({ start: { entity: e.id }, steps: [] })} />
          <label className="block text-sm">
            <span className="mb-1 block font-medium text-slate-700">… or from every entity of a type</span>
            <select className="w-full rounded border border-slate-300 px-2 py-1.5 text-sm" value=""
              onChange={(e) => e.target.value && onChange({ start: { type: e.target.value }, steps: [] })}>
              <option value="">Choose a type</option>
              {schema.types.map((t) => <option key={t.name} value={t.name}>{t.name} ({t.entityCount.toLocaleString('en')})</option>)}
            </select>
          </label>
        </div>
      ) : (
        <ol className="flex flex-wrap items-center gap-2 text-sm" aria-label={`${label} steps`}>
          <li className="rounded border border-slate-300 bg-slate-50 px-2 py-1" data-testid={`${testId}-start`}>
            {'entity' in branch.start
              ? <Link className="font-medium text-blue-700 hover:underline" href={`/kb/${kbSlug}/entities/${branch.start.entity}`}>{start.name ?? `#${branch.start.entity}`}</Link>
              : <span className="font-medium">every {branch.start.type}</span>}
            {start.type && 'entity' in branch.start && <span className="text-xs text-slate-500"> · {start.type}</span>}
            {counts && <span className="ml-1 text-xs text-slate-500">({counts.start.toLocaleString('en')})</span>}
          </li>
          {branch.steps.map((s, i) => (
            <li key={`${i}-${stepKey(s)}`} className="flex items-center gap-2" data-testid={`${testId}-step`}>
              <span className="text-slate-500">{s.direction === 'out' ? `—${s.relation}→` : `←${s.relation}—`}</span>
              <span className="rounded border border-slate-300 bg-slate-50 px-2 py-1">
                {s.targetType}
                <span className="ml-1 text-xs text-slate-500" data-testid={`${testId}-reached`}>
                  {counts?.steps[i] ? `${countLabel(counts.steps[i].reached, counts.steps[i].atLeast)} reached` : '…'}
                </span>
              </span>
            </li>
          ))}
        </ol>
      )}
      {branch.start !== null && (
        <div className="flex flex-wrap items-center gap-2 text-sm">
          {branch.steps.length < MAX_STEPS && moves.length > 0 && (
            <select aria-label={`${label}: add a step`} className="rounded border border-slate-300 px-2 py-1.5" value=""
              onChange={(e) => {
                const move = moves.find((m) => stepKey(m) === e.target.value);
                if (move) onChange({ ...branch, steps: [...branch.steps, { relation: move.relation, direction: move.direction, targetType: move.targetType }] });
              }}>
              <option value="">Add a step from {current}…</option>
              {moves.map((m) => <option key={stepKey(m)} value={stepKey(m)}>{moveLabel(m)} ({plural(m.edgeCount, 'edge')})</option>)}
            </select>
          )}
          {branch.steps.length > 0 && (
            <button type="button" className="rounded border border-slate-300 px-2 py-1.5 hover:bg-slate-50"
              onClick={() => onChange({ ...branch, steps: branch.steps.slice(0, -1) })}>Remove last step</button>
          )}
          <button type="button" className="rounded border border-slate-300 px-2 py-1.5 hover:bg-slate-50"
            onClick={() => onChange({ start: null, steps: [] })}>Change start</button>
        </div>
      )}
      {mismatch && (
        <p role="alert" className="text-sm text-amber-700">This branch ends at {current}; it must end at {mustEndAt} to meet the first branch.</p>
      )}
    </div>
  );
}
