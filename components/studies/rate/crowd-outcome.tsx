'use client';

import { useEffect, useState } from 'react';
import type { CrowdOutcome } from '@/lib/studies/crowd';

/** Seconds the page shows the code before sending the participant back to the platform. */
const REDIRECT_SECONDS = 5;

const TITLES: Record<CrowdOutcome['reason'], string> = {
  finished: 'Thank you! You have completed this study',
  attention: 'This study has ended for you',
  'time-limit': 'Your time for this study is up',
  closed: 'This study has closed',
  cap: 'This study is full',
  full: 'Nothing left to rate',
};

const REASONS: Record<CrowdOutcome['reason'], string> = {
  finished: 'Your answers are recorded.',
  attention: 'The answers to the attention checks did not follow what they asked, so the study has ended here.',
  'time-limit': 'The time allowed for this study has passed. The answers you gave are kept.',
  closed: 'It no longer takes answers.',
  cap: 'It has all the participants it needs.',
  full: 'Every item of this study already has all the ratings it needs.',
};

/**
 * How a crowd participation ended (or why it could not start): the code for the platform, a button back to it,
 * and, when the study gives an address, an automatic return after a few seconds.
 */
export function CrowdOutcomeView({ outcome }: { outcome: CrowdOutcome }) {
  const [left, setLeft] = useState(REDIRECT_SECONDS);
  const { url } = outcome;
  useEffect(() => {
    if (!url) return;
    // One timer sends the participant back; the countdown only shows it.
    const redirect = setTimeout(() => window.location.assign(url), REDIRECT_SECONDS * 1000);
    const countdown = setInterval(() => setLeft((n) => Math.max(0, n - 1)), 1000);
    return () => {
      clearTimeout(redirect);
      clearInterval(countdown);
    };
  }, [url]);
  return (
    <section className="mx-auto mt-6 max-w-xl space-y-3 rounded-lg border border-slate-200 bg-white p-4" data-testid="crowd-outcome" data-outcome={outcome.kind}>
      <h1 className="text-2xl font-semibold">{TITLES[outcome.reason]}</h1>
      <p className="text-slate-700">{REASONS[outcome.reason]}</p>
      {outcome.code ? (
        <p>
          Your {outcome.kind === 'completed' ? 'completion ' : ''}code for {outcome.platform}:{' '}
          <strong className="break-all rounded bg-slate-100 px-2 py-0.5 font-mono text-lg" data-testid="crowd-code">{outcome.code}</strong>
        </p>
      ) : (
        <p>There is no code to give: return to {outcome.platform} and say so there.</p>
      )}
      {url && (
        <>
          <a href={url} className="inline-block rounded bg-blue-700 px-4 py-2 font-medium text-white hover:bg-blue-800" data-testid="crowd-return">
            Return to {outcome.platform}
          </a>
          <p role="status" className="text-sm text-slate-600">
            {left > 0 ? `You will be taken back in ${left} second${left === 1 ? '' : 's'}.` : 'Taking you back…'}
          </p>
        </>
      )}
    </section>
  );
}
