'use client';

import { useQuery } from '@tanstack/react-query';
import type { AssignmentCounts, CampaignAgreement, CampaignStats } from '@/lib/authoring/stats';
import { Panel } from '../panel';
import { requestJson } from '../queries/api';
import { fmtCount, fmtScore } from '../queries/format';
import { campaignApi } from './api';
import { StatusChart } from './status-chart';

const COLUMNS: { key: Exclude<keyof AssignmentCounts, 'medianMinutesPerQuery'>; label: string; help: string }[] = [
  { key: 'assigned', label: 'Assigned', help: 'Every seed handed out' },
  { key: 'active', label: 'Active', help: 'Leased now' },
  { key: 'drafted', label: 'Drafted', help: 'With a query written' },
  { key: 'submitted', label: 'Submitted', help: 'Handed in at least once' },
  { key: 'returned', label: 'Returned', help: 'Sent back to the author' },
  { key: 'approved', label: 'Approved', help: 'In the query set' },
  { key: 'skipped', label: 'Skipped', help: 'Given up, with a reason' },
  { key: 'expired', label: 'Expired', help: 'Lease ran out; the seed went back to the pool' },
];

const fmtMinutes = (m: number | null) => (m === null ? '—' : m.toLocaleString('en', { maximumFractionDigits: 1 }));

/** The campaign's progress in total and per annotator, as numbers and a chart, and the annotators' agreement. */
export function CampaignDashboard({ campaignId }: { campaignId: number }) {
  const stats = useQuery({
    queryKey: ['campaign-stats', campaignId],
    queryFn: () => requestJson<CampaignStats>(`${campaignApi(campaignId)}/stats`),
  });
  if (stats.error) return <p role="alert" className="text-red-700">Could not load the dashboard: {stats.error.message}</p>;
  if (!stats.data) return <p className="text-sm text-slate-500">Loading the dashboard…</p>;
  const { totals, annotators, agreement } = stats.data;
  return (
    <section aria-labelledby="dashboard-heading" className="space-y-4" data-testid="campaign-dashboard">
      <h2 id="dashboard-heading" className="text-lg font-medium">Dashboard</h2>
      <dl className="grid grid-cols-3 gap-2 text-sm sm:grid-cols-5 lg:grid-cols-9" data-testid="campaign-totals">
        {COLUMNS.map((c) => (
          <div key={c.key} className="rounded-lg border border-slate-200 bg-white p-2" title={c.help}>
            <dt className="text-slate-600">{c.label}</dt>
            <dd className="text-lg font-semibold tabular-nums" data-testid={`total-${c.key}`}>{fmtCount(totals[c.key])}</dd>
          </div>
        ))}
        <div className="rounded-lg border border-slate-200 bg-white p-2" title="From lease to submission, median over submitted queries">
          <dt className="text-slate-600">Median minutes per query</dt>
          <dd className="text-lg font-semibold tabular-nums">{fmtMinutes(totals.medianMinutesPerQuery)}</dd>
        </div>
      </dl>
      <Agreement agreement={agreement} />
      {annotators.length === 0 ? (
        <p className="text-sm text-slate-500">No seed has been handed out yet.</p>
      ) : (
        <div className="space-y-4">
          <Panel title="Per annotator">
            <div className="table-scroll">
              <table className="w-full text-sm" data-testid="annotator-stats">
                <thead className="text-left text-slate-600">
                  <tr>
                    <th scope="col" className="py-1">Annotator</th>
                    {COLUMNS.map((c) => <th key={c.key} scope="col" className="px-1 text-right" title={c.help}>{c.label}</th>)}
                    <th scope="col" className="px-1 text-right" title="Median minutes from lease to submission">Min./query</th>
                    <th scope="col" className="px-1 text-right" title="Mean Jaccard of their answer sets with the others' on shared seeds">Jaccard</th>
                  </tr>
                </thead>
                <tbody>
                  {annotators.map((a) => (
                    <tr key={a.annotatorId} className="border-t border-slate-100">
                      <th scope="row" className="py-1 pr-2 text-left font-normal">{a.annotator}</th>
                      {COLUMNS.map((c) => <td key={c.key} className="px-1 text-right tabular-nums">{fmtCount(a[c.key])}</td>)}
                      <td className="px-1 text-right tabular-nums">{fmtMinutes(a.medianMinutesPerQuery)}</td>
                      <td className="px-1 text-right tabular-nums">{a.meanJaccard === null ? '—' : fmtScore(a.meanJaccard)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </Panel>
          <Panel title="Assignments by state">
            <StatusChart annotators={annotators} />
          </Panel>
        </div>
      )}
    </section>
  );
}

function Agreement({ agreement: a }: { agreement: CampaignAgreement }) {
  return (
    <Panel title="Agreement">
      <div className="space-y-1 text-sm" data-testid="agreement">
        {a.meanJaccard === null && a.alpha === null ? (
          <p className="text-slate-600">Not enough overlapping work yet: agreement needs seeds with work handed in by two annotators or more.</p>
        ) : (
          <p>
            Mean pairwise Jaccard of the answer sets: <strong data-testid="agreement-jaccard">{a.meanJaccard === null ? '—' : fmtScore(a.meanJaccard)}</strong>
            {' '}· Krippendorff’s alpha of the judgments: <strong data-testid="agreement-alpha">{a.alpha === null ? '—' : fmtScore(a.alpha)}</strong>
            {' '}<span className="text-slate-600">
              ({fmtCount(a.seedsCompared)} {a.seedsCompared === 1 ? 'seed' : 'seeds'} compared, {fmtCount(a.pairs)} {a.pairs === 1 ? 'pair' : 'pairs'} of
              answer sets, {fmtCount(a.units)} {a.units === 1 ? 'entity' : 'entities'} judged by two or more)
            </span>
          </p>
        )}
        <p className="text-xs text-slate-500">
          Jaccard is the share of answers two annotators of a seed have in common (1: the same set); alpha is how much their
          relevant / not relevant / unsure judgments agree beyond chance (1: always, 0: no better than chance).
        </p>
      </div>
    </Panel>
  );
}
