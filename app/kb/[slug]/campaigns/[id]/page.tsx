import type { Metadata } from 'next';
import { campaignsPage } from '@/components/authoring/api';
import { requirePageCampaign } from '@/components/authoring/campaign-guard';
import { CampaignOverview } from '@/components/authoring/campaign-overview';
import { Breadcrumbs } from '@/components/breadcrumbs';
import { ExplorerProblem } from '@/components/page-problem';

type Params = { slug: string; id: string };

export async function generateMetadata({ params }: { params: Promise<Params> }): Promise<Metadata> {
  return { title: `Campaign ${(await params).id}` };
}

/** One campaign: its rules, the annotator's work and, for managers, its controls and dashboard. */
export default async function CampaignPage({ params }: { params: Promise<Params> }) {
  const { slug, id } = await params;
  const found = await requirePageCampaign(`${campaignsPage(slug)}/${id}`, slug, id, 'kb:browse');
  if (!found.ok) return <ExplorerProblem title="Campaign" problem={found.problem} />;
  const { kb, campaign } = found.value;
  return (
    <section className="space-y-4">
      <div>
        <Breadcrumbs kb={kb} section="campaigns" />
        <h1 className="text-2xl font-semibold" data-testid="campaign-name">{campaign.name}</h1>
      </div>
      <CampaignOverview campaignId={campaign.id} />
    </section>
  );
}
