'use client';

import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { ChartFrame } from './chart-frame';

interface Bucket {
  min: number;
  max: number;
  count: number;
}

const label = (b: Bucket) => (b.min === b.max ? String(b.min) : `${b.min.toLocaleString('en')}–${b.max.toLocaleString('en')}`);

/** How many entities have how many edges, in power-of-two ranges so leaves and hubs share one chart. */
export function DegreeChart({ buckets }: { buckets: Bucket[] }) {
  const data = buckets.map((b) => ({ range: label(b), entities: b.count }));
  return (
    <ChartFrame label="Degree distribution: entities per range of edges" testId="degree-chart"
      table={{ columns: ['Edges', 'Entities'], rows: data.map((d) => ({ key: d.range, cells: [d.range, d.entities] })) }}>
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} accessibilityLayer={false} margin={{ top: 8, right: 8, bottom: 24, left: 8 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="range" angle={-30} textAnchor="end" interval={0} fontSize={11} label={{ value: 'edges per entity', position: 'insideBottom', offset: -18, fontSize: 11 }} />
          {/* The log axis starts below 1 so a range holding a single entity still gets a visible bar. */}
          <YAxis scale="log" domain={[0.5, 'auto']} allowDataOverflow fontSize={11} tickFormatter={(v: number) => (v < 1 ? '' : v.toLocaleString('en'))} />
          <Tooltip formatter={(v) => [Number(v).toLocaleString('en'), 'entities']} />
          <Bar dataKey="entities" fill="#2563eb" isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </ChartFrame>
  );
}
