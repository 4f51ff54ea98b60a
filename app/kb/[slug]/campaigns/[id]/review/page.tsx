import type { Metadata } from 'next';
import { campaignPage, campaignsPage } from '@/components/authoring/api';
import { requirePageCampaign } from '@/components/authoring/campaign-guard';
import { ReviewQueue } from '@/components/authoring/review-queue';
import { Breadcrumbs } from '@/components/breadcrumbs';
import { ExplorerProblem } from '@/components/page-problem';

type Params = { slug: string; id: string };

export async function generateMetadata({ params }: { params: Promise<Params> }): Promise<Metadata> {
  return { title: `Review · campaign ${(await params).id}` };
}

/** The seeds of a campaign with submitted work to compare and approve. */
export default async function ReviewQueuePage({ params }: { params: Promise<Params> }) {
  const { slug, id } = await params;
  const found = await requirePageCampaign(`${campaignsPage(slug)}/${id}/review`, slug, id, 'queries:manage');
  if (!found.ok) return <ExplorerProblem title="Review" problem={found.problem} />;
  const { kb, campaign } = found.value;
  return (
    <section className="space-y-4">
      <div>
        <Breadcrumbs kb={kb} section="campaigns" trail={[
          { href: campaignPage(kb.slug, campaign.id), label: campaign.name },
        ]} />
        <h1 className="text-2xl font-semibold">Review</h1>
        <p className="mt-1 max-w-3xl text-slate-600">
          Each seed below has work handed in. Open one to compare its queries and answer sets side by side, send work back to its
          author, decide on every answer and approve one query into {campaign.querySet ?? 'the query set'}.
        </p>
      </div>
      <ReviewQueue slug={kb.slug} campaignId={campaign.id} />
    </section>
  );
}
