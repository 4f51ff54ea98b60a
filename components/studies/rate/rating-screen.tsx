'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import type { Participation } from '@/lib/studies/participate';
import { ApiError, requestJson } from '@/components/queries/api';
import { CrowdOutcomeView } from './crowd-outcome';
import { Intro } from './intro';
import { RatingSession } from './rating-session';
import { When } from '@/components/when';

/** How the participant reached the screen: a secret link, or signed in with an account. */
export type Access = 'link' | 'account';

const RESUME: Record<Access, string> = {
  link: 'This address is your own link to the study: keep it to yourself, and open it again to carry on.',
  account: 'Come back to this page, signed in as now, to carry on.',
};

/**
 * The participant's screen for one study, through its API base (`/api/participate/<token>` for a link,
 * `/api/studies/<id>/me` for a signed-in rater): instructions and consent, the items, or why there is nothing
 * to rate (an invalid or expired link, a closed study). Reading the participation changes nothing; the items
 * are handed out when the participant starts. After finishing, the answers are shown read-only, or still open
 * to changes when the study allows them.
 */
export function RatingScreen({ api, access }: { api: string; access: Access }) {
  const queryKey = ['participation', api];
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey,
    queryFn: () => requestJson<Participation>(api),
    // A refused link or a closed study will not change by asking again.
    retry: (count, err) => !(err instanceof ApiError && err.status < 500) && count < 2,
    // The screen holds the answers; reading the study again is its own decision (after a refused save).
    refetchOnWindowFocus: false,
  });
  const [begun, setBegun] = useState(false);
  const deadline = query.data?.crowd?.outcome ? null : query.data?.crowd?.deadline ?? null;
  // When a crowd participant's time is up the screen reads the participation again, which then says so.
  useEffect(() => {
    if (!deadline) return;
    const timer = setTimeout(() => void query.refetch(), Math.max(0, Date.parse(deadline) - Date.now()) + 500);
    return () => clearTimeout(timer);
  }, [deadline]);

  if (query.isPending) return <p role="status" className="text-sm text-slate-500">Loading the study…</p>;
  if (query.isError) return <LoadProblem error={query.error} access={access} onRetry={() => void query.refetch()} />;

  const p = query.data;
  if (p.crowd?.outcome) return <CrowdOutcomeView outcome={p.crowd.outcome} />;
  const consented = p.study.consent.trim() === '' || p.participant.consentedAt !== null;
  // Someone coming back who has already answered goes straight on to their items.
  const resuming = p.participant.startedAt !== null && consented && p.ratings.length > 0;
  const start = async () => {
    if (p.participant.startedAt === null || !consented) {
      queryClient.setQueryData(queryKey, await requestJson<Participation>(`${api}/start`, { method: 'POST' }));
    }
    setBegun(true);
  };
  const session = (readOnly: boolean) => (
    <RatingSession api={api} participation={p} readOnly={readOnly} resumeNote={RESUME[access]} onChanged={() => query.refetch()} />
  );
  const editable = p.study.allowEditsAfterFinish && p.study.open;
  return (
    <section className="space-y-4">
      <h1 className="text-2xl font-semibold">{p.study.name}</h1>
      {deadline && <p className="text-sm text-slate-600" data-testid="crowd-deadline">Please finish by <When at={deadline} />.</p>}
      {p.participant.finishedAt ? (
        <>
          <Notice testId="thank-you" title="Thank you!">
            You have finished this study and your answers are recorded. {editable
              ? 'You can still change them below while the study is open.'
              : 'They are shown below and can no longer be changed. You can close this page.'}
          </Notice>
          {p.items.length > 0 && session(!editable)}
        </>
      ) : !p.study.open ? (
        <Notice testId="not-open" title={p.study.closed ? 'This study has closed' : 'This study is not open yet'}>
          {p.study.closed
            ? `It no longer takes answers.${p.ratings.length ? ' The answers you gave are kept.' : ''} Thank you for your interest.`
            : <>{p.study.opensAt && Date.parse(p.study.opensAt) > Date.now() ? <>It opens on <When at={p.study.opensAt} />.</> : 'It does not take answers yet.'} Come back later through the same {access === 'link' ? 'link' : 'page'}.</>}
        </Notice>
      ) : !begun && !resuming ? (
        <Intro api={api} instructions={p.study.instructions} consent={p.study.consent} consented={consented} onStart={start} />
      ) : p.items.length === 0 ? (
        <Notice testId="no-items" title="Nothing left to rate">
          Every item of this study already has all the ratings it needs. Thank you for your interest.
        </Notice>
      ) : session(false)}
    </section>
  );
}

function Notice({ title, testId, children }: { title: string; testId: string; children: ReactNode }) {
  return (
    <div className="max-w-3xl space-y-2 rounded-lg border border-slate-200 bg-white p-4" data-testid={testId}>
      <h2 className="text-lg font-medium">{title}</h2>
      <p className="text-slate-700">{children}</p>
    </div>
  );
}

/** Why the study could not be shown, in the participant's words. */
function LoadProblem({ error, access, onRetry }: { error: Error; access: Access; onRetry: () => void }) {
  const status = error instanceof ApiError ? error.status : null;
  let title = 'The study could not be loaded';
  let text: ReactNode = <>{error.message}. <button type="button" onClick={onRetry} className="text-blue-700 underline">Try again</button></>;
  if (status === 404) {
    title = access === 'link' ? 'This link is not valid' : 'This study was not found';
    text = access === 'link'
      ? 'Check that you opened the whole link you were given. If it still does not work, ask the people running the study for a new one.'
      : 'It may have been removed, or you may not have access to it.';
  } else if (status === 410) {
    title = 'This link has expired';
    text = 'No answer was given for a while after it was started, so its items went to other participants. Open the study link you were given again to take part.';
  } else if (status === 409) {
    title = 'This study is not taking answers now';
    text = 'It has closed, or it has not opened yet.';
  } else if (status === 401) {
    title = 'Please sign in again';
    text = <>Your session has ended. <a href={`/login?callbackUrl=${encodeURIComponent(window.location.pathname)}`} className="text-blue-700 underline">Sign in</a> to carry on.</>;
  }
  return (
    <section className="mx-auto mt-8 max-w-xl space-y-2 text-center" data-testid="load-problem">
      <h1 className="text-2xl font-semibold">{title}</h1>
      <p className="text-slate-600">{text}</p>
    </section>
  );
}
