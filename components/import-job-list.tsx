'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import type { ImportJob } from '@/lib/ingest/import-jobs-view';
import { fetchJson } from '@/lib/client/fetch-json';
import { ImportStatusBadge } from './import-status-badge';
import { When } from '@/components/when';

/** The latest imports the user may see; refreshed while one of them runs. */
export function ImportJobList() {
  const jobs = useQuery({
    queryKey: ['import-jobs'],
    queryFn: () => fetchJson<{ jobs: ImportJob[] }>('/api/imports?limit=20'),
    refetchInterval: (q) => (q.state.data?.jobs.some((j) => j.status === 'RUNNING') ? 2000 : false),
  });

  return (
    <div className="rounded-lg border border-slate-200 bg-white p-4 text-sm">
      <h2 className="mb-2 font-medium">Recent imports</h2>
      {jobs.error && <p role="alert" className="text-red-700">{jobs.error.message}</p>}
      {jobs.data?.jobs.length === 0 && <p className="text-slate-500">No imports yet.</p>}
      {!!jobs.data?.jobs.length && (
        <div className="table-scroll">
          <table className="w-full" data-testid="import-job-list">
            <thead className="text-left text-slate-600">
              <tr><th className="py-1">Job</th><th>Knowledge base</th><th>Format</th><th>Status</th><th>Started</th><th>By</th></tr>
            </thead>
            <tbody>
              {jobs.data.jobs.map((j) => (
                <tr key={j.id} className="border-t border-slate-100">
                  <td className="py-1.5"><Link href={`/imports/${j.id}`} className="text-blue-700 hover:underline">#{j.id}</Link></td>
                  <td>{j.slug}</td>
                  <td>{j.format}</td>
                  <td><ImportStatusBadge status={j.status} /></td>
                  <td className="text-slate-500"><When at={j.startedAt} /></td>
                  <td className="text-slate-500">{j.createdBy ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
