import type { Metadata } from 'next';
import { checkPageId } from '@/lib/http/page-query';
import { campaignPage, campaignsPage, reviewPage } from '@/components/authoring/api';
import { requirePageCampaign } from '@/components/authoring/campaign-guard';
import { ReviewSeed } from '@/components/authoring/review-seed';
import { Breadcrumbs } from '@/components/breadcrumbs';
import { ExplorerProblem } from '@/components/page-problem';

type Params = { slug: string; id: string; entityId: string };

export async function generateMetadata({ params }: { params: Promise<Params> }): Promise<Metadata> {
  const { id, entityId } = await params;
  return { title: `Review seed ${entityId} · campaign ${id}` };
}

/** One seed's submitted work side by side, its answers to adjudicate and the approval of a query. */
export default async function ReviewSeedPage({ params }: { params: Promise<Params> }) {
  const { slug, id, entityId } = await params;
  const found = await requirePageCampaign(`${campaignsPage(slug)}/${id}/review/${entityId}`, slug, id, 'queries:manage');
  if (!found.ok) return <ExplorerProblem title="Review a seed" problem={found.problem} />;
  const { user, kb, campaign } = found.value;
  const seed = checkPageId(entityId, 'entity id', { href: reviewPage(kb.slug, campaign.id), label: `Review of ${campaign.name}` });
  if (!seed.ok) return <ExplorerProblem title="Review a seed" problem={seed.problem} />;
  return (
    <section className="space-y-4">
      <div>
        <Breadcrumbs kb={kb} section="campaigns" trail={[
          { href: campaignPage(kb.slug, campaign.id), label: campaign.name },
          { href: reviewPage(kb.slug, campaign.id), label: 'Review' },
        ]} />
        <h1 className="text-2xl font-semibold">Review a seed</h1>
      </div>
      <ReviewSeed slug={kb.slug} campaignId={campaign.id} entityId={seed.value} userId={user.id} />
    </section>
  );
}
