'use client';

import { useQuery } from '@tanstack/react-query';
import { Bar, BarChart, CartesianGrid, ErrorBar, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { AuditErrors, ErrorRate } from '@/lib/authoring/audit-errors';
import { ChartFrame } from '../chart-frame';
import { Panel } from '../panel';
import { requestJson } from '../queries/api';
import { campaignApi } from './api';

const pct = (x: number | null) => (x === null ? '—' : `${(x * 100).toLocaleString('en', { maximumFractionDigits: 1 })}%`);

/** One group per bar: its error rate with the 95% interval as an error bar; the numbers in the table under it. */
function RateChart({ title, rates, testId }: { title: string; rates: ErrorRate[]; testId: string }) {
  const data = rates.map((r) => ({ group: r.group, rate: (r.rate ?? 0) * 100, interval: [((r.rate ?? 0) - (r.low ?? 0)) * 100, ((r.high ?? 0) - (r.rate ?? 0)) * 100] }));
  return (
    <ChartFrame label={`Error rate ${title}, with 95% Wilson intervals`} testId={testId} className="h-56" table={{
      columns: [title.replace(/^per /, ''), 'Audited', 'Wrong', 'Error rate', '95% interval'],
      rows: rates.map((r) => ({ key: r.group, cells: [r.group, r.audited, r.errors, pct(r.rate), `${pct(r.low)} – ${pct(r.high)}`] })),
    }}>
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} accessibilityLayer={false} margin={{ top: 8, right: 8, bottom: 8, left: 8 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="group" interval={0} fontSize={11} />
          <YAxis domain={[0, 100]} unit="%" fontSize={11} />
          <Tooltip formatter={(v) => `${Number(v).toFixed(1)}%`} />
          <Bar dataKey="rate" name="Error rate" fill="#dc2626" isAnimationActive={false}>
            <ErrorBar dataKey="interval" width={6} stroke="#0f172a" />
          </Bar>
        </BarChart>
      </ResponsiveContainer>
    </ChartFrame>
  );
}

/**
 * What the audit found: the share of reviewed queries that were wrong (an answer removed or added, the query
 * flagged or removed), in total, per split and per origin, each with its 95% Wilson score interval.
 */
export function AuditErrorRates({ campaignId }: { campaignId: number }) {
  const errors = useQuery({ queryKey: ['audit-errors', campaignId], queryFn: () => requestJson<AuditErrors>(`${campaignApi(campaignId)}/audit/errors`) });
  if (errors.error) return <p role="alert" className="text-red-700">Could not load the error rates: {errors.error.message}</p>;
  if (!errors.data) return <p className="text-sm text-slate-500">Loading the error rates…</p>;
  const e = errors.data;
  return (
    <Panel title="Errors found">
      <div className="space-y-4 text-sm" data-testid="audit-errors">
        <p data-testid="audit-error-total">
          {e.audited === 0 ? `No query reviewed yet (of ${e.items}).`
            : <>{e.total.errors} of {e.audited} reviewed queries were wrong ({e.items} in the audit): <strong>{pct(e.total.rate)}</strong>, 95% interval {pct(e.total.low)} – {pct(e.total.high)}.</>}
        </p>
        {e.audited > 0 && (
          <>
            <p className="text-slate-600">
              Fixes: {e.changes.answersRemoved} answers removed, {e.changes.answersAdded} added, {e.changes.flagged} queries flagged, {e.changes.removed} removed.
            </p>
            <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
              <div className="min-w-0"><h3 className="mb-1 font-medium">Per split</h3><RateChart title="per split" rates={e.bySplit} testId="audit-errors-split" /></div>
              <div className="min-w-0"><h3 className="mb-1 font-medium">Per origin</h3><RateChart title="per origin" rates={e.byOrigin} testId="audit-errors-origin" /></div>
            </div>
          </>
        )}
      </div>
    </Panel>
  );
}
