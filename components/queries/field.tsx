import type { ReactNode } from 'react';

/**
 * A control with its label (tied by id, not wrapped: a wrapping label would add the control's value to its
 * accessible name), its help line and, after a failed check, its error. The help line's id is `${id}-help`.
 */
export function Field({ id, label, help, error, inline, children }: { id: string; label: string; help?: string; error?: string; inline?: boolean; children: ReactNode }) {
  return (
    <div className={inline ? 'flex items-center gap-2' : 'flex flex-col gap-1'}>
      <label htmlFor={id}>{label}</label>
      {children}
      {help && <span id={`${id}-help`} className="text-xs text-slate-500">{help}</span>}
      {error && <span role="alert" className="text-red-700">{error}</span>}
    </div>
  );
}
