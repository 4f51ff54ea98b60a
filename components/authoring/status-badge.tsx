/** A campaign's or an assignment's status as a coloured label. */
const STYLES: Record<string, string> = {
  OPEN: 'bg-green-100 text-green-800',
  DRAFT: 'bg-slate-200 text-slate-700',
  CLOSED: 'bg-slate-200 text-slate-700',
  ACTIVE: 'bg-blue-100 text-blue-800',
  SUBMITTED: 'bg-indigo-100 text-indigo-800',
  RETURNED: 'bg-amber-100 text-amber-800',
  APPROVED: 'bg-green-100 text-green-800',
  SKIPPED: 'bg-slate-200 text-slate-700',
  EXPIRED: 'bg-red-100 text-red-800',
};

export function StatusBadge({ status, testId }: { status: string; testId?: string }) {
  return (
    <span data-testid={testId} className={`inline-block rounded px-2 py-0.5 text-xs font-semibold ${STYLES[status] ?? 'bg-slate-200 text-slate-700'}`}>
      {status}
    </span>
  );
}
