import type { Metadata } from 'next';
import Link from 'next/link';
import { requirePageKb, requirePageUser } from '@/lib/auth/page-guard';
import { can } from '@/lib/auth/roles';
import { pool } from '@/lib/db/client';
import { listStudies } from '@/lib/studies/admin';
import { studiesPage } from '@/components/studies/api';
import { StudyList } from '@/components/studies/study-list';
import { Breadcrumbs } from '@/components/breadcrumbs';

export const metadata: Metadata = { title: 'Studies' };

/** The knowledge base's rating studies: managers set them up, raters take part. */
export default async function StudiesPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const user = await requirePageUser(studiesPage(slug), 'kb:browse');
  const kb = await requirePageKb(user, slug);
  const canManage = can(user.role, 'queries:manage');
  // Drafts are still being set up: only managers see them.
  const items = (await listStudies(pool(), kb.id)).filter((s) => canManage || s.status !== 'DRAFT');
  return (
    <section className="space-y-4">
      <div>
        <Breadcrumbs kb={kb} />
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h1 className="text-2xl font-semibold">Studies</h1>
          {canManage && (
            <Link href={`${studiesPage(kb.slug)}/new`} className="rounded bg-blue-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-blue-700">
              New study
            </Link>
          )}
          {!canManage && <p className="text-xs text-slate-500" data-testid="role-note">Curators and admins make studies; open ones are listed here to take part in.</p>}
        </div>
        <p className="mt-1 max-w-3xl text-slate-600">
          In a rating study, participants rate queries of {kb.name} on scales such as naturalness, diversity and practicality, with
          queries from several sets mixed blind. The results report the share of positive and non-negative ratings per source and
          how much the raters agree.
        </p>
      </div>
      <StudyList slug={kb.slug} items={items} canManage={canManage} />
    </section>
  );
}
