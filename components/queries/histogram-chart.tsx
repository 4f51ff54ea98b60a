'use client';

import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

/**
 * A bar chart of counts per bin. The container is an image with an accessible name; the numbers are also in
 * the tables beside it.
 */
export function HistogramChart({ bins, label, axisLabel, testId }: { bins: { label: string; count: number }[]; label: string; axisLabel: string; testId: string }) {
  return (
    <div className="h-64 w-full" role="img" aria-label={label} data-testid={testId}>
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={bins} margin={{ top: 8, right: 8, bottom: 24, left: 8 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="label" interval={0} fontSize={11} angle={-30} textAnchor="end"
            label={{ value: axisLabel, position: 'insideBottom', offset: -18, fontSize: 11 }} />
          <YAxis allowDecimals={false} fontSize={11} tickFormatter={(v: number) => v.toLocaleString('en')} />
          <Tooltip formatter={(v) => [Number(v).toLocaleString('en'), 'queries']} />
          <Bar dataKey="count" fill="#2563eb" isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
