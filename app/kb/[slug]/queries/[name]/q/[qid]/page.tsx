import type { Metadata } from 'next';
import { can } from '@/lib/auth/roles';
import { pool } from '@/lib/db/client';
import { getQuery } from '@/lib/queries/edit';
import { queryPage, setPage } from '@/components/queries/api';
import { QueryDetailView } from '@/components/queries/query-detail';
import { Breadcrumbs } from '@/components/breadcrumbs';
import { foundOr } from '@/lib/http/page-query';
import { ExplorerProblem } from '@/components/page-problem';
import { requirePageQuerySet, type SearchParams } from '../../../_lib/guard';
import { provenanceEntities, provenanceOf } from '@/lib/synthesis/provenance-entities';
import { ProvenanceView } from '@/components/synthesis/provenance';

type Params = { slug: string; name: string; qid: string };

export async function generateMetadata({ params }: { params: Promise<Params> }): Promise<Metadata> {
  const { name, qid } = await params;
  return { title: `Query ${qid} of ${name}` };
}

export default async function QueryPage({ params, searchParams }: { params: Promise<Params>; searchParams: Promise<SearchParams> }) {
  const { slug, name, qid } = await params;
  const { user, kb, set } = await requirePageQuerySet(queryPage(slug, name, qid), await searchParams, slug, name);
  const found = await foundOr(getQuery(pool(), kb.id, set.id, qid), { href: setPage(kb.slug, set.name), label: `Queries of ${set.name}` });
  if (!found.ok) return <ExplorerProblem title="Query" problem={found.problem} />;
  const query = found.value;
  const provenance = provenanceOf(query.metadata);
  const named = provenance && await provenanceEntities(pool(), kb.id, provenance);
  return (
    <section className="space-y-4">
      <div>
        <Breadcrumbs kb={kb} section="queries" trail={[
          { href: setPage(kb.slug, set.name), label: set.name },
        ]} />
        <h1 className="text-2xl font-semibold">Query {query.id}</h1>
      </div>
      <QueryDetailView slug={kb.slug} name={set.name} initial={query} canEdit={can(user.role, 'queries:manage')}>
        {provenance && named && (
          <section aria-labelledby="provenance-heading" className="rounded-lg border border-slate-200 bg-white p-4">
            <h2 id="provenance-heading" className="mb-2 font-medium">How this query was made</h2>
            <ProvenanceView slug={kb.slug} provenance={provenance} entities={named.entities} sourceDocument={named.sourceDocument}
              canSeeCalls={can(user.role, 'queries:manage')} />
          </section>
        )}
      </QueryDetailView>
    </section>
  );
}
