import type { Metadata } from 'next';
import { checkPageId } from '@/lib/http/page-query';
import { auditReviewPage, campaignPage, campaignsPage } from '@/components/authoring/api';
import { AuditReviewItem } from '@/components/authoring/audit-review-item';
import { requirePageCampaign } from '@/components/authoring/campaign-guard';
import { Breadcrumbs } from '@/components/breadcrumbs';
import { ExplorerProblem } from '@/components/page-problem';

type Params = { slug: string; id: string; item: string };

export async function generateMetadata({ params }: { params: Promise<Params> }): Promise<Metadata> {
  const { id, item } = await params;
  return { title: `Review item ${item} · audit ${id}` };
}

/** One audited query's submitted work side by side, the decisions on its answers and text, and the approval. */
export default async function AuditReviewItemPage({ params }: { params: Promise<Params> }) {
  const { slug, id, item } = await params;
  const found = await requirePageCampaign(`${campaignsPage(slug)}/${id}/audit-review/${item}`, slug, id, 'queries:manage');
  if (!found.ok) return <ExplorerProblem title="Review" problem={found.problem} />;
  const { user, kb, campaign } = found.value;
  const number = checkPageId(item, 'item number', { href: auditReviewPage(kb.slug, campaign.id), label: 'Review the audit' });
  if (!number.ok) return <ExplorerProblem title="Review" problem={number.problem} />;
  return (
    <section className="space-y-4">
      <div>
        <Breadcrumbs kb={kb} section="campaigns" trail={[
          { href: campaignPage(kb.slug, campaign.id), label: campaign.name },
          { href: auditReviewPage(kb.slug, campaign.id), label: 'Review' },
        ]} />
        <h1 className="text-2xl font-semibold">Review audited query {number.value}</h1>
      </div>
      <AuditReviewItem slug={kb.slug} campaignId={campaign.id} item={number.value} userId={user.id} />
    </section>
  );
}
