import type { ReactNode } from 'react';
import type { Dimension } from '@/lib/studies/dimensions';
import type { DimensionResult } from '@/lib/studies/results';
import { Panel } from '../panel';
import { fmtCount } from '../queries/format';
import { DistributionChart } from './distribution-chart';
import { fmtShare, fmtStat } from './result-format';

/** One dimension's results: the distribution per source as a chart and as counts, with each source's mean. */
export function DimensionPanel({ result: d, dimension, aside }: { result: DimensionResult; dimension: Dimension | undefined; aside?: ReactNode }) {
  const anchors = dimension && dimension.kind !== 'text' ? dimension.anchors : {};
  const rows = [...d.bySource, { ...d.overall, source: 'all' }];
  return (
    <Panel title={d.label}>
      <div className={aside ? 'grid gap-4 xl:grid-cols-2' : ''}>
        <div className="space-y-2" data-testid={`dimension-${d.key}`}>
          {dimension?.question && <p className="text-sm text-slate-600">{dimension.question}</p>}
          <DistributionChart dimension={d} anchors={anchors} />
          <div className="table-scroll">
            <table className="w-full text-sm">
              <thead className="text-slate-600">
                <tr>
                  <th scope="col" className="py-1 text-left">Source</th><th scope="col" className="text-right">Ratings</th><th scope="col" className="text-right">Mean</th>
                  {d.points.map((p) => <th key={p} scope="col" className="text-right" title={anchors[p]}>{p}</th>)}
                  <th scope="col" className="text-right">{d.kind === 'scale' ? 'Positive' : 'Yes'}</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((s) => (
                  <tr key={s.source} className={`border-t border-slate-100 ${s.source === 'all' ? 'font-semibold' : ''}`}>
                    <th scope="row" className="py-1 text-left font-mono font-normal">{s.source === 'all' ? <strong className="font-sans">All</strong> : s.source}</th>
                    <td className="text-right tabular-nums">{fmtCount(s.n)}</td>
                    <td className="text-right tabular-nums" data-testid={`mean-${s.source}-${d.key}`}>{fmtStat(s.mean)}</td>
                    {d.points.map((p) => <td key={p} className="text-right tabular-nums">{fmtCount(s.distribution[p] ?? 0)}</td>)}
                    <td className="text-right tabular-nums">{fmtShare(s.positive)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
        {aside}
      </div>
    </Panel>
  );
}
