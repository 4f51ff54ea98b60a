import type { DimensionResult } from '@/lib/studies/results';
import { fmtCount } from '../queries/format';
import { fmtShare, fmtStat } from './result-format';

/** How much the raters agree per dimension: Krippendorff's alpha with its bootstrap interval, and the pairwise shares. */
export function AgreementTable({ dimensions }: { dimensions: DimensionResult[] }) {
  return (
    <div className="space-y-2 text-sm">
      <div className="table-scroll">
        <table className="w-full" data-testid="agreement-table">
          <thead className="text-left text-slate-600">
            <tr>
              <th scope="col" className="py-1">Dimension</th>
              <th scope="col" className="text-right">Krippendorff’s α</th><th scope="col" className="pl-3">95% CI</th>
              <th scope="col" className="text-right">Within one point</th><th scope="col" className="text-right">Exact</th>
              <th scope="col" className="text-right">Pairs</th><th scope="col" className="text-right">Items</th>
            </tr>
          </thead>
          <tbody>
            {dimensions.map((d) => {
              const a = d.agreement;
              return (
                <tr key={d.key} className="border-t border-slate-100" data-testid={`agreement-${d.key}`}>
                  <th scope="row" className="py-1 text-left font-normal">{d.label} <span className="text-xs text-slate-500">({d.kind === 'scale' ? 'ordinal' : 'nominal'})</span></th>
                  <td className="text-right tabular-nums" data-testid={`alpha-${d.key}`}>{fmtStat(a.alpha, 3)}</td>
                  <td className="pl-3 tabular-nums">{a.ci ? `${fmtStat(a.ci[0], 3)} to ${fmtStat(a.ci[1], 3)}` : '—'}</td>
                  <td className="text-right tabular-nums" data-testid={`within-one-${d.key}`}>{fmtShare(a.withinOne)}</td>
                  <td className="text-right tabular-nums" data-testid={`exact-${d.key}`}>{fmtShare(a.exact)}</td>
                  <td className="text-right tabular-nums" data-testid={`pairs-${d.key}`}>{fmtCount(a.pairs)}</td>
                  <td className="text-right tabular-nums">{fmtCount(a.units)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <p className="text-xs text-slate-500">
        Alpha is 1 when raters always agree and 0 when they agree no better than chance; it is ordinal for scales (near answers
        disagree less) and nominal for yes / no. The interval resamples items 1,000 times. Pairs are two ratings of the same item;
        items count those rated twice or more.
      </p>
    </div>
  );
}
