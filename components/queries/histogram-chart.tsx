'use client';

import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { ChartFrame } from '../chart-frame';

/**
 * A bar chart of counts per bin, with its numbers in a table under it.
 */
export function HistogramChart({ bins, label, axisLabel, testId }: { bins: { label: string; count: number }[]; label: string; axisLabel: string; testId: string }) {
  return (
    <ChartFrame label={label} testId={testId}
      table={{ columns: [axisLabel, 'Queries'], rows: bins.map((b) => ({ key: b.label, cells: [b.label, b.count] })) }}>
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={bins} accessibilityLayer={false} margin={{ top: 8, right: 8, bottom: 24, left: 8 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="label" interval={0} fontSize={11} angle={-30} textAnchor="end"
            label={{ value: axisLabel, position: 'insideBottom', offset: -18, fontSize: 11 }} />
          <YAxis allowDecimals={false} fontSize={11} tickFormatter={(v: number) => v.toLocaleString('en')} />
          <Tooltip formatter={(v) => [Number(v).toLocaleString('en'), 'queries']} />
          <Bar dataKey="count" fill="#2563eb" isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </ChartFrame>
  );
}
