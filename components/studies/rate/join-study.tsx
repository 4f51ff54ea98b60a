'use client';

import { useRouter } from 'next/navigation';
import { useEffect, useRef, useState } from 'react';
import type { CrowdOutcome } from '@/lib/studies/crowd';
import { ApiError, requestJson } from '@/components/queries/api';
import { joinApi, participantApi, ratePage } from './api';
import { CrowdOutcomeView } from './crowd-outcome';

/** The participant this browser was given through a study link, so opening the link again resumes them. */
const storageKey = (linkToken: string) => `skb:study-link:${linkToken}`;

function remembered(linkToken: string): string | null {
  try {
    return localStorage.getItem(storageKey(linkToken));
  } catch {
    return null;
  }
}

function remember(linkToken: string, token: string | null): void {
  try {
    if (token) localStorage.setItem(storageKey(linkToken), token);
    else localStorage.removeItem(storageKey(linkToken));
  } catch {
    // Storage disabled: the personal link the participant lands on still resumes them.
  }
}

/** Whether a remembered participant still stands: one whose items went back for lack of answers does not. */
async function stillValid(token: string): Promise<boolean> {
  try {
    await requestJson(participantApi(token));
    return true;
  } catch (err) {
    return !(err instanceof ApiError && (err.status === 404 || err.status === 410));
  }
}

const PROBLEMS: Record<number, { title: string; text: string }> = {
  404: {
    title: 'This study link is not valid',
    text: 'It may be mistyped or incomplete, or it has been replaced by a new link. Ask the people running the study for the current one.',
  },
  400: {
    title: 'This link is incomplete',
    text: '',
  },
  409: {
    title: 'This study is not taking answers now',
    text: 'It has closed, or it has not opened yet.',
  },
  429: {
    title: 'Too many people are joining right now',
    text: 'This link takes only so many new participants at a time, from one place and in all. ',
  },
};

/**
 * The study link: asks once for a participant of its own and goes on to their rating screen. A browser that
 * already joined through this link goes back to the same participant instead, unless that one has expired.
 * A link opened from a recruiting platform carries the platform's parameters: they are sent along, and the
 * server finds the participant by their id there (so nothing is remembered in the browser), or answers the
 * outcome to show when they cannot take part.
 */
export function JoinStudy({ linkToken, params }: { linkToken: string; params: Record<string, string> }) {
  const router = useRouter();
  const [problem, setProblem] = useState<{ status: number | null; message: string } | null>(null);
  const [outcome, setOutcome] = useState<CrowdOutcome | null>(null);
  const asked = useRef(false);

  const join = async () => {
    setProblem(null);
    const fromPlatform = Object.keys(params).length > 0;
    const known = fromPlatform ? null : remembered(linkToken);
    if (known && await stillValid(known)) {
      router.replace(ratePage(known));
      return;
    }
    try {
      const joined = await requestJson<{ token: string | null; outcome: CrowdOutcome | null }>(joinApi(linkToken), { method: 'POST', json: { params } });
      if (joined.token === null) {
        setOutcome(joined.outcome);
        return;
      }
      if (!fromPlatform) remember(linkToken, joined.token);
      router.replace(ratePage(joined.token));
    } catch (err) {
      setProblem({ status: err instanceof ApiError ? err.status : null, message: (err as Error).message });
    }
  };

  useEffect(() => {
    // Once per page, also when effects run twice in development: each request makes a participant.
    if (asked.current) return;
    asked.current = true;
    void join();
  }, []);

  if (outcome) return <CrowdOutcomeView outcome={outcome} />;
  if (!problem) return <p role="status" className="text-sm text-slate-500">Joining the study…</p>;
  const known = problem.status === null ? undefined : PROBLEMS[problem.status];
  return (
    <section className="mx-auto mt-8 max-w-xl space-y-2 text-center" data-testid="join-problem">
      <h1 className="text-2xl font-semibold">{known?.title ?? 'Could not join the study'}</h1>
      <p className="text-slate-600">
        {known?.text ?? `${problem.message}. `}
        {(problem.status === 429 || problem.status === 400) && `${problem.message}.`}
        {!known && <button type="button" onClick={() => void join()} className="text-blue-700 underline">Try again</button>}
      </p>
    </section>
  );
}
