import type { Metadata } from 'next';
import Link from 'next/link';
import { pathWithQuery, requirePageKb, requirePageUser } from '@/lib/auth/page-guard';
import { can } from '@/lib/auth/roles';
import { pool } from '@/lib/db/client';
import { listQuerySets } from '@/lib/queries/sets';
import { queriesPage, setPage } from '@/components/queries/api';
import { fmtCount } from '@/components/queries/format';
import { Breadcrumbs } from '@/components/breadcrumbs';
import type { SearchParams } from './_lib/guard';
import { When } from '@/components/when';

export const metadata: Metadata = { title: 'Query sets' };

/** The knowledge base's query sets, and the way to import one for those who may. */
export default async function QuerySetsPage({ params, searchParams }: { params: Promise<{ slug: string }>; searchParams: Promise<SearchParams> }) {
  const { slug } = await params;
  const user = await requirePageUser(pathWithQuery(queriesPage(slug), await searchParams), 'kb:browse');
  const kb = await requirePageKb(user, slug);
  const sets = await listQuerySets(pool(), kb.id);
  return (
    <section className="space-y-4">
      <div>
        <Breadcrumbs kb={kb} />
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h1 className="text-2xl font-semibold">Query sets</h1>
          {can(user.role, 'queries:manage') && (
            <Link href={`${queriesPage(kb.slug)}/import`} className="rounded bg-blue-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-blue-700">
              Import a query set
            </Link>
          )}
        </div>
        <p className="mt-1 max-w-3xl text-slate-600">
          Benchmark queries over {kb.name}, each with its answer entities: browse them, see their statistics, release numbered
          versions and score retrieval runs against them.
        </p>
      </div>
      {sets.length === 0 ? (
        <p className="text-sm text-slate-500">No query set yet.</p>
      ) : (
        <div className="table-scroll">
          <table className="w-full rounded-lg bg-white text-sm" data-testid="query-set-list">
            <thead className="text-left text-slate-600">
              <tr>
                <th scope="col" className="px-2 py-1">Name</th><th scope="col">Origin</th><th scope="col" className="text-right">Queries</th>
                <th scope="col" className="text-right">Releases</th><th scope="col" className="text-right">Runs</th><th scope="col" className="pl-4">Updated</th>
              </tr>
            </thead>
            <tbody>
              {sets.map((s) => (
                <tr key={s.id} className="border-t border-slate-100 align-top">
                  <td className="px-2 py-1.5">
                    <Link href={setPage(kb.slug, s.name)} className="font-medium text-blue-700 hover:underline">{s.name}</Link>
                    {s.description && <p className="text-xs text-slate-500">{s.description}</p>}
                  </td>
                  <td>{s.origin}</td>
                  <td className="text-right tabular-nums">{fmtCount(s.queries)}</td>
                  <td className="text-right tabular-nums">{fmtCount(s.releases)}</td>
                  <td className="text-right tabular-nums">{fmtCount(s.runs)}</td>
                  <td className="pl-4 text-slate-600"><When at={s.updatedAt} /></td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
