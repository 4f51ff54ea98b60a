import type { JobStatus } from '@/lib/ingest/jobs';

const STYLES: Record<JobStatus, string> = {
  RUNNING: 'bg-blue-100 text-blue-800',
  SUCCEEDED: 'bg-green-100 text-green-800',
  FAILED: 'bg-red-100 text-red-800',
  CANCELLED: 'bg-slate-200 text-slate-700',
};

export function ImportStatusBadge({ status, testId }: { status: JobStatus; testId?: string }) {
  return (
    <span data-testid={testId} className={`inline-block rounded px-2 py-0.5 text-xs font-semibold ${STYLES[status]}`}>
      {status}
    </span>
  );
}
