'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { StudyReport } from '@/lib/studies/report';
import { Panel } from '../panel';
import { requestJson } from '../queries/api';
import { fmtCount } from '../queries/format';
import { useUrlParams } from '../queries/use-url-params';
import { AgreementTable } from './agreement-table';
import { studyApi } from './api';
import { AttentionPanel } from './attention-panel';
import { DimensionPanel } from './dimension-panel';
import { DiversityTable } from './diversity-table';
import { ExportLinks } from './export-links';
import { ItemTable } from './item-table';
import { ModelRaterResults } from './model-rater-results';
import { useParticipants } from './participant-table';
import { RatesTable } from './rates-table';

/** The dimension the set-level diversity measures are shown beside. */
const DIVERSITY_KEY = 'diversity';

/**
 * A study's results: the Table-5 rates per source, agreement, the distribution of each dimension, attention
 * checks, the items by disagreement, the sets' measured diversity and the downloads. `?excludeFailed=1`
 * leaves out the participants who failed an attention check, here and in the summary downloads.
 */
export function StudyResults({ studyId }: { studyId: number }) {
  const [params, setParams] = useUrlParams();
  // Kept in state as well as in the URL: the box follows the click at once, not after the URL update.
  const [excludeFailed, setExcludeFailed] = useState(params.get('excludeFailed') === '1');
  const report = useQuery({
    queryKey: ['study-results', studyId, excludeFailed],
    queryFn: () => requestJson<StudyReport>(`${studyApi(studyId)}/results${excludeFailed ? '?excludeFailed=1' : ''}`),
    placeholderData: keepPreviousData,
  });
  const participants = useParticipants(studyId);
  if (report.error) return <p role="alert" className="text-red-700">Could not load the results: {report.error.message}</p>;
  if (!report.data) return <p className="text-sm text-slate-500">Computing the results…</p>;
  const r = report.data;
  const definitions = new Map(r.study.dimensions.map((d) => [d.key, d]));
  const labels = new Map(r.study.dimensions.map((d) => [d.key, d.label]));
  const hasDiversityDimension = r.dimensions.some((d) => d.key === DIVERSITY_KEY);
  return (
    <div className="space-y-6" aria-busy={report.isFetching}>
      <div className="flex flex-wrap items-center gap-4 rounded-lg border border-slate-200 bg-white p-4 text-sm">
        <p data-testid="results-totals">
          {fmtCount(r.participants)} {r.participants === 1 ? 'participant' : 'participants'}, {fmtCount(r.ratings)} ratings
        </p>
        <label className="flex items-center gap-2">
          <input type="checkbox" checked={excludeFailed} disabled={!r.attention.checks}
            onChange={(e) => { setExcludeFailed(e.target.checked); setParams({ excludeFailed: e.target.checked ? 1 : null }); }} />
          Leave out failed participants
        </label>
        {report.isFetching && <span role="status" className="text-slate-500">Updating…</span>}
      </div>

      {r.dimensions.length === 0 ? (
        <p className="text-sm text-slate-500">This study has only free-text dimensions: its answers are in the ratings download.</p>
      ) : (
        <>
          <Panel title="Rates per source"><RatesTable dimensions={r.dimensions} /></Panel>
          <Panel title="Agreement"><AgreementTable dimensions={r.dimensions} /></Panel>
          {r.dimensions.map((d) => (
            <DimensionPanel key={d.key} result={d} dimension={definitions.get(d.key)}
              aside={d.key === DIVERSITY_KEY ? <DiversityTable diversity={r.diversity} /> : undefined} />
          ))}
        </>
      )}
      {!hasDiversityDimension && r.diversity.length > 0 && <Panel title="Set diversity"><DiversityTable diversity={r.diversity} /></Panel>}

      <Panel title="Attention checks">
        <AttentionPanel attention={r.attention} labels={labels} participants={participants.data?.items ?? []} />
      </Panel>

      <Panel title="Items">
        {r.items.length ? <ItemTable items={r.items} dimensions={r.dimensions} /> : <p className="text-sm text-slate-500">No item.</p>}
      </Panel>

      {r.modelRaters.length > 0 && <ModelRaterResults raters={r.modelRaters} human={r.dimensions} definitions={definitions} />}

      <Panel title="Downloads"><ExportLinks studyId={studyId} excludeFailed={excludeFailed} modelRaters={r.modelRaters.length > 0} /></Panel>
    </div>
  );
}
