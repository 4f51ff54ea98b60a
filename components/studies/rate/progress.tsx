/** Where the participant is ("Item 3 of 12") and how many items have all their answers, as a bar. */
export function RatingProgress({ position, complete, total }: { position: number; complete: number; total: number }) {
  const share = total > 0 ? Math.round((complete / total) * 100) : 0;
  return (
    <div className="min-w-48 flex-1 space-y-1">
      <p className="text-sm" data-testid="rating-progress">
        <span className="font-medium">Item {position} of {total}</span>
        <span className="text-slate-500"> · {complete} complete</span>
      </p>
      <div role="progressbar" aria-label="Items complete" aria-valuemin={0} aria-valuemax={total} aria-valuenow={complete}
        className="h-2 w-full overflow-hidden rounded bg-slate-100">
        <div className="h-full bg-green-600 transition-all" style={{ width: `${share}%` }} />
      </div>
    </div>
  );
}
