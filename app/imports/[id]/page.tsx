import type { Metadata } from 'next';
import Link from 'next/link';
import { orNotFound, requirePageUser } from '@/lib/auth/page-guard';
import { checkPageId } from '@/lib/http/page-query';
import { db, pool } from '@/lib/db/client';
import { getImportJob } from '@/lib/ingest/import-jobs-view';
import { ImportJobView } from '@/components/import-job-view';
import { ExplorerProblem } from '@/components/page-problem';

export const metadata: Metadata = { title: 'Import job' };

export default async function ImportJobPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const user = await requirePageUser(`/imports/${id}`, 'kb:manage');
  const jobId = checkPageId(id, 'import id', { href: '/admin/import', label: 'Import' });
  if (!jobId.ok) return <ExplorerProblem title="Import job" problem={jobId.problem} />;
  const job = await orNotFound(getImportJob(pool(), db(), user, jobId.value));
  return (
    <section className="space-y-4">
      <div>
        <p className="text-sm text-slate-500"><Link href="/admin/import" className="hover:underline">Import</Link> /</p>
        <h1 className="text-2xl font-semibold">Import #{job.id} · {job.slug}</h1>
      </div>
      <ImportJobView initial={job} />
    </section>
  );
}
