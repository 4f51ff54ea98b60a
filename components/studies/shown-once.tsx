'use client';

import { useState, type ReactNode } from 'react';

/**
 * Secret links the server gives out once (only their hashes are kept): shown with a copy button, and a
 * warning that they cannot be shown again.
 */
export function ShownOnce({ title, links, testId, children }: { title: string; links: string[]; testId: string; children?: ReactNode }) {
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  const text = links.join('\n');
  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setCopied('yes');
    } catch {
      setCopied('failed');
    }
  }
  return (
    <div className="space-y-2 rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm" data-testid={testId}>
      <h3 className="font-medium">{title}</h3>
      <p className="text-amber-900">Copy {links.length === 1 ? 'it' : 'them'} now: {links.length === 1 ? 'it is' : 'they are'} shown only this once.</p>
      {links.length === 1 ? (
        <input readOnly value={text} aria-label={title} onFocus={(e) => e.currentTarget.select()} className="w-full rounded border border-slate-300 bg-white px-2 py-1 font-mono text-xs" />
      ) : (
        <textarea readOnly value={text} aria-label={title} rows={Math.min(10, links.length)} onFocus={(e) => e.currentTarget.select()}
          className="w-full rounded border border-slate-300 bg-white px-2 py-1 font-mono text-xs" />
      )}
      <div className="flex flex-wrap items-center gap-3">
        <button type="button" onClick={copy} className="rounded border border-slate-300 bg-white px-3 py-1.5 hover:bg-slate-50">
          {links.length === 1 ? 'Copy link' : 'Copy all'}
        </button>
        {children}
        {copied && <span role="status" className={copied === 'yes' ? 'text-green-800' : 'text-red-700'}>{copied === 'yes' ? 'Copied.' : 'Could not copy: select the text and copy it.'}</span>}
      </div>
    </div>
  );
}
