'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { requestJson, setPage } from '../queries/api';
import { fmtCount } from '../queries/format';
import { synthesisApi, type JobView } from './api';
import { STATUS_LABEL } from './job-progress';
import { When } from '@/components/when';

export const jobsKey = (slug: string) => ['synthesis-jobs', slug];

/** The knowledge base's synthesis jobs, newest first; one can be shown in full (its progress, cancel, resume). */
export function JobList({ slug, shown, onShow }: { slug: string; shown: number | null; onShow: (id: number) => void }) {
  const jobs = useQuery({
    queryKey: jobsKey(slug),
    queryFn: () => requestJson<{ items: JobView[] }>(`${synthesisApi(slug)}/jobs`),
    refetchInterval: (q) => (q.state.data?.items.some((j) => j.status === 'RUNNING') ? 2000 : false),
  });
  const items = jobs.data?.items ?? [];
  return (
    <section aria-labelledby="jobs-heading" className="space-y-2 text-sm">
      <h2 id="jobs-heading" className="text-lg font-medium">Jobs on this knowledge base</h2>
      {jobs.error && <p role="alert" className="text-red-700">Could not load the jobs: {jobs.error.message}</p>}
      {jobs.data && items.length === 0 && <p className="text-slate-500">No synthesis job yet.</p>}
      {items.length > 0 && (
        <ul className="divide-y divide-slate-100 rounded border border-slate-200" data-testid="job-list">
          {items.map((j) => (
            <li key={j.id} className="flex flex-wrap items-baseline gap-x-3 gap-y-1 px-2 py-1.5">
              <span className="font-medium">#{j.id}</span>
              <Link href={setPage(slug, j.querySet)} className="text-blue-700 hover:underline">{j.querySet}</Link>
              <span>{STATUS_LABEL[j.status]}</span>
              <span className="tabular-nums text-slate-600">{fmtCount(j.done)} of {fmtCount(j.total)} kept</span>
              <span className="text-xs text-slate-500"><When at={j.createdAt} /></span>
              <button type="button" onClick={() => onShow(j.id)} disabled={shown === j.id} aria-label={`Show job ${j.id}`}
                className="ml-auto text-blue-700 hover:underline disabled:text-slate-400 disabled:no-underline">
                {shown === j.id ? 'Shown' : 'Show'}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
