import { Suspense } from 'react';
import { HydrationBoundary } from '@tanstack/react-query';
import { pathWithQuery, requirePageKb, requirePageUser } from '@/lib/auth/page-guard';
import { readPool } from '@/lib/db/client';
import { checkGraphPage } from '@/lib/kb/explorer-pages';
import { prefetchGraphView, type GraphPageAddress } from '@/lib/kb/graph-prefetch';
import { kbStatistics } from '@/lib/kb/stats';
import { GraphExplorer } from '@/components/graph-explorer';
import { ExplorerProblem } from '@/components/page-problem';

export default async function GraphPage({ params, searchParams }: { params: Promise<{ slug: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { slug } = await params;
  const query = await searchParams;
  const user = await requirePageUser(pathWithQuery(`/kb/${slug}/graph`, query), 'kb:browse');
  const kb = await requirePageKb(user, slug);
  const checked = await checkGraphPage(readPool(), kb.id, `/kb/${kb.slug}/graph`, query);
  if (!checked.ok) return <ExplorerProblem title={`Graph of ${kb.name}`} problem={checked.problem} />;
  return (
    <section className="space-y-4">
      <h1 className="text-2xl font-semibold">Graph of {kb.name}</h1>
      {/* The explorer reads its state from the URL, which needs a suspense boundary; the boundary also lets the
          page's head and scripts go out while the view is read. */}
      <Suspense fallback={<p className="text-sm text-slate-500">Loading…</p>}>
        <ExplorerWithData kbId={kb.id} kbSlug={kb.slug} address={checked.value} />
      </Suspense>
    </section>
  );
}

/** The explorer with the knowledge base's types, relations and hubs, and the view the address names, read first. */
async function ExplorerWithData({ kbId, kbSlug, address }: { kbId: number; kbSlug: string; address: GraphPageAddress }) {
  const [stats, prefetched] = await Promise.all([kbStatistics(readPool(), kbId, 12), prefetchGraphView(readPool(), kbId, kbSlug, address)]);
  return (
    <HydrationBoundary state={prefetched}>
      <GraphExplorer kbSlug={kbSlug} types={stats.entityTypes.map((t) => t.name).sort()}
        relations={stats.relations.map((r) => r.name).sort()} hubs={stats.hubs} />
    </HydrationBoundary>
  );
}
