'use client';

import { useState } from 'react';

/**
 * "Close campaign" / "Close study": an outlined red button that asks first, in the page, so it does not read
 * like closing a dialog and one slip does not stop the work.
 */
export function CloseWithConfirm({ label, question, keepLabel, pending, onConfirm }: {
  label: string;
  question: string;
  keepLabel: string;
  pending: boolean;
  onConfirm: () => void;
}) {
  const [asking, setAsking] = useState(false);
  return (
    <>
      <button type="button" disabled={pending || asking} onClick={() => setAsking(true)}
        className="rounded border border-red-300 bg-white px-3 py-1.5 text-sm font-medium text-red-700 hover:bg-red-50 disabled:opacity-60">
        {label}
      </button>
      {asking && (
        <div role="alertdialog" aria-labelledby="close-confirm-question" className="order-last w-full space-y-2 rounded border border-red-200 bg-red-50 p-3" data-testid="close-confirm">
          <p id="close-confirm-question">{question}</p>
          <div className="flex gap-2">
            <button type="button" onClick={() => { setAsking(false); onConfirm(); }}
              className="rounded bg-red-700 px-3 py-1 font-medium text-white hover:bg-red-800">{label}</button>
            <button type="button" autoFocus onClick={() => setAsking(false)} className="rounded border border-slate-300 bg-white px-3 py-1 hover:bg-slate-50">{keepLabel}</button>
          </div>
        </div>
      )}
    </>
  );
}
