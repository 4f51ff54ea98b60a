import { Suspense } from 'react';
import { pathWithQuery, requirePageKb, requirePageUser } from '@/lib/auth/page-guard';
import { readPool } from '@/lib/db/client';
import { checkGraphPage } from '@/lib/kb/explorer-pages';
import { kbStatistics } from '@/lib/kb/stats';
import { GraphExplorer } from '@/components/graph-explorer';
import { ExplorerProblem } from '@/components/page-problem';

export default async function GraphPage({ params, searchParams }: { params: Promise<{ slug: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { slug } = await params;
  const query = await searchParams;
  const user = await requirePageUser(pathWithQuery(`/kb/${slug}/graph`, query), 'kb:browse');
  const kb = await requirePageKb(user, slug);
  const problem = await checkGraphPage(readPool(), kb.id, `/kb/${kb.slug}/graph`, query);
  if (problem) return <ExplorerProblem title={`Graph of ${kb.name}`} problem={problem} />;
  const stats = await kbStatistics(readPool(), kb.id, 12);
  return (
    <section className="space-y-4">
      <h1 className="text-2xl font-semibold">Graph of {kb.name}</h1>
      {/* The explorer reads its state from the URL, which needs a suspense boundary. */}
      <Suspense fallback={<p className="text-sm text-slate-500">Loading…</p>}>
        <GraphExplorer kbSlug={kb.slug} types={stats.entityTypes.map((t) => t.name).sort()}
          relations={stats.relations.map((r) => r.name).sort()} hubs={stats.hubs} />
      </Suspense>
    </section>
  );
}
