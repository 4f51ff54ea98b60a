import type { DimensionResult } from '@/lib/studies/results';
import { fmtShare } from './result-format';

/**
 * The layout of STaRK's human evaluation table (its Table 5): a row per source and one for all, and per
 * scale the share of positive and of non-negative ratings; a yes / no dimension gives its share of “yes”.
 */
export function RatesTable({ dimensions }: { dimensions: DimensionResult[] }) {
  const sources = dimensions[0]?.bySource.map((s) => s.source) ?? [];
  const summaryOf = (d: DimensionResult, source: string) => (source === 'all' ? d.overall : d.bySource.find((s) => s.source === source)!);
  return (
    <div className="table-scroll">
      <table className="w-full text-sm" data-testid="rates-table">
        <caption className="mb-2 text-left text-xs text-slate-500">
          Positive: above the scale’s midpoint (4–5 of 1–5); non-negative: at or above it (3–5 of 1–5). In percent of the ratings.
        </caption>
        <thead className="text-slate-600">
          <tr>
            <th scope="col" rowSpan={2} className="py-1 pr-3 text-left align-bottom">Source</th>
            {dimensions.map((d) => (d.kind === 'scale'
              ? <th key={d.key} scope="colgroup" colSpan={2} className="border-b border-slate-200 px-2 text-center">{d.label}</th>
              : <th key={d.key} scope="col" rowSpan={2} className="px-2 text-right align-bottom">{d.label} (yes)</th>))}
          </tr>
          <tr>
            {dimensions.filter((d) => d.kind === 'scale').flatMap((d) => [
              <th key={`${d.key}-p`} scope="col" className="px-2 text-right font-normal">Positive</th>,
              <th key={`${d.key}-n`} scope="col" className="px-2 text-right font-normal">Non-negative</th>,
            ])}
          </tr>
        </thead>
        <tbody>
          {[...sources, 'all'].map((source) => (
            <tr key={source} className={`border-t border-slate-100 ${source === 'all' ? 'font-semibold' : ''}`} data-testid={`rates-row-${source}`}>
              <th scope="row" className="py-1 pr-3 text-left font-mono font-normal">{source === 'all' ? <strong className="font-sans">All</strong> : source}</th>
              {dimensions.flatMap((d) => {
                const s = summaryOf(d, source);
                const cell = (which: 'positive' | 'nonNegative') => (
                  <td key={`${d.key}-${which}`} className="px-2 text-right tabular-nums" data-testid={`rate-${source}-${d.key}-${which}`}>{fmtShare(s[which])}</td>
                );
                return d.kind === 'scale' ? [cell('positive'), cell('nonNegative')] : [cell('positive')];
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
