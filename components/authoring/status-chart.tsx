'use client';

import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { AssignmentCounts } from '@/lib/authoring/stats';
import { ChartFrame } from '../chart-frame';

/** The states an assignment is in now; together they make up every assignment. */
const STATES = [
  { key: 'active', label: 'Working', color: '#2563eb' },
  { key: 'inReview', label: 'Waiting for review', color: '#7c3aed' },
  { key: 'returned', label: 'Returned', color: '#d97706' },
  { key: 'approved', label: 'Approved', color: '#16a34a' },
  { key: 'skipped', label: 'Skipped', color: '#94a3b8' },
  { key: 'expired', label: 'Expired', color: '#dc2626' },
] as const;

/**
 * Assignments waiting for review: what is left of all assignments once the other states are counted
 * (`submitted` counts every hand-in, including work since returned or approved, so it cannot be used).
 */
export const inReview = (c: AssignmentCounts) => Math.max(0, c.assigned - c.active - c.returned - c.approved - c.skipped - c.expired);

/** One stacked bar per annotator: their assignments by state, with the numbers in a table under it. */
export function StatusChart({ annotators }: { annotators: (AssignmentCounts & { annotator: string })[] }) {
  const data = annotators.map((a) => ({ ...a, inReview: inReview(a) }));
  return (
    <ChartFrame label="Assignments per annotator by state" testId="status-chart" className="h-72" table={{
      columns: ['Annotator', ...STATES.map((s) => s.label)],
      rows: data.map((a) => ({ key: a.annotator, cells: [a.annotator, ...STATES.map((s) => a[s.key])] })),
    }}>
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} accessibilityLayer={false} margin={{ top: 8, right: 8, bottom: 8, left: 8 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="annotator" interval={0} fontSize={11} />
          <YAxis allowDecimals={false} fontSize={11} />
          <Tooltip />
          <Legend wrapperStyle={{ fontSize: 11 }} />
          {STATES.map((s) => <Bar key={s.key} dataKey={s.key} name={s.label} stackId="state" fill={s.color} isAnimationActive={false} />)}
        </BarChart>
      </ResponsiveContainer>
    </ChartFrame>
  );
}
