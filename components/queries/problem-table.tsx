import type { LineProblem } from './api';

/** The problems the server found in uploaded files, each with its file and 1-based line (0: the file as a whole). */
export function ProblemTable({ problems, caption, testId = 'problem-table' }: { problems: LineProblem[]; caption: string; testId?: string }) {
  return (
    <div className="max-h-96 overflow-y-auto rounded-lg border border-red-200 bg-white p-3 text-sm">
      <table className="w-full" data-testid={testId}>
        <caption className="mb-2 text-left font-medium text-red-800">{caption}</caption>
        <thead className="text-left text-slate-600">
          <tr><th scope="col" className="py-1">File</th><th scope="col">Line</th><th scope="col">Reason</th></tr>
        </thead>
        <tbody>
          {problems.map((p, i) => (
            <tr key={i} className="border-t border-slate-100 align-top">
              <td className="py-1 pr-3 font-mono">{p.file}</td>
              <td className="pr-3 tabular-nums">{p.line || '—'}</td>
              <td className="break-all">{p.reason}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
