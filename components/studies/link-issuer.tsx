'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { requestJson } from '../queries/api';
import { personalLinkUrl, studyApi, studyLinkUrl } from './api';
import { participantsKey } from './participant-table';
import { ShownOnce } from './shown-once';

const BUTTON = 'rounded border border-slate-300 px-3 py-1.5 hover:bg-slate-50 disabled:opacity-60';
const MAX_LINKS = 500;

/** Saves the links as a CSV file made in the browser: the server keeps only their hashes. */
function downloadCsv(links: string[], filename: string) {
  const blob = new Blob([`number,link\n${links.map((l, i) => `${i + 1},${l}`).join('\n')}\n`], { type: 'text/csv' });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.click();
  URL.revokeObjectURL(url);
}

/**
 * Personal links (one participant each) and a new study link; both are shown once. A study link set up for a
 * recruiting platform is shown with the platform's parameters added (`linkSuffix`), ready to paste there.
 */
export function LinkIssuer({ studyId, hasStudyLink, onStudyLink, linkSuffix }: { studyId: number; hasStudyLink: boolean; onStudyLink: () => void; linkSuffix: string }) {
  const queryClient = useQueryClient();
  const [count, setCount] = useState('10');
  const n = Number(count);
  const valid = Number.isInteger(n) && n >= 1 && n <= MAX_LINKS;
  const personal = useMutation({
    mutationFn: (links: number) => requestJson<{ tokens: string[] }>(`${studyApi(studyId)}/links`, { method: 'POST', json: { count: links } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: participantsKey(studyId) }),
  });
  const studyLink = useMutation({
    mutationFn: () => requestJson<{ token: string }>(`${studyApi(studyId)}/study-link`, { method: 'POST' }),
    onSuccess: onStudyLink,
  });
  const personalLinks = personal.data?.tokens.map((t) => personalLinkUrl(window.location.origin, t));
  return (
    <div className="space-y-4 text-sm">
      <div className="space-y-2">
        <div className="flex flex-wrap items-end gap-3">
          <div className="flex flex-col gap-1">
            <label htmlFor="link-count">Personal links</label>
            <input id="link-count" type="number" min={1} max={MAX_LINKS} value={count} onChange={(e) => setCount(e.target.value)}
              aria-describedby="link-count-help" className="w-24 rounded border border-slate-300 px-2 py-1" />
          </div>
          <button type="button" className={BUTTON} disabled={!valid || personal.isPending} onClick={() => personal.mutate(n)}>
            {personal.isPending ? 'Creating…' : valid ? `Create ${n} personal ${n === 1 ? 'link' : 'links'}` : 'Create personal links'}
          </button>
        </div>
        <p id="link-count-help" className="text-xs text-slate-500">One participant each, 1 to {MAX_LINKS}: hand them to people you invite.</p>
        {personal.error && <p role="alert" className="text-red-700">{personal.error.message}</p>}
        {personalLinks && (
          <ShownOnce title="Personal links" links={personalLinks} testId="personal-links">
            <button type="button" className={BUTTON} onClick={() => downloadCsv(personalLinks, `study-${studyId}-links.csv`)}>Download CSV</button>
          </ShownOnce>
        )}
      </div>
      <div className="space-y-2">
        <div className="flex flex-wrap items-center gap-3">
          <button type="button" className={BUTTON} disabled={studyLink.isPending} onClick={() => studyLink.mutate()}>
            {hasStudyLink ? 'New study link' : 'Create a study link'}
          </button>
          <span className="text-xs text-slate-500">
            {hasStudyLink ? 'Anyone with the study link takes part anonymously; a new one replaces it, and the old one stops working.' : 'This study has no study link: only personal links and accounts take part.'}
          </span>
        </div>
        {studyLink.error && <p role="alert" className="text-red-700">{studyLink.error.message}</p>}
        {studyLink.data && <ShownOnce title="Study link" links={[studyLinkUrl(window.location.origin, studyLink.data.token) + linkSuffix]} testId="new-study-link" />}
      </div>
    </div>
  );
}
