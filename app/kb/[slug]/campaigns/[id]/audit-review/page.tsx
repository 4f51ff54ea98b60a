import type { Metadata } from 'next';
import { campaignPage, campaignsPage } from '@/components/authoring/api';
import { AuditReviewQueue } from '@/components/authoring/audit-review-queue';
import { requirePageCampaign } from '@/components/authoring/campaign-guard';
import { Breadcrumbs } from '@/components/breadcrumbs';
import { ExplorerProblem } from '@/components/page-problem';

type Params = { slug: string; id: string };

export async function generateMetadata({ params }: { params: Promise<Params> }): Promise<Metadata> {
  return { title: `Review · audit ${(await params).id}` };
}

/** The audited queries with submitted work to compare and approve. */
export default async function AuditReviewQueuePage({ params }: { params: Promise<Params> }) {
  const { slug, id } = await params;
  const found = await requirePageCampaign(`${campaignsPage(slug)}/${id}/audit-review`, slug, id, 'queries:manage');
  if (!found.ok) return <ExplorerProblem title="Review" problem={found.problem} />;
  const { kb, campaign } = found.value;
  return (
    <section className="space-y-4">
      <div>
        <Breadcrumbs kb={kb} section="campaigns" trail={[{ href: campaignPage(kb.slug, campaign.id), label: campaign.name }]} />
        <h1 className="text-2xl font-semibold">Review the audit</h1>
        <p className="mt-1 max-w-3xl text-slate-600">
          Each query below has audits handed in. Open one to compare the annotators’ verdicts, decide on every answer and on the query,
          and approve the fixes into {campaign.querySet ?? 'the query set'}.
        </p>
      </div>
      <AuditReviewQueue slug={kb.slug} campaignId={campaign.id} />
    </section>
  );
}
