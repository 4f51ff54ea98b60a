import type { ReactNode } from 'react';

export interface ChartTable {
  /** Column headings; the first column names each row (a bin, an annotator, a scale point). */
  columns: string[];
  rows: { key: string; cells: (string | number)[] }[];
}

const cell = (v: string | number) => (typeof v === 'number' ? v.toLocaleString('en') : v);

/**
 * A chart and its text equivalent: the drawing is one image named by `label` (screen readers skip the SVG's ticks
 * and bars), and the numbers it draws are in a table under a disclosure, for anyone who cannot read the drawing.
 */
export function ChartFrame({ label, table, testId, className = 'h-64', children }: {
  label: string; table: ChartTable; testId?: string; className?: string; children: ReactNode;
}) {
  return (
    <div data-testid={testId}>
      <div className={`${className} w-full`} role="img" aria-label={label}>{children}</div>
      <details className="mt-1 text-xs text-slate-700" data-testid={testId && `${testId}-data`}>
        <summary className="cursor-pointer select-none">Data table</summary>
        <div className="table-scroll">
          <table className="mt-1 w-full">
            <caption className="sr-only">{label}</caption>
            <thead>
              <tr>{table.columns.map((c, i) => <th key={c} scope="col" className={`py-0.5 ${i ? 'text-right' : 'text-left'}`}>{c}</th>)}</tr>
            </thead>
            <tbody>
              {table.rows.map((r) => (
                <tr key={r.key} className="border-t border-slate-100">
                  {r.cells.map((v, i) => (i
                    ? <td key={i} className="py-0.5 text-right tabular-nums">{cell(v)}</td>
                    : <th key={i} scope="row" className="py-0.5 text-left font-normal">{cell(v)}</th>))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </div>
  );
}
