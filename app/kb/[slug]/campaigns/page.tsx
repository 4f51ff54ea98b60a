import type { Metadata } from 'next';
import Link from 'next/link';
import { requirePageKb, requirePageUser } from '@/lib/auth/page-guard';
import { can } from '@/lib/auth/roles';
import { pool } from '@/lib/db/client';
import { listCampaigns } from '@/lib/authoring/list';
import { campaignsPage } from '@/components/authoring/api';
import { CampaignList } from '@/components/authoring/campaign-list';
import { Breadcrumbs } from '@/components/breadcrumbs';

export const metadata: Metadata = { title: 'Campaigns' };

/** The knowledge base's authoring campaigns, and the way to start one for those who may. */
export default async function CampaignsPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const user = await requirePageUser(campaignsPage(slug), 'kb:browse');
  const kb = await requirePageKb(user, slug);
  const items = await listCampaigns(pool(), kb.id);
  return (
    <section className="space-y-4">
      <div>
        <Breadcrumbs kb={kb} />
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h1 className="text-2xl font-semibold">Campaigns</h1>
          {can(user.role, 'queries:manage') && (
            <div className="flex flex-wrap gap-2">
              <Link href={`${campaignsPage(kb.slug)}/new/audit`} className="rounded border border-blue-600 px-3 py-1.5 text-sm font-medium text-blue-700 hover:bg-blue-50">
                New audit
              </Link>
              <Link href={`${campaignsPage(kb.slug)}/new`} className="rounded bg-blue-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-blue-700">
                New campaign
              </Link>
            </div>
          )}
        </div>
        <p className="mt-1 max-w-3xl text-slate-600">
          In a campaign, annotators each take seed entities of {kb.name}, write a query the seed answers without naming it, and
          validate its full answer set; reviewers compare the work on each seed and approve one query into a query set. An audit
          checks the queries of an existing set instead: their answers, with evidence, and their text.
        </p>
      </div>
      <CampaignList slug={kb.slug} items={items} />
    </section>
  );
}
