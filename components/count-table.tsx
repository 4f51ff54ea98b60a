import type { ReactNode } from 'react';

/** A two-column table of labels and counts, as the knowledge-base and entity pages show them. */
export function CountTable({ rows, testId }: { rows: { key: string; label: ReactNode; count: number }[]; testId?: string }) {
  return (
    <table className="w-full text-sm" data-testid={testId}>
      <tbody>
        {rows.map((r) => (
          <tr key={r.key} className="border-t border-slate-100">
            <td className="py-1">{r.label}</td>
            <td className="py-1 text-right tabular-nums text-slate-600">{r.count.toLocaleString('en')}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
