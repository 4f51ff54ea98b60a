import type { Metadata } from 'next';
import { requirePageKb, requirePageUser } from '@/lib/auth/page-guard';
import { pool } from '@/lib/db/client';
import { DEFAULT_GUIDELINES } from '@/lib/authoring/campaigns';
import { metapathSchema } from '@/lib/kb/metapath';
import { campaignsPage } from '@/components/authoring/api';
import { CampaignForm } from '@/components/authoring/campaign-form';
import { Breadcrumbs } from '@/components/breadcrumbs';

export const metadata: Metadata = { title: 'New campaign' };

export default async function NewCampaignPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const user = await requirePageUser(`${campaignsPage(slug)}/new`, 'queries:manage');
  const kb = await requirePageKb(user, slug);
  const { types } = await metapathSchema(pool(), kb.id);
  return (
    <section className="space-y-4">
      <div>
        <Breadcrumbs kb={kb} section="campaigns" />
        <h1 className="text-2xl font-semibold">New campaign</h1>
        <p className="mt-1 max-w-3xl text-slate-600">
          Choose the seed entities, who annotates them and how many annotators write about each. A seed list is checked before
          anything is created: if an id is unknown or repeated, nothing is created and each problem is listed with its line.
        </p>
      </div>
      <CampaignForm slug={kb.slug} types={types} defaultGuidelines={DEFAULT_GUIDELINES} />
    </section>
  );
}
