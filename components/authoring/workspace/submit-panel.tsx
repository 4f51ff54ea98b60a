'use client';

import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import type { AssignmentView } from '@/lib/authoring/assignments';
import type { Submission } from '@/lib/authoring/submit';
import { plural } from '@/lib/format/plural';
import { requestJson } from '@/components/queries/api';
import { assignmentApi, campaignApi, campaignPage, workPage } from '../api';

interface SubmitProps {
  assignmentId: number;
  /** Why the query cannot be submitted yet; null when it can. */
  blockedBy: string | null;
  /** Saves what is unsaved and gives the draft version to submit. */
  flush: () => Promise<number>;
  /** How many candidates are judged of how many, when the requirement lists some: submitting with some unjudged asks first. */
  progress: { judged: number; total: number } | null;
  onSubmitted: (submission: Submission) => void;
}

/**
 * Hands the query and its judged answers in for review, once the draft is saved. With candidates left
 * unjudged it asks first, saying how many, and only the second click submits.
 */
export function SubmitButton({ assignmentId, blockedBy, flush, progress, onSubmitted }: SubmitProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const unjudged = progress ? progress.total - progress.judged : 0;

  async function submit() {
    setConfirming(false);
    setBusy(true);
    setError(null);
    try {
      const draftVersion = await flush();
      onSubmitted(await requestJson<Submission>(`${assignmentApi(assignmentId)}/submit`, { method: 'POST', json: { draftVersion } }));
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="space-y-1">
      <button type="button" disabled={busy || confirming || blockedBy !== null} onClick={unjudged > 0 ? () => setConfirming(true) : submit}
        aria-describedby={blockedBy ? 'submit-blocked' : undefined}
        className="rounded bg-blue-700 px-4 py-1.5 text-sm font-medium text-white hover:bg-blue-800 disabled:opacity-50">
        {busy ? 'Submitting…' : 'Submit for review'}
      </button>
      {blockedBy && <p id="submit-blocked" className="text-xs text-slate-600">{blockedBy}</p>}
      {confirming && progress && (
        <div role="alertdialog" aria-labelledby="submit-unjudged" className="space-y-2 rounded border border-amber-300 bg-amber-50 p-3 text-sm" data-testid="submit-confirm">
          <p id="submit-unjudged">
            {progress.judged.toLocaleString('en')} of {plural(progress.total, 'candidate')} judged; {unjudged.toLocaleString('en')} not judged — submit anyway?
            Unjudged candidates are not answers.
          </p>
          <div className="flex gap-2">
            <button type="button" onClick={submit} className="rounded bg-blue-700 px-3 py-1 font-medium text-white hover:bg-blue-800">Submit anyway</button>
            <button type="button" autoFocus onClick={() => setConfirming(false)} className="rounded border border-slate-300 bg-white px-3 py-1 hover:bg-slate-50">Keep judging</button>
          </div>
        </div>
      )}
      {error && <p role="alert" className="text-sm text-red-700">Not submitted: {error}</p>}
    </div>
  );
}

/** What was handed in, and the way on to the next seed of the campaign. */
export function Submitted({ submission, kbSlug, campaignId }: { submission: Submission; kbSlug: string; campaignId: number }) {
  const router = useRouter();
  const [state, setState] = useState<{ kind: 'idle' | 'claiming' | 'none' } | { kind: 'error'; message: string }>({ kind: 'idle' });
  const relevant = submission.answers.length - 1;

  async function next() {
    setState({ kind: 'claiming' });
    try {
      const { assignment } = await requestJson<{ assignment: AssignmentView | null }>(`${campaignApi(campaignId)}/claim`, { method: 'POST' });
      if (assignment) router.push(workPage(kbSlug, campaignId, assignment.id));
      else setState({ kind: 'none' });
    } catch (err) {
      setState({ kind: 'error', message: (err as Error).message });
    }
  }

  return (
    <div role="status" className="space-y-2 rounded-lg border border-green-300 bg-green-50 p-4 text-sm" data-testid="submitted">
      <p className="font-medium text-green-900">
        Submitted for review: {plural(submission.answers.length, 'answer')} (the seed
        {relevant > 0 ? ` and ${relevant} judged relevant` : ''}){submission.unsure > 0 ? `, ${submission.unsure} still unsure` : ''}.
      </p>
      <div className="flex flex-wrap items-center gap-3">
        <button type="button" onClick={next} disabled={state.kind === 'claiming'} className="rounded bg-blue-700 px-3 py-1.5 font-medium text-white hover:bg-blue-800 disabled:opacity-50">
          {state.kind === 'claiming' ? 'Getting a seed…' : 'Next seed'}
        </button>
        <Link href={campaignPage(kbSlug, campaignId)} className="text-blue-700 hover:underline">Back to the campaign</Link>
      </div>
      {state.kind === 'none' && <p>No seed is left for you in this campaign. Thank you!</p>}
      {state.kind === 'error' && <p role="alert" className="text-red-700">{state.message}</p>}
    </div>
  );
}
