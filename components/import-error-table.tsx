import type { ImportError } from '@/lib/ingest/import-jobs-view';

/** The first bad rows of an import, and the full report as a download. */
export function ImportErrorTable({ jobId, errors, errorCount }: { jobId: number; errors: ImportError[]; errorCount: number }) {
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-4 text-sm">
      <div className="mb-2 flex items-baseline justify-between">
        <h2 className="font-medium">
          Bad rows {errorCount > errors.length && <span className="font-normal text-slate-500">(the first {errors.length} of {errorCount.toLocaleString('en')})</span>}
        </h2>
        <a href={`/api/imports/${jobId}/errors`} download className="text-blue-700 hover:underline">Download error report</a>
      </div>
      <table className="w-full" data-testid="import-error-table">
        <thead className="text-left text-slate-600">
          <tr><th className="py-1">File</th><th>Line</th><th>Reason</th></tr>
        </thead>
        <tbody>
          {errors.map((e, i) => (
            <tr key={i} className="border-t border-slate-100 align-top">
              <td className="py-1 pr-3 font-mono">{e.file}</td>
              <td className="pr-3 tabular-nums">{e.line}</td>
              <td className="break-all">{e.reason}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
