'use client';

import { MarkdownText } from '../queries/markdown-text';

const INPUT = 'rounded border border-slate-300 px-2 py-1';

/** A Markdown textarea with its preview beside it, as participants will see the text. */
export function MarkdownField({ id, label, help, value, onChange, error }: {
  id: string; label: string; help: string; value: string; onChange: (value: string) => void; error?: string;
}) {
  return (
    <div className="grid gap-4 md:grid-cols-2">
      <div className="flex flex-col gap-1">
        <label htmlFor={id}>{label}</label>
        <textarea id={id} rows={12} value={value} maxLength={50_000} onChange={(e) => onChange(e.target.value)}
          aria-invalid={!!error} aria-describedby={`${id}-help`} className={`${INPUT} font-mono text-xs`} />
        <span id={`${id}-help`} className="text-xs text-slate-500">{help}</span>
        {error && <span role="alert" className="text-red-700">{error}</span>}
      </div>
      <div className="flex flex-col gap-1">
        <span id={`${id}-preview-label`}>{label}: preview</span>
        <div role="region" tabIndex={0} aria-labelledby={`${id}-preview-label`} data-testid={`${id}-preview`}
          className="max-h-80 overflow-y-auto rounded border border-slate-200 bg-slate-50 p-3">
          {value.trim() ? <MarkdownText text={value} /> : <p className="text-sm text-slate-500">Nothing to show.</p>}
        </div>
      </div>
    </div>
  );
}
