'use client';

import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { DimensionResult } from '@/lib/studies/results';
import { ChartFrame } from '../chart-frame';
import { fmtStat, sourceColour } from './result-format';

/**
 * One dimension's ratings per point, a bar per source side by side, in percent of that source's ratings so
 * sources of different sizes compare; the legend gives each source's mean. The percentages are in a table under
 * it, the counts in the table beside it.
 */
export function DistributionChart({ dimension: d, anchors }: { dimension: Pick<DimensionResult, 'key' | 'label' | 'points' | 'bySource'>; anchors: Record<string, string> }) {
  const share = (s: DimensionResult['bySource'][number], p: number) => (s.n ? (100 * (s.distribution[p] ?? 0)) / s.n : 0);
  const pointLabel = (p: number) => (anchors[p] ? `${p} ${anchors[p]}` : String(p));
  const data = d.points.map((p) => ({ point: pointLabel(p), ...Object.fromEntries(d.bySource.map((s) => [s.source, share(s, p)])) }));
  return (
    <ChartFrame label={`${d.label}: share of ratings per point, by source`} testId={`distribution-${d.key}`} className="h-72" table={{
      columns: ['Point', ...d.bySource.map((s) => `${s.source} (%)`)],
      rows: d.points.map((p) => ({ key: String(p), cells: [pointLabel(p), ...d.bySource.map((s) => share(s, p).toFixed(1))] })),
    }}>
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} accessibilityLayer={false} margin={{ top: 8, right: 8, bottom: 8, left: 8 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="point" interval={0} fontSize={11} />
          <YAxis fontSize={11} unit="%" domain={[0, 100]} />
          <Tooltip formatter={(v) => `${Number(v).toFixed(1)}%`} />
          <Legend wrapperStyle={{ fontSize: 11 }} />
          {d.bySource.map((s, i) => (
            <Bar key={s.source} dataKey={s.source} name={`${s.source} (mean ${fmtStat(s.mean)})`} fill={sourceColour(i)} isAnimationActive={false} />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </ChartFrame>
  );
}
