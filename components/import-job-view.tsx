'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import type { ReactNode } from 'react';
import type { ImportJobDetail } from '@/lib/ingest/import-jobs-view';
import type { ImportPhase } from '@/lib/ingest/jobs';
import { fetchJson } from '@/lib/client/fetch-json';
import { ImportErrorTable } from './import-error-table';
import { ImportStatusBadge } from './import-status-badge';
import { plural } from '@/lib/format/plural';
import { When } from '@/components/when';

const PHASES: Record<ImportPhase, string> = {
  starting: 'Starting',
  entities: 'Loading entities',
  edges: 'Loading edges',
  indexes: 'Building indexes',
  statistics: 'Computing statistics',
  publishing: 'Publishing',
  'search-index': 'Building the search index',
  done: 'Done',
};

const fmt = (n: number) => n.toLocaleString('en');

/** The phase a running job is in, or the one a failed or cancelled job stopped in ("starting" with rows read was reading them). */
function phaseText(job: ImportJobDetail): string {
  const phase = job.phase === 'starting' && job.rowsRead > 0 ? 'reading the files' : (PHASES[job.phase] ?? job.phase).toLowerCase();
  if (job.status === 'FAILED') return job.phase === 'starting' && job.rowsRead === 0 ? 'Failed before reading a row' : `Failed while ${phase}`;
  if (job.status === 'CANCELLED') return `Cancelled while ${phase}`;
  return PHASES[job.phase] ?? job.phase;
}

/** One import job, polled every second while it runs; all of it comes from the job's row. */
export function ImportJobView({ initial }: { initial: ImportJobDetail }) {
  const key = ['import-job', initial.id];
  const queryClient = useQueryClient();
  const { data: job, error } = useQuery({
    queryKey: key,
    queryFn: () => fetchJson<ImportJobDetail>(`/api/imports/${initial.id}`),
    initialData: initial,
    refetchInterval: (q) => (q.state.data?.status === 'RUNNING' ? 1000 : false),
  });
  const cancel = useMutation({
    mutationFn: () => fetchJson(`/api/imports/${job.id}/cancel`, { method: 'POST' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: key }),
  });
  const running = job.status === 'RUNNING';
  const seconds = (Date.parse(job.updatedAt) - Date.parse(job.startedAt)) / 1000;
  const percent = job.bytesTotal > 0 ? Math.min(100, Math.round((100 * job.bytesDone) / job.bytesTotal)) : 0;
  // Bytes are counted once the files are open: before that, or for a job that stopped before, there is no progress to show.
  const showProgress = job.bytesTotal > 0;

  function onCancel() {
    if (window.confirm('Cancel this import? Nothing it has loaded will be kept.')) cancel.mutate();
  }

  return (
    <div className="space-y-4">
      {(error ?? cancel.error) && <p role="alert" className="rounded bg-red-50 px-3 py-2 text-sm text-red-700">{(error ?? cancel.error)!.message}</p>}
      <div className="rounded-lg border border-slate-200 bg-white p-4 text-sm">
        <div className="mb-3 flex items-center gap-3">
          <ImportStatusBadge status={job.status} testId="import-status" />
          <span data-testid="import-phase" className="text-slate-600">{phaseText(job)}</span>
          {running && job.message && <span data-testid="import-step" className="text-xs text-slate-500">{job.message}</span>}
          {running && (
            <button type="button" onClick={onCancel} disabled={cancel.isPending || cancel.isSuccess}
              className="ml-auto rounded border border-red-300 px-3 py-1 text-red-700 hover:bg-red-50 disabled:opacity-60">
              {cancel.isSuccess ? 'Cancelling…' : 'Cancel import'}
            </button>
          )}
        </div>
        {showProgress && (
          <>
            <div role="progressbar" aria-label="Input read" aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent} data-testid="import-progress"
              className="h-3 overflow-hidden rounded bg-slate-100">
              <div className="h-full bg-blue-600 transition-[width]" style={{ width: `${percent}%` }} />
            </div>
            <p className="mt-1 text-xs text-slate-500">{percent}% of {plural(job.bytesTotal, 'byte')} read</p>
          </>
        )}
        <dl className="mt-3 grid grid-cols-2 gap-3 sm:grid-cols-5">
          <Stat label="Rows read" testId="import-rows">{fmt(job.rowsRead)}</Stat>
          <Stat label="Rows / s">{seconds > 0 ? fmt(Math.round(job.rowsRead / seconds)) : '—'}</Stat>
          <Stat label="Entities">{fmt(job.entities)}</Stat>
          <Stat label="Edges">{fmt(job.edges)}</Stat>
          <Stat label="Errors" testId="import-errors">{fmt(job.errorCount)}</Stat>
        </dl>
        <p className="mt-3 text-xs text-slate-500">
          {job.format}: {job.files.join(', ')} · started <When at={job.startedAt} />{job.createdBy && ` by ${job.createdBy}`}
        </p>
      </div>
      {job.status === 'SUCCEEDED' && job.summary && <Summary summary={job.summary} slug={job.kbSlug ?? job.slug} />}
      {job.message && (job.status === 'FAILED' || job.status === 'CANCELLED') && (
        <div className="rounded-lg border border-red-200 bg-red-50 p-4 text-sm text-red-800">
          <p data-testid="import-message" className="font-medium">{job.message}</p>
          <p className="mt-1">Nothing was imported{job.kbSlug ? '; the knowledge base is as it was' : ''}.</p>
        </div>
      )}
      {job.errors.length > 0 && <ImportErrorTable jobId={job.id} errors={job.errors} errorCount={job.errorCount} />}
    </div>
  );
}

function Stat({ label, testId, children }: { label: string; testId?: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-xs text-slate-500">{label}</dt>
      <dd data-testid={testId} className="text-lg tabular-nums">{children}</dd>
    </div>
  );
}

function Summary({ summary, slug }: { summary: NonNullable<ImportJobDetail['summary']>; slug: string }) {
  return (
    <div className="rounded-lg border border-green-200 bg-white p-4 text-sm" data-testid="import-summary">
      <div className="flex items-baseline justify-between">
        <p>
          Imported <strong data-testid="summary-entities">{plural(summary.entities, 'entity')}</strong> and{' '}
          <strong data-testid="summary-edges">{plural(summary.edges, 'edge')}</strong> in {summary.seconds.toFixed(1)} s
          {summary.duplicateEdges > 0 && ` (${plural(summary.duplicateEdges, 'repeated edge')} merged)`}.
        </p>
        <Link href={`/kb/${slug}`} className="rounded bg-blue-600 px-3 py-1.5 font-medium text-white hover:bg-blue-700">Open knowledge base</Link>
      </div>
      <div className="mt-3 grid gap-4 md:grid-cols-2">
        <Counts title="Entity types" counts={summary.entityTypes} />
        <Counts title="Relations" counts={summary.relations} />
      </div>
    </div>
  );
}

function Counts({ title, counts }: { title: string; counts: Record<string, number> }) {
  return (
    <table className="w-full">
      <thead><tr><th className="py-1 text-left font-medium" colSpan={2}>{title}</th></tr></thead>
      <tbody>
        {Object.entries(counts).map(([name, n]) => (
          <tr key={name} className="border-t border-slate-100">
            <td className="py-1">{name}</td>
            <td className="py-1 text-right tabular-nums text-slate-600">{fmt(n)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
