import type { Metadata } from 'next';
import { Breadcrumbs } from '@/components/breadcrumbs';
import { notFound } from 'next/navigation';
import { orNotFound, pageId, requirePageKb, requirePageUser } from '@/lib/auth/page-guard';
import { pool } from '@/lib/db/client';
import { workspace } from '@/lib/authoring/workspace';
import { campaignPage } from '@/components/authoring/api';
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
        <Breadcrumbs kb={kb} section="campaigns" trail={[
          { href: campaignPage(kb.slug, ws.campaign.id), label: ws.campaign.name },
        ]} />
        <h1 className="text-2xl font-semibold">Write a query about this seed</h1>
        <p className="text-sm text-slate-500">A question the seed answers without naming it; then every entity that answers it, judged.</p>
      </div>
      <AnnotatorWorkspace key={ws.assignment.id} initial={ws} />
    </section>
  );
}
