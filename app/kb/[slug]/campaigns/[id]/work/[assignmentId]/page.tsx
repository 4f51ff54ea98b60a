import type { Metadata } from 'next';
import { Breadcrumbs } from '@/components/breadcrumbs';
import { notFound } from 'next/navigation';
import { orNotFound, requirePageKb, requirePageUser } from '@/lib/auth/page-guard';
import { checkPageId } from '@/lib/http/page-query';
import { pool } from '@/lib/db/client';
import { workspace } from '@/lib/authoring/workspace';
import { campaignPage } from '@/components/authoring/api';
import { campaignsBack } from '@/components/authoring/campaign-guard';
import { ExplorerProblem } from '@/components/page-problem';
import { AnnotatorWorkspace } from '@/components/authoring/workspace/workspace';

type Params = { slug: string; id: string; assignmentId: string };

export const metadata: Metadata = { title: 'Workspace' };

/**
 * The annotator's workspace for one of their assignments; a malformed id is said at once, someone else's
 * assignment, or another campaign's, is a 404.
 */
export default async function WorkPage({ params }: { params: Promise<Params> }) {
  const { slug, id, assignmentId } = await params;
  const user = await requirePageUser(`/kb/${slug}/campaigns/${id}/work/${assignmentId}`, 'campaigns:annotate');
  const kb = await requirePageKb(user, slug);
  const campaignId = checkPageId(id, 'campaign id', campaignsBack(kb));
  if (!campaignId.ok) return <ExplorerProblem title="Workspace" problem={campaignId.problem} />;
  const assignment = checkPageId(assignmentId, 'assignment id', campaignsBack(kb));
  if (!assignment.ok) return <ExplorerProblem title="Workspace" problem={assignment.problem} />;
  const ws = await orNotFound(workspace(pool(), assignment.value, user.id));
  if (ws.campaign.id !== campaignId.value || ws.campaign.kbSlug !== kb.slug) notFound();

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
