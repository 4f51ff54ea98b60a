'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import type { ReactNode } from 'react';
import type { SynthesisStage } from '@/lib/synthesis/types';
import { requestJson, setPage } from '../queries/api';
import { fmtCount } from '../queries/format';
import { jobApi, type JobStatus, type JobView } from './api';
import { When } from '@/components/when';

const STAGES: SynthesisStage[] = ['relational', 'properties', 'compose', 'leak', 'filter'];

export const STATUS_LABEL: Record<JobStatus, string> = { RUNNING: 'running', SUCCEEDED: 'finished', FAILED: 'failed', CANCELLED: 'cancelled' };

/** One synthesis job, polled every second while it runs: kept of asked, attempts, outcomes per stage; cancel, resume. */
export function JobProgress({ slug, id, onChanged }: { slug: string; id: number; onChanged: () => void }) {
  const queryClient = useQueryClient();
  const key = ['synthesis-job', slug, id];
  const { data: job, error } = useQuery({
    queryKey: key,
    queryFn: () => requestJson<JobView>(jobApi(slug, id)),
    refetchInterval: (q) => (q.state.data?.status === 'RUNNING' ? 1000 : false),
  });
  const after = () => {
    onChanged();
    return queryClient.invalidateQueries({ queryKey: key });
  };
  const cancel = useMutation({ mutationFn: () => requestJson(jobApi(slug, id), { method: 'DELETE' }), onSuccess: after });
  const resume = useMutation({ mutationFn: () => requestJson(`${jobApi(slug, id)}/resume`, { method: 'POST' }), onSuccess: after });
  const failure = error ?? cancel.error ?? resume.error;
  if (!job) return failure ? <p role="alert" className="text-red-700">{failure.message}</p> : <p className="text-slate-500">Loading job #{id}…</p>;

  const percent = job.total > 0 ? Math.min(100, Math.round((100 * job.done) / job.total)) : 0;
  const s = job.summary;
  const running = job.status === 'RUNNING';
  return (
    <section aria-labelledby="job-heading" className="space-y-3 rounded-lg border border-slate-200 bg-white p-4 text-sm" data-testid="job-progress">
      <div className="flex flex-wrap items-center gap-2">
        <h2 id="job-heading" className="text-lg font-medium">Job #{job.id} · {job.querySet}</h2>
        <span className="rounded bg-slate-100 px-2 py-0.5 text-xs" data-testid="job-status">{STATUS_LABEL[job.status]}</span>
        <span className="ml-auto flex gap-2">
          {running && (
            <button type="button" onClick={() => cancel.mutate()} disabled={cancel.isPending}
              className="rounded border border-red-300 px-3 py-1 text-red-700 hover:bg-red-50 disabled:opacity-60">Cancel</button>
          )}
          {(job.status === 'CANCELLED' || job.status === 'FAILED') && (
            <button type="button" onClick={() => resume.mutate()} disabled={resume.isPending}
              className="rounded border border-blue-600 px-3 py-1 text-blue-700 hover:bg-blue-50 disabled:opacity-60">Resume</button>
          )}
        </span>
      </div>
      {failure && <p role="alert" className="rounded bg-red-50 px-3 py-2 text-red-700">{failure.message}</p>}
      <div role="progressbar" aria-label="Queries kept" aria-valuemin={0} aria-valuemax={job.total} aria-valuenow={job.done}
        aria-valuetext={`${job.done} of ${job.total}`} className="h-3 overflow-hidden rounded bg-slate-100">
        <div className="h-full bg-blue-600 transition-[width]" style={{ width: `${percent}%` }} />
      </div>
      <p data-testid="job-done">{fmtCount(job.done)} of {fmtCount(job.total)} queries kept, {fmtCount(job.attempted)} attempted</p>
      <dl className="grid grid-cols-2 gap-2 sm:grid-cols-4">
        <Stat label="Kept">{fmtCount(s.kept)}</Stat>
        <Stat label="LLM calls">{fmtCount(s.llmCalls)}{s.llmFailures > 0 && ` (${fmtCount(s.llmFailures)} failed)`}</Stat>
        <Stat label="Tokens">{fmtCount(s.tokens)}</Stat>
        <Stat label="Models">{job.llm ? job.llm.models.join(', ') : 'none (deterministic)'}</Stat>
      </dl>
      <table className="w-full max-w-md" data-testid="job-stages">
        <caption className="text-left text-slate-600">Attempts dropped and failed, by stage</caption>
        <thead className="text-left text-slate-600">
          <tr><th scope="col" className="py-1">Stage</th><th scope="col" className="text-right">Dropped</th><th scope="col" className="text-right">Failed</th></tr>
        </thead>
        <tbody>
          {STAGES.map((stage) => (
            <tr key={stage} className="border-t border-slate-100">
              <th scope="row" className="py-1 text-left font-normal">{stage}</th>
              <td className="text-right tabular-nums">{fmtCount(s.dropped[stage] ?? 0)}</td>
              <td className="text-right tabular-nums">{fmtCount(s.failed[stage] ?? 0)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {job.message && <p className="text-slate-700" data-testid="job-message">{job.message}</p>}
      <p className="text-xs text-slate-500">Started <When at={job.createdAt} />{job.finishedAt && <>, ended <When at={job.finishedAt} /></>}</p>
      {!running && job.done > 0 && (
        <Link href={setPage(slug, job.querySet)} className="inline-block rounded bg-blue-600 px-3 py-1.5 font-medium text-white hover:bg-blue-700">
          Open the query set {job.querySet}
        </Link>
      )}
    </section>
  );
}

function Stat({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-slate-500">{label}</dt>
      <dd className="break-words tabular-nums">{children}</dd>
    </div>
  );
}
