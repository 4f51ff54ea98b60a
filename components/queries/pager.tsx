'use client';

/** Previous / next page buttons with the page number, for the paged tables. */
export function Pager({ page, pages, onPage }: { page: number; pages: number; onPage: (page: number) => void }) {
  if (pages <= 1) return null;
  return (
    <nav aria-label="Pages" className="mt-3 flex items-center gap-3 text-sm">
      <button type="button" disabled={page <= 1} onClick={() => onPage(page - 1)} className="rounded border border-slate-300 px-2 py-1 disabled:opacity-50">Previous</button>
      <span className="text-slate-600" aria-current="page">Page {page} of {pages.toLocaleString('en')}</span>
      <button type="button" disabled={page >= pages} onClick={() => onPage(page + 1)} className="rounded border border-slate-300 px-2 py-1 disabled:opacity-50">Next</button>
    </nav>
  );
}
