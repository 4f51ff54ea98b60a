import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { orNotFound, pageId, requirePageKb, requirePageUser } from '@/lib/auth/page-guard';
import { pool } from '@/lib/db/client';
import { workspace } from '@/lib/authoring/workspace';
import { campaignPage, campaignsPage } from '@/components/authoring/api';
import { AnnotatorWorkspace } from '@/components/authoring/workspace/workspace';

type Params = { slug: string; id: string; assignmentId: string };

export const metadata: Metadata = { title: 'Workspace' };

/** The annotator's workspace for one of their assignments; someone else's, or another campaign's, is a 404. */
export default async function WorkPage({ params }: { params: Promise<Params> }) {
  const { slug, id, assignmentId } = await params;
  const user = await requirePageUser(`/kb/${slug}/campaigns/${id}/work/${assignmentId}`, 'campaigns:annotate');
  const kb = await requirePageKb(user, slug);
  const ws = await orNotFound(workspace(pool(), pageId(assignmentId), user.id));
  if (ws.campaign.id !== pageId(id) || ws.campaign.kbSlug !== kb.slug) notFound();

  return (
    <section className="space-y-4">
      <div>
        <nav aria-label="Breadcrumbs" className="text-sm text-slate-500">
          <Link href="/" className="hover:underline">Knowledge bases</Link> / <Link href={`/kb/${encodeURIComponent(kb.slug)}`} className="hover:underline">{kb.name}</Link>
          {' / '}<Link href={campaignsPage(kb.slug)} className="hover:underline">Campaigns</Link>
          {' / '}<Link href={campaignPage(kb.slug, ws.campaign.id)} className="hover:underline">{ws.campaign.name}</Link> /
        </nav>
        <h1 className="text-2xl font-semibold">Write a query about this seed</h1>
        <p className="text-sm text-slate-500">A question the seed answers without naming it; then every entity that answers it, judged.</p>
      </div>
      <AnnotatorWorkspace key={ws.assignment.id} initial={ws} />
    </section>
  );
}
