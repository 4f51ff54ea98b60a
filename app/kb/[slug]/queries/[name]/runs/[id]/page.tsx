import type { Metadata } from 'next';
import { Suspense } from 'react';
import { pool } from '@/lib/db/client';
import { getRun } from '@/lib/queries/runs';
import { setPage } from '@/components/queries/api';
import { RunView } from '@/components/queries/run-view';
import { Breadcrumbs } from '@/components/breadcrumbs';
import { findById } from '@/lib/http/page-query';
import { ExplorerProblem } from '@/components/page-problem';
import { requirePageQuerySet, type SearchParams } from '../../../_lib/guard';

type Params = { slug: string; name: string; id: string };

export async function generateMetadata({ params }: { params: Promise<Params> }): Promise<Metadata> {
  const { name, id } = await params;
  return { title: `Run ${id} on ${name}` };
}

/** One run scored on the set: means per split and each query's scores. */
export default async function RunPage({ params, searchParams }: { params: Promise<Params>; searchParams: Promise<SearchParams> }) {
  const { slug, name, id } = await params;
  const { kb, set } = await requirePageQuerySet(`${setPage(slug, name)}/runs/${encodeURIComponent(id)}`, await searchParams, slug, name);
  const found = await findById(id, 'run id', { href: setPage(kb.slug, set.name, 'runs'), label: `Runs of ${set.name}` }, (runId) => getRun(pool(), set.id, runId));
  if (!found.ok) return <ExplorerProblem title="Run" problem={found.problem} />;
  const run = found.value;
  return (
    <section className="space-y-4">
      <div>
        <Breadcrumbs kb={kb} section="queries" trail={[
          { href: setPage(kb.slug, set.name, 'runs'), label: set.name },
        ]} />
        <h1 className="text-2xl font-semibold">Run: {run.name}</h1>
      </div>
      {/* The per-query table reads its sort and filter from the URL, which needs a suspense boundary. */}
      <Suspense fallback={<p className="text-sm text-slate-500">Loading…</p>}>
        <RunView slug={kb.slug} name={set.name} initial={run} />
      </Suspense>
    </section>
  );
}
