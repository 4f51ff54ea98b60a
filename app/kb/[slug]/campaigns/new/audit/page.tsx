import type { Metadata } from 'next';
import { requirePageKb, requirePageUser } from '@/lib/auth/page-guard';
import { pool } from '@/lib/db/client';
import { listReleases } from '@/lib/queries/releases';
import { listQuerySets } from '@/lib/queries/sets';
import { campaignsPage } from '@/components/authoring/api';
import { AuditCampaignForm } from '@/components/authoring/audit-campaign-form';
import { Breadcrumbs } from '@/components/breadcrumbs';

export const metadata: Metadata = { title: 'New audit' };

/** Starts an audit of one of the knowledge base's query sets, or of a release of one (`?set=` preselects it). */
export default async function NewAuditPage({ params, searchParams }: { params: Promise<{ slug: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { slug } = await params;
  const user = await requirePageUser(`${campaignsPage(slug)}/new/audit`, 'queries:manage');
  const kb = await requirePageKb(user, slug);
  const wanted = (await searchParams).set;
  const sets = await listQuerySets(pool(), kb.id);
  const auditable = await Promise.all(sets.map(async (s) => ({ name: s.name, queries: s.queries, releases: (await listReleases(pool(), s.id)).map((r) => r.number) })));
  return (
    <section className="space-y-4">
      <div>
        <Breadcrumbs kb={kb} section="campaigns" />
        <h1 className="text-2xl font-semibold">New audit</h1>
        <p className="mt-1 max-w-3xl text-slate-600">
          Annotators check each query of a set and its current answers with evidence, add the answers that are missing and flag wrong
          query text; reviewers approve the fixes as new revisions of the set’s queries. The set’s ids must be integers and every answer
          and seed an entity of {kb.name}: otherwise nothing is created and each problem is listed with its line.
        </p>
      </div>
      <AuditCampaignForm slug={kb.slug} sets={auditable} initialSet={typeof wanted === 'string' ? wanted : null} />
    </section>
  );
}
