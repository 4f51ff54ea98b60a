import type { Metadata } from 'next';
import { requirePageKb, requirePageUser } from '@/lib/auth/page-guard';
import { uploadLimitBytes } from '@/lib/ingest/uploads';
import { queriesPage } from '@/components/queries/api';
import { QuerySetImportForm } from '@/components/queries/query-set-import-form';
import { Breadcrumbs } from '@/components/breadcrumbs';

export const metadata: Metadata = { title: 'Import a query set' };

export default async function ImportQuerySetPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const user = await requirePageUser(`${queriesPage(slug)}/import`, 'queries:manage');
  const kb = await requirePageKb(user, slug);
  return (
    <section className="space-y-4">
      <div>
        <Breadcrumbs kb={kb} section="queries" />
        <h1 className="text-2xl font-semibold">Import a query set</h1>
        <p className="mt-1 max-w-3xl text-slate-600">
          Upload a query set in STaRK, TREC or JSONL form. Every file is checked before anything is written: if a row is wrong,
          nothing is imported and each problem is listed with its file and line.
        </p>
      </div>
      <QuerySetImportForm slug={kb.slug} maxUploadBytes={uploadLimitBytes()} />
    </section>
  );
}
