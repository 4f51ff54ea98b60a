/** How many of the candidates are judged, as a count and a bar. */
export function ProgressBar({ judged, total }: { judged: number; total: number }) {
  const share = total > 0 ? Math.round((judged / total) * 100) : 0;
  return (
    <div className="space-y-1">
      <p className="text-sm" data-testid="judged-progress">
        Judged {judged.toLocaleString('en')} of {total.toLocaleString('en')} {total === 1 ? 'candidate' : 'candidates'}
        {total > judged && <span className="text-slate-500"> · {(total - judged).toLocaleString('en')} remaining</span>}
      </p>
      <div role="progressbar" aria-label="Candidates judged" aria-valuemin={0} aria-valuemax={total} aria-valuenow={judged}
        className="h-2 w-full overflow-hidden rounded bg-slate-100">
        <div className="h-full bg-green-600 transition-all" style={{ width: `${share}%` }} />
      </div>
    </div>
  );
}
