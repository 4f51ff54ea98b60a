'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import type { StudyDetail } from '@/lib/studies/admin';
import { CloseWithConfirm } from '../close-confirm';
import { Panel } from '../panel';
import { requestJson } from '../queries/api';
import { fmtCount } from '../queries/format';
import { MarkdownText } from '../queries/markdown-text';
import { resultsPage, studyApi } from './api';
import { linkTemplate, platformName } from '@/lib/studies/crowd';
import { CrowdPanel } from './crowd-panel';
import { LinkIssuer } from './link-issuer';
import { ModelRaterPanel } from './model-rater-panel';
import { ParticipantTable, participantsKey } from './participant-table';
import { StudyStatus } from './study-status';
import { When } from '@/components/when';

export const studyKey = (id: number) => ['study', id] as const;

const BUTTON = 'rounded bg-blue-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-blue-700 disabled:opacity-60';

/** A study's page for managers: status and controls, settings, sources, participants and links. */
export function StudyOverview({ slug, initial }: { slug: string; initial: StudyDetail }) {
  const queryClient = useQueryClient();
  const study = useQuery({
    queryKey: studyKey(initial.id),
    queryFn: () => requestJson<StudyDetail>(studyApi(initial.id)),
    initialData: initial,
  });
  const s = study.data;
  const refresh = () => Promise.all([
    queryClient.invalidateQueries({ queryKey: studyKey(s.id) }),
    queryClient.invalidateQueries({ queryKey: participantsKey(s.id) }),
  ]);
  const setStatus = useMutation({
    mutationFn: (status: StudyDetail['status']) => requestJson<{ status: string }>(studyApi(s.id), { method: 'PATCH', json: { status } }),
    onSuccess: refresh,
  });
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center gap-3 rounded-lg border border-slate-200 bg-white p-4 text-sm">
        <StudyStatus study={s} testId="study-status" />
        {s.status === 'OPEN' ? (
          <CloseWithConfirm label="Close study" keepLabel="Keep it open" pending={setStatus.isPending} onConfirm={() => setStatus.mutate('CLOSED')}
            question="Close this study? No answer will be taken any more; what has been rated stays, and you can reopen it." />
        ) : (
          <button type="button" className={BUTTON} disabled={setStatus.isPending} onClick={() => setStatus.mutate('OPEN')}>{s.status === 'CLOSED' ? 'Reopen' : 'Open'}</button>
        )}
        <span className="text-slate-600">
          {s.status === 'OPEN' ? 'Participants can rate while the study is within its dates.' : s.status === 'DRAFT' ? 'Nobody can rate until the study is opened.' : 'Closed: no answer is taken.'}
        </span>
        <Link href={resultsPage(slug, s.id)} className="ml-auto rounded border border-slate-300 px-3 py-1.5 text-blue-700 hover:bg-blue-50">Results</Link>
        {setStatus.error && <p role="alert" className="w-full text-red-700">{setStatus.error.message}</p>}
      </div>

      <dl className="grid grid-cols-2 gap-2 text-sm sm:grid-cols-4 lg:grid-cols-6" data-testid="study-counts">
        {([['Items', s.items], ['Attention checks', s.attentionChecks], ['Participants', s.participants], ['Finished', s.finished], ['Ratings', s.ratings]] as const).map(([label, n]) => (
          <div key={label} className="rounded-lg border border-slate-200 bg-white p-2">
            <dt className="text-slate-600">{label}</dt>
            <dd className="text-lg font-semibold tabular-nums">{fmtCount(n)}</dd>
          </div>
        ))}
      </dl>

      <div className="grid gap-4 lg:grid-cols-2">
        <Panel title="Settings">
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm" data-testid="study-settings">
            <dt className="text-slate-600">Opens</dt><dd>{s.opensAt ? <When at={s.opensAt} /> : 'when opened'}</dd>
            <dt className="text-slate-600">Closes</dt><dd>{s.closesAt ? <When at={s.closesAt} /> : 'when closed'}</dd>
            <dt className="text-slate-600">Items per participant</dt><dd>{fmtCount(s.itemsPerParticipant)}</dd>
            <dt className="text-slate-600">Participants per item</dt><dd>{fmtCount(s.participantsPerItem)}</dd>
            <dt className="text-slate-600">Seed</dt><dd className="tabular-nums">{s.seed}</dd>
            <dt className="text-slate-600">Answers shown</dt><dd>{s.showAnswers ? 'yes' : 'no'}</dd>
            <dt className="text-slate-600">Changes after finishing</dt><dd>{s.allowEditsAfterFinish ? 'allowed' : 'not allowed'}</dd>
            <dt className="text-slate-600">Study link</dt><dd>{s.hasStudyLink ? (s.crowd ? `yes, for ${platformName(s.crowd.platform)}` : 'yes') : 'no'}</dd>
            <dt className="text-slate-600">Dimensions</dt>
            <dd>
              <ul>
                {s.dimensions.map((d) => (
                  <li key={d.key}>{d.label} <span className="text-slate-500">({d.kind === 'scale' ? `${d.min}–${d.max}` : d.kind === 'binary' ? 'yes / no' : 'free text'}{d.required ? '' : ', optional'})</span></li>
                ))}
              </ul>
            </dd>
          </dl>
        </Panel>
        <Panel title="Sources">
          <table className="w-full text-sm" data-testid="study-sources">
            <thead className="text-left text-slate-600"><tr><th scope="col" className="py-1">Source</th><th scope="col" className="text-right">Items</th></tr></thead>
            <tbody>
              {s.sources.map((src) => (
                <tr key={src.source} className="border-t border-slate-100"><td className="py-1 font-mono">{src.source}</td><td className="text-right tabular-nums">{fmtCount(src.items)}</td></tr>
              ))}
            </tbody>
          </table>
        </Panel>
      </div>

      <details className="rounded-lg border border-slate-200 bg-white p-4">
        <summary className="cursor-pointer font-medium">Instructions{s.consent ? ' and consent' : ''}</summary>
        <div className="mt-3 space-y-4">
          <MarkdownText text={s.instructions} />
          {s.consent && <div className="border-t border-slate-100 pt-3"><MarkdownText text={s.consent} /></div>}
        </div>
      </details>

      <Panel title="Links">
        <LinkIssuer studyId={s.id} hasStudyLink={s.hasStudyLink} onStudyLink={refresh} linkSuffix={s.crowd ? linkTemplate(s.crowd) : ''} />
      </Panel>

      <Panel title="Recruiting platform">
        <CrowdPanel studyId={s.id} crowd={s.crowd} onSaved={refresh} />
      </Panel>

      <Panel title="Participants">
        <div className="text-sm"><ParticipantTable studyId={s.id} /></div>
      </Panel>

      <Panel title="Model raters">
        <ModelRaterPanel studyId={s.id} />
      </Panel>
    </div>
  );
}
