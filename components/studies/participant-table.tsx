'use client';

import { useQuery } from '@tanstack/react-query';
import type { ParticipantSummary } from '@/lib/studies/admin';
import { consentWords, finishedWords, type ProgressWords } from '@/lib/studies/participant-progress';
import { When } from '@/components/when';
import { requestJson } from '../queries/api';
import { fmtCount } from '../queries/format';
import { studyApi } from './api';

export const participantsKey = (id: number) => ['study-participants', id] as const;

/** How an account or an anonymous participant is named on the study pages. */
export const participantName = (p: Pick<ParticipantSummary, 'id' | 'account' | 'externalId'> | undefined, id: number) =>
  p?.account ?? (p?.externalId ? `${p.externalId} (#${id})` : `anonymous #${id}`);

const OUTCOMES: Record<NonNullable<ParticipantSummary['outcome']>, string> = { COMPLETED: 'completed', SCREENED_OUT: 'screened out', ATTENTION_FAILED: 'failed attention' };

export function useParticipants(studyId: number) {
  return useQuery({
    queryKey: participantsKey(studyId),
    queryFn: () => requestJson<{ items: ParticipantSummary[] }>(`${studyApi(studyId)}/participants`),
  });
}

/** Why a participant holds no items: not started yet, gave them back for not rating, or found the study full. */
const noItems = (p: ParticipantSummary) => p.expiredAt ? 'expired, items given back' : p.startedAt ? 'none left' : 'not started';

/** A cell's words, its moment written in the reader's locale and time zone. */
const Words = ({ words }: { words: ProgressWords }) => ('text' in words ? words.text : <>{words.before}<When at={words.at} />{words.after}</>);

/** Who takes part and how far they are; a link not started yet has no items. */
export function ParticipantTable({ studyId }: { studyId: number }) {
  const participants = useParticipants(studyId);
  if (participants.error) return <p role="alert" className="text-red-700">Could not load the participants: {participants.error.message}</p>;
  if (!participants.data) return <p className="text-slate-500">Loading the participants…</p>;
  const items = participants.data.items;
  if (!items.length) return <p className="text-slate-500">Nobody takes part yet.</p>;
  return (
    <div className="table-scroll">
      <table className="w-full" data-testid="participant-table">
        <thead className="text-left text-slate-600">
          <tr>
            <th scope="col" className="py-1">Participant</th><th scope="col" className="text-right">Items</th><th scope="col" className="text-right">Rated</th>
            <th scope="col" className="pl-4">Consented</th><th scope="col" className="pl-4">Finished</th>
          </tr>
        </thead>
        <tbody>
          {items.map((p) => (
            <tr key={p.id} className="border-t border-slate-100">
              <td className="py-1">{participantName(p, p.id)}</td>
              <td className="text-right tabular-nums">{p.items ? fmtCount(p.items) : <span className="text-slate-500">{noItems(p)}</span>}</td>
              <td className="text-right tabular-nums">{fmtCount(p.rated)}</td>
              <td className="pl-4 text-slate-600"><Words words={consentWords(p)} /></td><td className="pl-4 text-slate-600">{p.outcome && p.outcome !== 'COMPLETED' ? OUTCOMES[p.outcome] : <Words words={finishedWords(p)} />}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
