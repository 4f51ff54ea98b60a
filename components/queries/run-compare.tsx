'use client';

import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { METRICS, METRIC_LABELS, type Metric, type RunComparison } from '@/lib/queries/metrics';
import type { GroupComparison } from '@/lib/queries/run-groups';
import type { RunGrouping, RunSummary } from '@/lib/queries/runs';
import { requestJson, setApi } from './api';
import { Field } from './field';
import { fmtCount, fmtPValue, fmtScore } from './format';
import { GroupBySelect, groupByParam, groupingLabel, groupsWorthShowing } from './group-by';
import { intParam } from './use-url-params';

interface Props {
  slug: string;
  name: string;
  /** The scored runs. */
  runs: RunSummary[];
  params: URLSearchParams;
  setParams: (patch: Record<string, string | number | null>) => void;
}

type Comparison = RunComparison & { a: RunSummary; b: RunSummary; grouping: RunGrouping<GroupComparison> };

const signed = (x: number) => `${x > 0 ? '+' : x < 0 ? '−' : '±'}${fmtScore(Math.abs(x))}`;

/**
 * Two runs picked (`?a=&b=`) and compared metric by metric, with a paired randomization test, and per query
 * group (`?groupBy=`, split by default).
 */
export function RunCompare({ slug, name, runs, params, setParams }: Props) {
  const a = intParam(params, 'a', 0);
  const b = intParam(params, 'b', 0);
  const by = groupByParam(params);
  // Until picked: the runs in the URL, else the newest run (B) against the one before it (A).
  const [pickedA, setPickA] = useState<number | null>(null);
  const [pickedB, setPickB] = useState<number | null>(null);
  const pickA = pickedA ?? (a || runs[1]?.id || 0);
  const pickB = pickedB ?? (b || runs[0]?.id || 0);
  const comparison = useQuery({
    queryKey: ['query-set-compare', slug, name, a, b, by],
    queryFn: () => requestJson<Comparison>(`${setApi(slug, name)}/compare?a=${a}&b=${b}&groupBy=${encodeURIComponent(by)}`),
    enabled: a > 0 && b > 0,
  });

  if (runs.length < 2) return null;

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    setParams({ a: pickA, b: pickB });
  }

  const picker = (run: 'a' | 'b', value: number, set: (id: number) => void) => (
    <Field id={`compare-${run}`} label={`Run ${run.toUpperCase()}`} inline>
      <select id={`compare-${run}`} value={value} onChange={(e) => set(Number(e.target.value))} className="rounded border border-slate-300 px-2 py-1">
        {runs.map((r) => <option key={r.id} value={r.id}>{r.name} (#{r.id})</option>)}
      </select>
    </Field>
  );
  const c = comparison.data;
  return (
    <div className="space-y-2 rounded-lg border border-slate-200 bg-white p-4" data-testid="run-compare">
      <h3 className="font-medium">Compare two runs</h3>
      <form onSubmit={onSubmit} className="flex flex-wrap items-center gap-4">
        {picker('a', pickA, setPickA)}
        {picker('b', pickB, setPickB)}
        <button type="submit" disabled={pickA === pickB} className="rounded bg-blue-600 px-3 py-1 text-white hover:bg-blue-700 disabled:opacity-60">Compare</button>
      </form>
      {comparison.error && <p role="alert" className="text-red-700">{comparison.error.message}</p>}
      {comparison.isFetching && !c && <p className="text-slate-500">Comparing…</p>}
      {c && (
        <>
          <table className="w-full" data-testid="compare-table">
            <caption className="mb-1 text-left text-slate-600">
              {c.b.name} (B) against {c.a.name} (A) on {fmtCount(c.queries)} queries with answers
            </caption>
            <thead className="text-left text-slate-600">
              <tr>
                <th scope="col" className="py-1">Metric</th><th scope="col" className="text-right">A</th><th scope="col" className="text-right">B</th>
                <th scope="col" className="text-right">B − A</th><th scope="col" className="text-right">B better</th><th scope="col" className="text-right">B worse</th>
                <th scope="col" className="text-right">Ties</th><th scope="col" className="text-right">p-value</th>
              </tr>
            </thead>
            <tbody>
              {c.metrics.map((m) => (
                <tr key={m.metric} className="border-t border-slate-100 tabular-nums">
                  <th scope="row" className="py-1 text-left font-normal">{METRIC_LABELS[m.metric]}</th>
                  <td className="text-right">{fmtScore(m.meanA)}</td><td className="text-right">{fmtScore(m.meanB)}</td>
                  <td className="text-right">{signed(m.difference)}</td>
                  <td className="text-right">{fmtCount(m.wins)}</td><td className="text-right">{fmtCount(m.losses)}</td><td className="text-right">{fmtCount(m.ties)}</td>
                  <td className="text-right">{fmtPValue(m.pValue)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className="text-xs text-slate-500">
            p-value: two-sided paired randomization test of the mean difference, {fmtCount(c.permutations)} random sign flips (seed {c.seed}).
          </p>
          <GroupBySelect id="compare-group-by" value={by} keys={c.grouping.keys} onChange={(next) => setParams({ groupBy: next === 'split' ? null : next })} />
          {groupsWorthShowing(by, c.grouping.groups) && <GroupsTable grouping={c.grouping} />}
        </>
      )}
    </div>
  );
}

/** One metric of the comparison per query group: both means, the difference, and B's wins and losses. */
function GroupsTable({ grouping }: { grouping: RunGrouping<GroupComparison> }) {
  const [metric, setMetric] = useState<Metric>('mrr');
  return (
    <div className="space-y-2">
      <Field id="compare-group-metric" label="Metric" inline>
        <select id="compare-group-metric" value={metric} onChange={(e) => setMetric(e.target.value as Metric)} className="rounded border border-slate-300 px-2 py-1">
          {METRICS.map((m) => <option key={m} value={m}>{METRIC_LABELS[m]}</option>)}
        </select>
      </Field>
      <table className="w-full" data-testid="compare-groups">
        <thead className="text-left text-slate-600">
          <tr>
            <th scope="col" className="py-1 capitalize">{groupingLabel(grouping.by)}</th><th scope="col" className="text-right">Queries</th>
            <th scope="col" className="text-right">A</th><th scope="col" className="text-right">B</th><th scope="col" className="text-right">B − A</th>
            <th scope="col" className="text-right">B better</th><th scope="col" className="text-right">B worse</th><th scope="col" className="text-right">Ties</th>
          </tr>
        </thead>
        <tbody>
          {grouping.groups.map((g) => {
            const m = g.metrics.find((x) => x.metric === metric)!;
            return (
              <tr key={g.group} className="border-t border-slate-100 tabular-nums">
                <th scope="row" className="py-1 text-left font-normal">{g.group}</th>
                <td className="text-right">{fmtCount(g.queries)}</td>
                <td className="text-right">{fmtScore(m.meanA)}</td><td className="text-right">{fmtScore(m.meanB)}</td>
                <td className="text-right">{signed(m.difference)}</td>
                <td className="text-right">{fmtCount(m.wins)}</td><td className="text-right">{fmtCount(m.losses)}</td><td className="text-right">{fmtCount(m.ties)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
