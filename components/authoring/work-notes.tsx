import { MarkdownText } from '@/components/queries/markdown-text';

/** The reviewer's note on work sent back, shown above it while it is returned. */
export function ReturnedNote({ status, note }: { status: string; note: string | null }) {
  if (status !== 'RETURNED' || !note) return null;
  return (
    <div role="note" className="rounded border border-amber-300 bg-amber-50 px-3 py-2 text-sm" data-testid="review-note">
      <p className="font-medium">Returned by the reviewer:</p>
      <p className="whitespace-pre-wrap">{note}</p>
    </div>
  );
}

/** The campaign's guidelines, folded away above the work. */
export function FoldedGuidelines({ text }: { text: string }) {
  if (!text.trim()) return null;
  return (
    <details className="rounded-lg border border-slate-200 bg-white p-4">
      <summary className="cursor-pointer font-medium">Guidelines</summary>
      <div className="mt-2"><MarkdownText text={text} /></div>
    </details>
  );
}
