import type { Metadata } from 'next';
import { Suspense } from 'react';
import { pathWithQuery, requirePageKb, requirePageUser } from '@/lib/auth/page-guard';
import { readPool } from '@/lib/db/client';
import { checkPathsPage } from '@/lib/kb/explorer-pages';
import { ExplorerProblem } from '@/components/page-problem';
import { PathFinder } from '@/components/path-finder';

export const metadata: Metadata = { title: 'Paths' };

export default async function PathsPage({ params, searchParams }: { params: Promise<{ slug: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { slug } = await params;
  const query = await searchParams;
  const user = await requirePageUser(pathWithQuery(`/kb/${slug}/paths`, query), 'kb:browse');
  const kb = await requirePageKb(user, slug);
  const checked = await checkPathsPage(readPool(), kb.id, `/kb/${kb.slug}/paths`, query);
  if (!checked.ok) return <ExplorerProblem title={'Paths'} problem={checked.problem} />;
  return (
    <section className="space-y-4">
      <div>
        <h1 className="text-2xl font-semibold">Paths</h1>
        <p className="max-w-3xl text-sm text-slate-600">
          Every simple path of up to three edges between two entities, edges followed in either direction.
        </p>
      </div>
      <Suspense fallback={<p className="text-sm text-slate-500">Loading…</p>}>
        <PathFinder kbSlug={kb.slug} />
      </Suspense>
    </section>
  );
}
