'use client';

import { BUILTIN_GROUPINGS, groupBySchema, METADATA_PREFIX, type GroupBy } from '@/lib/queries/run-groups';
import { Field } from './field';
import { splitLabel } from './format';

const BUILTIN_LABELS: Record<(typeof BUILTIN_GROUPINGS)[number], string> = { split: 'split', origin: 'origin', answers: 'answer count' };

/** The grouping in the `groupBy` URL parameter; split when absent or malformed. */
export function groupByParam(params: URLSearchParams): GroupBy {
  const parsed = groupBySchema.safeParse(params.get('groupBy'));
  return parsed.success ? parsed.data : 'split';
}

/** A grouping's name as a column heading: "split", "answer count", or the metadata key. */
export function groupingLabel(by: GroupBy): string {
  return by.startsWith(METADATA_PREFIX) ? by.slice(METADATA_PREFIX.length) : BUILTIN_LABELS[by as keyof typeof BUILTIN_LABELS];
}

/** Whether a grouping's rows say more than the "All" row: a set without splits has one "(no split)" group. */
export function groupsWorthShowing(by: GroupBy, groups: readonly { group: string }[]): boolean {
  return !(by === 'split' && groups.every((g) => g.group === splitLabel(null)));
}

/** The "Group by" select: the built-in groupings, then the metadata keys the queries have. */
export function GroupBySelect({ id, value, keys, onChange }: { id: string; value: GroupBy; keys: readonly string[]; onChange: (by: GroupBy) => void }) {
  const options: GroupBy[] = [...BUILTIN_GROUPINGS, ...keys.map((k): GroupBy => `metadata.${k}`)];
  if (!options.includes(value)) options.push(value);
  return (
    <Field id={id} label="Group by" inline>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value as GroupBy)} className="rounded border border-slate-300 px-2 py-1">
        {options.map((o) => <option key={o} value={o}>{o.startsWith(METADATA_PREFIX) ? `metadata: ${groupingLabel(o)}` : groupingLabel(o)}</option>)}
      </select>
    </Field>
  );
}
