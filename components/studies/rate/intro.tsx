'use client';

import { useState } from 'react';
import { requestJson } from '@/components/queries/api';
import { MarkdownText } from '@/components/queries/markdown-text';

/**
 * The study's instructions, then its consent text with "I agree" (when it has one), or a start button. Agreeing
 * records the consent first; either way `onStart` then begins (it may ask the server for the items).
 */
export function Intro({ api, instructions, consent, consented, onStart }: {
  api: string;
  instructions: string;
  consent: string;
  consented: boolean;
  onStart: () => Promise<void>;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const needsConsent = consent.trim() !== '' && !consented;

  const start = async () => {
    setBusy(true);
    setError(null);
    try {
      if (needsConsent) await requestJson<{ consented: true }>(`${api}/consent`, { method: 'POST' });
      await onStart();
    } catch (err) {
      setError((err as Error).message);
      setBusy(false);
    }
  };
  const problem = error && <p role="alert" className="text-sm text-red-800">Could not start: {error}</p>;

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
          <button type="button" onClick={() => void start()} disabled={busy}
            className="rounded bg-blue-700 px-4 py-1.5 text-white hover:bg-blue-800 disabled:opacity-60">
            {busy ? 'Saving…' : 'I agree'}
          </button>
          <p className="text-xs text-slate-600">Agreeing starts the study. If you do not agree, close this page: no answers are recorded.</p>
          {problem}
        </section>
      ) : (
        <div className="space-y-2">
          <button type="button" onClick={() => void start()} disabled={busy}
            className="rounded bg-blue-700 px-4 py-1.5 text-white hover:bg-blue-800 disabled:opacity-60">
            {busy ? 'Starting…' : 'Start'}
          </button>
          {problem}
        </div>
      )}
    </div>
  );
}
