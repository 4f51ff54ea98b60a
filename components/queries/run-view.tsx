'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { METRICS, METRIC_LABELS, type Metric, type MetricMeans } from '@/lib/queries/metrics';
import type { GroupMeans } from '@/lib/queries/run-groups';
import type { RunGrouping, RunQueryRow, RunSummary } from '@/lib/queries/runs';
import { requestJson, queryPage, setApi } from './api';
import { fmtCount, fmtScore, splitLabel } from './format';
import { Field } from './field';
import { GroupBySelect, groupByParam, groupingLabel, groupsWorthShowing } from './group-by';
import { Pager } from './pager';
import { RunStatus } from './run-panel';
import { intParam, useUrlParams } from './use-url-params';
import { When } from '@/components/when';

const PAGE_SIZE = 50;

/**
 * A scored run: its means overall and per query group (`?groupBy=`, split by default), its warnings, and its
 * per-query scores (`?sort=&split=&page=`).
 */
export function RunView({ slug, name, initial }: { slug: string; name: string; initial: RunSummary }) {
  const url = `${setApi(slug, name)}/runs/${initial.id}`;
  const { data: run, error } = useQuery({
    queryKey: ['query-set-run', slug, name, initial.id],
    queryFn: () => requestJson<RunSummary>(url),
    initialData: initial,
    refetchInterval: (q) => (q.state.data?.status === 'RUNNING' ? 1000 : false),
  });
  return (
    <div className="space-y-4 text-sm">
      {error && <p role="alert" className="rounded bg-red-50 px-3 py-2 text-red-700">{error.message}</p>}
      <div className="rounded-lg border border-slate-200 bg-white p-4">
        <div className="flex flex-wrap items-center gap-3 text-slate-600">
          <RunStatus run={run} />
          <span>{run.baseline ? 'Built-in baseline' : `${run.format} file ${run.fileName ?? ''}`}</span>
          <span>· scored on {run.release ? `release ${run.release}` : 'the current queries'}</span>
          <span>· <When at={run.createdAt} />{run.createdBy && ` by ${run.createdBy}`}</span>
        </div>
        {run.status === 'FAILED' && <p role="alert" className="mt-2 text-red-700">The run failed: {run.message}</p>}
        {run.summary && <MeansTable url={url} overall={run.summary.overall} bySplit={run.summary.bySplit} />}
      </div>
      {run.warnings.length > 0 && (
        <details className="rounded-lg border border-amber-200 bg-amber-50 p-4">
          <summary className="cursor-pointer font-medium text-amber-900">{run.warnings.length} warning{run.warnings.length > 1 ? 's' : ''} in the run file</summary>
          <ul className="mt-2 space-y-1 font-mono text-xs">
            {run.warnings.map((w, i) => <li key={i}>{w.file}:{w.line}: {w.reason}</li>)}
          </ul>
        </details>
      )}
      {run.status === 'DONE' && <RunQueries slug={slug} name={name} runId={run.id} splits={run.summary?.bySplit.map((s) => s.split) ?? []} />}
    </div>
  );
}

/** The means overall and per group of queries; the split rows of the summary show until the grouping loads. */
function MeansTable({ url, overall, bySplit }: { url: string; overall: MetricMeans; bySplit: (MetricMeans & { split: string | null })[] }) {
  const [params, setParams] = useUrlParams();
  const by = groupByParam(params);
  const grouping = useQuery({
    queryKey: ['query-set-run-groups', url, by],
    queryFn: () => requestJson<{ grouping: RunGrouping<GroupMeans> }>(`${url}?groupBy=${encodeURIComponent(by)}`),
    placeholderData: keepPreviousData,
  });
  const loaded = grouping.data?.grouping.by === by ? grouping.data.grouping : null;
  const groups = loaded?.groups ?? (by === 'split' ? bySplit.map((s) => ({ ...s, group: splitLabel(s.split) })) : []);
  const rows = [...(groupsWorthShowing(by, groups) ? groups : []).map((g) => ({ ...g, label: g.group, all: false })), { ...overall, label: 'All', all: true }];
  return (
    <div className="mt-3 space-y-2">
      <GroupBySelect id="run-group-by" value={by} keys={grouping.data?.grouping.keys ?? []} onChange={(next) => setParams({ groupBy: next === 'split' ? null : next })} />
      {grouping.error && <p role="alert" className="text-red-700">{grouping.error.message}</p>}
      <div aria-busy={grouping.isFetching} className="table-scroll">
        <table className="w-full" data-testid="run-summary">
          <thead className="text-left text-slate-600">
            <tr>
              <th scope="col" className="py-1 capitalize">{groupingLabel(by)}</th><th scope="col" className="text-right">Queries</th>
              <th scope="col" className="text-right" title="Left out of the means">Without answers</th>
              <th scope="col" className="text-right" title="Scored 0 on every metric">Not retrieved</th>
              {METRICS.map((m) => <th key={m} scope="col" className="px-1 text-right">{METRIC_LABELS[m]}</th>)}
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.all ? '' : `group:${r.label}`} className={`border-t border-slate-100 tabular-nums ${r.all ? 'font-medium' : ''}`}>
                <th scope="row" className="py-1 text-left font-normal">{r.label}</th>
                <td className="text-right">{fmtCount(r.queries)}</td>
                <td className="text-right">{fmtCount(r.withoutAnswers)}</td>
                <td className="text-right">{fmtCount(r.notRetrieved)}</td>
                {METRICS.map((m) => <td key={m} className="px-1 text-right" data-metric={m}>{r.means ? fmtScore(r.means[m]) : '—'}</td>)}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

function RunQueries({ slug, name, runId, splits }: { slug: string; name: string; runId: number; splits: (string | null)[] }) {
  const [params, setParams] = useUrlParams();
  const sortParam = params.get('sort');
  const sort: Metric | 'position' = METRICS.find((m) => m === sortParam) ?? 'position';
  const split = params.get('split') ?? '';
  const page = intParam(params, 'page', 1);
  const { data, error, isFetching } = useQuery({
    queryKey: ['query-set-run-queries', slug, name, runId, sort, split, page],
    queryFn: () => {
      const search = new URLSearchParams({ sort, limit: String(PAGE_SIZE), offset: String((page - 1) * PAGE_SIZE) });
      if (split) search.set('split', split);
      return requestJson<{ total: number; items: RunQueryRow[] }>(`${setApi(slug, name)}/runs/${runId}/queries?${search}`);
    },
    placeholderData: keepPreviousData,
  });
  const named = splits.filter((s): s is string => s !== null);

  return (
    <section aria-labelledby="per-query-heading" className="space-y-2 rounded-lg border border-slate-200 bg-white p-4">
      <h2 id="per-query-heading" className="font-medium">Per query</h2>
      <div className="flex flex-wrap gap-4">
        <Field id="run-sort" label="Sort" inline>
          <select id="run-sort" value={sort} onChange={(e) => setParams({ sort: e.target.value === 'position' ? null : e.target.value, page: null })} className="rounded border border-slate-300 px-2 py-1">
            <option value="position">in set order</option>
            {METRICS.map((m) => <option key={m} value={m}>by {METRIC_LABELS[m]}, worst first</option>)}
          </select>
        </Field>
        {named.length > 0 && (
          <Field id="run-split" label="Split" inline>
            <select id="run-split" value={split} onChange={(e) => setParams({ split: e.target.value, page: null })} className="rounded border border-slate-300 px-2 py-1">
              <option value="">All splits</option>
              {named.map((s) => <option key={s} value={s}>{s}</option>)}
            </select>
          </Field>
        )}
      </div>
      {error && <p role="alert" className="text-red-700">{error.message}</p>}
      {data && (
        <div aria-busy={isFetching} className={`table-scroll ${isFetching ? 'opacity-60' : ''}`}>
          <table className="w-full" data-testid="run-queries">
            <thead className="text-left text-slate-600">
              <tr>
                <th scope="col" className="py-1">Query</th><th scope="col">Text</th><th scope="col">Split</th>
                <th scope="col" className="text-right">Answers</th><th scope="col" className="text-right">Retrieved</th>
                {METRICS.map((m) => (
                  <th key={m} scope="col" className="px-1 text-right" aria-sort={sort === m ? 'ascending' : undefined}>{METRIC_LABELS[m]}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {data.items.map((q) => (
                <tr key={q.id} className="border-t border-slate-100 align-top tabular-nums">
                  <td className="py-1 pr-2 font-mono"><Link href={queryPage(slug, name, q.id)} className="text-blue-700 hover:underline">{q.id}</Link></td>
                  <td className="max-w-md truncate pr-2" title={q.text}>{q.text}</td>
                  <td className="pr-2 text-slate-600">{splitLabel(q.split)}</td>
                  <td className="text-right">{fmtCount(q.answers)}</td>
                  <td className="text-right">{fmtCount(q.retrieved)}</td>
                  {METRICS.map((m) => <td key={m} className="px-1 text-right" data-metric={m}>{q.metrics ? fmtScore(q.metrics[m]) : '—'}</td>)}
                </tr>
              ))}
            </tbody>
          </table>
          <p className="mt-1 text-xs text-slate-500">“—”: the query has no answers and is left out of the means.</p>
          <Pager page={page} pages={Math.max(1, Math.ceil(data.total / PAGE_SIZE))} onPage={(p) => setParams({ page: p === 1 ? null : p })} />
        </div>
      )}
    </section>
  );
}
