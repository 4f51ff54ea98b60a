import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { orNotFound, requirePageKb, requirePageUser } from '@/lib/auth/page-guard';
import { checkPageId } from '@/lib/http/page-query';
import { pool } from '@/lib/db/client';
import { auditWorkspace } from '@/lib/authoring/audit-work';
import { campaignPage } from '@/components/authoring/api';
import { AuditWorkspaceView } from '@/components/authoring/audit-workspace';
import { campaignsBack } from '@/components/authoring/campaign-guard';
import { Breadcrumbs } from '@/components/breadcrumbs';
import { ExplorerProblem } from '@/components/page-problem';

type Params = { slug: string; id: string; assignmentId: string };

export const metadata: Metadata = { title: 'Audit a query' };

/** The annotator's audit of one query; someone else's assignment, or another campaign's, is a 404. */
export default async function AuditWorkPage({ params }: { params: Promise<Params> }) {
  const { slug, id, assignmentId } = await params;
  const user = await requirePageUser(`/kb/${slug}/campaigns/${id}/audit/${assignmentId}`, 'campaigns:annotate');
  const kb = await requirePageKb(user, slug);
  const campaignId = checkPageId(id, 'campaign id', campaignsBack(kb));
  if (!campaignId.ok) return <ExplorerProblem title="Audit a query" problem={campaignId.problem} />;
  const assignment = checkPageId(assignmentId, 'assignment id', campaignsBack(kb));
  if (!assignment.ok) return <ExplorerProblem title="Audit a query" problem={assignment.problem} />;
  const ws = await orNotFound(auditWorkspace(pool(), assignment.value, user.id));
  if (ws.campaign.id !== campaignId.value || ws.campaign.kbSlug !== kb.slug) notFound();
  return (
    <section className="space-y-4">
      <div>
        <Breadcrumbs kb={kb} section="campaigns" trail={[{ href: campaignPage(kb.slug, ws.campaign.id), label: ws.campaign.name }]} />
        <h1 className="text-2xl font-semibold">Audit query {ws.item.externalId}</h1>
        <p className="text-sm text-slate-500">Mark each current answer correct or wrong with evidence, add the missing ones, flag the text if it is wrong.</p>
      </div>
      <AuditWorkspaceView key={ws.assignment.id} initial={ws} />
    </section>
  );
}
