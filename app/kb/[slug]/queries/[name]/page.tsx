import type { Metadata } from 'next';
import { Suspense } from 'react';
import { can } from '@/lib/auth/roles';
import { pool } from '@/lib/db/client';
import { firstNonIntegerId, querySourceShape } from '@/lib/queries/read';
import { compareSplits } from '@/lib/queries/set-stats';
import { QUERY_FORMATS, type QueryFormat } from '@/lib/queries/types';
import { setApi, setPage } from '@/components/queries/api';
import { fmtCount } from '@/components/queries/format';
import { QuerySetTabs } from '@/components/queries/query-set-tabs';
import { Breadcrumbs } from '@/components/breadcrumbs';
import { SynthesizedSetActions } from '@/components/authoring/synthesized-set-actions';
import { requirePageQuerySet, type SearchParams } from '../_lib/guard';

type Params = { slug: string; name: string };

export async function generateMetadata({ params }: { params: Promise<Params> }): Promise<Metadata> {
  return { title: `Query set ${(await params).name}` };
}

const EXPORT_LABELS: Record<QueryFormat, string> = { stark: 'STaRK', trec: 'TREC', jsonl: 'JSONL' };

/** One query set: its queries, statistics, releases and runs as tabs, and its export in each format. */
export default async function QuerySetPage({ params, searchParams }: { params: Promise<Params>; searchParams: Promise<SearchParams> }) {
  const { slug, name } = await params;
  const { user, kb, set } = await requirePageQuerySet(setPage(slug, name), await searchParams, slug, name);
  const [{ splits }, nonInteger] = await Promise.all([querySourceShape(pool(), { setId: set.id }), firstNonIntegerId(pool(), { setId: set.id })]);
  return (
    <section className="space-y-4">
      <div>
        <Breadcrumbs kb={kb} section="queries" />
        <h1 className="text-2xl font-semibold">{set.name}</h1>
        {set.description && <p className="mt-1 max-w-3xl text-slate-600">{set.description}</p>}
        <p className="mt-1 text-sm text-slate-500" data-testid="set-summary">
          {fmtCount(set.queries)} {set.queries === 1 ? 'query' : 'queries'} · origin {set.origin} · licence {set.license || 'not stated'}
          {' '}· {fmtCount(set.releases)} {set.releases === 1 ? 'release' : 'releases'} · {fmtCount(set.runs)} {set.runs === 1 ? 'run' : 'runs'}
        </p>
        <nav aria-label="Export" className="mt-2 flex flex-wrap items-center gap-2 text-sm">
          <span className="text-slate-600">Export the current queries:</span>
          {QUERY_FORMATS.filter((f) => f !== 'stark' || !nonInteger).map((f) => (
            <a key={f} href={`${setApi(kb.slug, set.name)}/export?format=${f}`} download
              className="rounded border border-slate-300 px-2 py-0.5 text-blue-700 hover:bg-blue-50">
              {EXPORT_LABELS[f]}
            </a>
          ))}
          {!nonInteger && (
            <a href={`${setApi(kb.slug, set.name)}/export?format=stark&for=spreadsheet`} download
              title="The STaRK CSV with query texts that a spreadsheet would run as formulas (starting with = + - @) prefixed with ', for reading in Excel or LibreOffice; the other exports are the exact data"
              className="rounded border border-slate-300 px-2 py-0.5 text-blue-700 hover:bg-blue-50">
              STaRK CSV for spreadsheets
            </a>
          )}
          {nonInteger && (
            <span className="text-xs text-slate-500">
              No STaRK export: STaRK ids are integers, and query {nonInteger.query} has the id “{nonInteger.id}”.
            </span>
          )}
        </nav>
        {set.origin === 'synthesized' && can(user.role, 'queries:manage') && <SynthesizedSetActions slug={kb.slug} set={set.name} queries={set.queries} />}
      </div>
      {/* The tabs read their state from the URL, which needs a suspense boundary. */}
      <Suspense fallback={<p className="text-sm text-slate-500">Loading…</p>}>
        <QuerySetTabs slug={kb.slug} name={set.name} splits={[...splits].sort(compareSplits)} canManage={can(user.role, 'queries:manage')} />
      </Suspense>
    </section>
  );
}
