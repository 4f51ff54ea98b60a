'use client';

import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { fetchJson } from '@/lib/client/fetch-json';

/** The exact text a retrieval system indexes for this entity, loaded when opened, with a copy button. */
export function RetrieverView({ kbSlug, entityId }: { kbSlug: string; entityId: number }) {
  const [open, setOpen] = useState(false);
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  const { data, error, isPending } = useQuery({
    queryKey: ['retriever-text', kbSlug, entityId],
    queryFn: () => fetchJson<{ text: string }>(`/api/kbs/${encodeURIComponent(kbSlug)}/entities/${entityId}/retriever-text`),
    enabled: open,
  });

  async function copy() {
    if (!data) return;
    try {
      await navigator.clipboard.writeText(data.text);
      setCopied('yes');
    } catch {
      setCopied('failed');
    }
  }

  return (
    <details onToggle={(e) => setOpen(e.currentTarget.open)} data-testid="retriever-view">
      <summary className="cursor-pointer font-medium">Retriever view</summary>
      <p className="mt-1 text-xs text-slate-500">
        The document flattened as a retriever reads it, followed by the neighbours per relation (by name, at most 20 each).
      </p>
      {error && <p role="alert" className="text-sm text-red-700">Could not load the text: {error.message}</p>}
      {open && isPending && <p className="text-sm text-slate-500">Loading…</p>}
      {data && (
        <div className="mt-2 space-y-2">
          <div className="flex items-center gap-3">
            <button type="button" onClick={copy} className="rounded border border-slate-300 px-3 py-1 text-sm hover:bg-slate-50">Copy</button>
            {copied === 'yes' && <span className="text-xs text-green-700" role="status">Copied</span>}
            {copied === 'failed' && <span className="text-xs text-red-700" role="status">The browser refused the clipboard</span>}
            <span className="text-xs text-slate-500">{data.text.length.toLocaleString('en')} characters</span>
          </div>
          <pre className="max-h-96 overflow-auto whitespace-pre-wrap rounded bg-slate-50 p-3 text-xs" data-testid="retriever-text">{data.text}</pre>
        </div>
      )}
    </details>
  );
}
