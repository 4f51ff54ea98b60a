import type { Metadata } from 'next';
import { Suspense } from 'react';
import { pathWithQuery, requirePageKb, requirePageUser } from '@/lib/auth/page-guard';
import { readPool } from '@/lib/db/client';
import { checkMetapathsPage } from '@/lib/kb/explorer-pages';
import { ExplorerProblem } from '@/components/page-problem';
import { MetapathBuilder } from '@/components/metapath-builder';

export const metadata: Metadata = { title: 'Metapaths' };

export default async function MetapathsPage({ params, searchParams }: { params: Promise<{ slug: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { slug } = await params;
  const query = await searchParams;
  const user = await requirePageUser(pathWithQuery(`/kb/${slug}/metapaths`, query), 'kb:browse');
  const kb = await requirePageKb(user, slug);
  const checked = await checkMetapathsPage(readPool(), kb.id, `/kb/${kb.slug}/metapaths`, query);
  if (!checked.ok) return <ExplorerProblem title={'Metapaths'} problem={checked.problem} />;
  return (
    <section className="space-y-4">
      <div>
        <h1 className="text-2xl font-semibold">Metapaths</h1>
        <p className="max-w-3xl text-sm text-slate-600">
          Walk typed edges step by step from one entity or from every entity of a type, and see how many distinct entities each
          step reaches. Add a second path to keep only the entities both reach.
        </p>
      </div>
      <Suspense fallback={<p className="text-sm text-slate-500">Loading…</p>}>
        <MetapathBuilder kbSlug={kb.slug} />
      </Suspense>
    </section>
  );
}
