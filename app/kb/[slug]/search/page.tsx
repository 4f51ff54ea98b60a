import { Suspense } from 'react';
import { pathWithQuery, requirePageKb, requirePageUser } from '@/lib/auth/page-guard';
import { readDb, readPool } from '@/lib/db/client';
import { checkSearchPage } from '@/lib/kb/explorer-pages';
import { kbSchemaSummary } from '@/lib/kb/schema-summary';
import { ExplorerProblem } from '@/components/page-problem';
import { SearchView } from '@/components/search-view';

export default async function SearchPage({ params, searchParams }: { params: Promise<{ slug: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { slug } = await params;
  const query = await searchParams;
  const user = await requirePageUser(pathWithQuery(`/kb/${slug}/search`, query), 'kb:browse');
  const kb = await requirePageKb(user, slug);
  const checked = await checkSearchPage(readPool(), kb.id, `/kb/${kb.slug}/search`, query);
  if (!checked.ok) return <ExplorerProblem title={`Search ${kb.name}`} problem={checked.problem} />;
  const { nodeTypes } = await kbSchemaSummary(readDb(), kb.id);
  const types = nodeTypes.map((t) => ({ name: t.name, count: t.entityCount })).sort((a, b) => a.name.localeCompare(b.name));
  return (
    <section className="space-y-4">
      <h1 className="text-2xl font-semibold">Search {kb.name}</h1>
      {/* The view reads its state from the URL, which needs a suspense boundary. */}
      <Suspense fallback={<p className="text-sm text-slate-500">Loading…</p>}>
        <SearchView kbSlug={kb.slug} types={types} />
      </Suspense>
    </section>
  );
}
