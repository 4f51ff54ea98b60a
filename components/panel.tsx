import type { ReactNode } from 'react';

/** A titled white box, the unit of the overview and release pages. */
export function Panel({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-4">
      <h2 className="mb-2 font-medium">{title}</h2>
      {children}
    </div>
  );
}
