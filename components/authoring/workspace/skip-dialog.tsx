'use client';

import { useRef, useState, type FormEvent } from 'react';
import { requestJson } from '@/components/queries/api';
import { assignmentApi } from '../api';

/** Gives the seed back with a reason (required); `onSkipped` runs once the server has it. */
export function SkipDialog({ assignmentId, onSkipped }: { assignmentId: number; onSkipped: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await requestJson(`${assignmentApi(assignmentId)}/skip`, { method: 'POST', json: { reason } });
      dialog.current?.close();
      onSkipped();
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <button type="button" onClick={() => dialog.current?.showModal()} className="rounded border border-slate-300 px-3 py-1.5 text-sm hover:bg-slate-50">
        Skip this seed…
      </button>
      <dialog ref={dialog} aria-labelledby="skip-heading" className="m-auto w-full max-w-md rounded-lg border border-slate-200 p-4 shadow-xl backdrop:bg-slate-900/30">
        <form onSubmit={submit} className="space-y-3 text-sm">
          <h2 id="skip-heading" className="text-base font-medium">Skip this seed</h2>
          <p className="text-slate-600">The seed goes back to the pool for other annotators, and you return to the campaign. Your draft and judgments are not submitted.</p>
          <label className="block">
            <span className="mb-1 block font-medium">Why skip it?</span>
            <textarea required value={reason} onChange={(e) => setReason(e.target.value)} rows={3} maxLength={1000}
              placeholder="e.g. the document is empty, nothing distinguishes it"
              className="w-full rounded border border-slate-300 px-2 py-1.5" />
          </label>
          {error && <p role="alert" className="text-red-700">{error}</p>}
          <div className="flex justify-end gap-2">
            <button type="button" onClick={() => dialog.current?.close()} className="rounded border border-slate-300 px-3 py-1.5 hover:bg-slate-50">Cancel</button>
            <button type="submit" disabled={busy || !reason.trim()} className="rounded bg-red-700 px-3 py-1.5 text-white hover:bg-red-800 disabled:opacity-50">
              {busy ? 'Skipping…' : 'Skip the seed'}
            </button>
          </div>
        </form>
      </dialog>
    </>
  );
}
