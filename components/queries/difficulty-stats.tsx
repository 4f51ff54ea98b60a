'use client';

import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { BaselineDifficulty, SolvedShare } from '@/lib/queries/difficulty-stats';
import { fmtCount, fmtPercent, splitLabel } from './format';
import { When } from '@/components/when';

type Group = SolvedShare & { key: string; label: string };

/** The rows of one baseline: all queries, then each split (when the set has splits), then each origin. */
function groups(b: BaselineDifficulty): Group[] {
  const splits = b.bySplit.some((s) => s.split !== null) ? b.bySplit : [];
  return [
    { key: 'all', label: 'All', ...b.overall },
    ...splits.map((s) => ({ key: `split:${s.split}`, label: `split ${splitLabel(s.split)}`, ...s })),
    ...b.byOrigin.map((o) => ({ key: `origin:${o.origin}`, label: o.origin, ...o })),
  ];
}

/**
 * How hard the set is for each baseline: the share of queries its latest run solves at Hit@1 and Hit@5, for
 * all queries, per split and per origin; a bar chart and the same numbers in a table.
 */
export function DifficultyStats({ baselines }: { baselines: BaselineDifficulty[] }) {
  if (!baselines.length) {
    return <p className="text-slate-500" data-testid="difficulty-stats-empty">No baseline has been run on these queries yet; run one on the Runs tab to see how many it solves.</p>;
  }
  return (
    <div className="space-y-6">
      {baselines.map((b) => {
        const rows = groups(b);
        const testId = `difficulty-${b.run.id}`;
        return (
          <figure key={b.run.id} className="space-y-2">
            <figcaption className="text-slate-600">{b.run.name} <span className="text-xs text-slate-500">(run of <When at={b.run.createdAt} />)</span></figcaption>
            <div className="h-64 w-full" role="img" aria-label={`${b.run.name}: share of queries solved at Hit@1 and Hit@5, by split and origin`}
              aria-describedby={`${testId}-table`} data-testid={`${testId}-chart`}>
              <ResponsiveContainer width="100%" height="100%">
                <BarChart data={rows.map((r) => ({ label: r.label, hit1: 100 * r.hit1, hit5: 100 * r.hit5 }))} accessibilityLayer={false} margin={{ top: 8, right: 8, bottom: 8, left: 8 }}>
                  <CartesianGrid strokeDasharray="3 3" vertical={false} />
                  <XAxis dataKey="label" interval={0} fontSize={11} />
                  <YAxis fontSize={11} unit="%" domain={[0, 100]} />
                  <Tooltip formatter={(v) => `${Number(v).toFixed(1)}%`} />
                  <Legend wrapperStyle={{ fontSize: 11 }} />
                  <Bar dataKey="hit1" name="solved at Hit@1" fill="#2563eb" isAnimationActive={false} />
                  <Bar dataKey="hit5" name="solved at Hit@5" fill="#93c5fd" isAnimationActive={false} />
                </BarChart>
              </ResponsiveContainer>
            </div>
            <table id={`${testId}-table`} className="w-full" data-testid={`${testId}-table`}>
              <thead className="text-left text-slate-600">
                <tr>
                  <th scope="col" className="py-1">Queries</th>
                  <th scope="col" className="py-1 text-right">Scored</th>
                  <th scope="col" className="py-1 text-right">Hit@1</th>
                  <th scope="col" className="py-1 text-right">Hit@5</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((r) => (
                  <tr key={r.key} className={`border-t border-slate-100 ${r.key === 'all' ? 'font-medium' : ''}`}>
                    <th scope="row" className="py-1 text-left font-normal">{r.label}</th>
                    <td className="py-1 text-right tabular-nums">{fmtCount(r.queries)}</td>
                    <td className="py-1 text-right tabular-nums">{fmtPercent(r.hit1)}</td>
                    <td className="py-1 text-right tabular-nums">{fmtPercent(r.hit5)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </figure>
        );
      })}
    </div>
  );
}
