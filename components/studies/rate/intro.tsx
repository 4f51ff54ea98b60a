'use client';

import { useState } from 'react';
import { requestJson } from '@/components/queries/api';
import { MarkdownText } from '@/components/queries/markdown-text';

/** The study's instructions, then its consent text with "I agree" (when it has one), or a start button. */
export function Intro({ api, instructions, consent, consented, onStart }: {
  api: string;
  instructions: string;
  consent: string;
  consented: boolean;
  onStart: () => void;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const needsConsent = consent.trim() !== '' && !consented;

  const agree = async () => {
    setBusy(true);
    setError(null);
    try {
      await requestJson<{ consented: true }>(`${api}/consent`, { method: 'POST' });
      onStart();
    } catch (err) {
      setError((err as Error).message);
      setBusy(false);
    }
  };

  return (
    <div className="max-w-3xl space-y-4">
      {instructions.trim() && (
        <section aria-label="Instructions" className="rounded-lg border border-slate-200 bg-white p-4">
          <MarkdownText text={instructions} />
        </section>
      )}
      {needsConsent ? (
        <section aria-labelledby="consent-heading" className="space-y-3 rounded-lg border border-blue-200 bg-blue-50 p-4">
          <h2 id="consent-heading" className="font-medium">Consent</h2>
          <MarkdownText text={consent} />
          <button type="button" onClick={agree} disabled={busy}
            className="rounded bg-blue-700 px-4 py-1.5 text-white hover:bg-blue-800 disabled:opacity-60">
            {busy ? 'Saving…' : 'I agree'}
          </button>
          <p className="text-xs text-slate-600">Agreeing starts the study. If you do not agree, close this page: no answers are recorded.</p>
          {error && <p role="alert" className="text-sm text-red-800">Could not record your agreement: {error}</p>}
        </section>
      ) : (
        <button type="button" onClick={onStart} className="rounded bg-blue-700 px-4 py-1.5 text-white hover:bg-blue-800">Start</button>
      )}
    </div>
  );
}
