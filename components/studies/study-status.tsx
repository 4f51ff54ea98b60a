import type { ReactNode } from 'react';
import type { StudySummary } from '@/lib/studies/admin';
import { StatusBadge } from '../authoring/status-badge';
import { When } from '@/components/when';

/** Why an open study takes no answers now, from its dates. */
function dateNote(s: Pick<StudySummary, 'status' | 'takingAnswers' | 'opensAt' | 'closesAt'>): ReactNode {
  if (s.status !== 'OPEN' || s.takingAnswers) return null;
  if (s.opensAt && new Date(s.opensAt).getTime() > Date.now()) return <>opens <When at={s.opensAt} /></>;
  if (s.closesAt && new Date(s.closesAt).getTime() <= Date.now()) return 'past its closing date';
  return null;
}

/** The study's status, and whether it takes answers now (open, and within its dates). */
export function StudyStatus({ study, testId }: { study: Pick<StudySummary, 'status' | 'takingAnswers' | 'opensAt' | 'closesAt'>; testId?: string }) {
  const note = dateNote(study);
  return (
    <span className="inline-flex flex-wrap items-center gap-1" data-testid={testId}>
      <StatusBadge status={study.status} />
      {study.takingAnswers && <span className="rounded bg-green-50 px-2 py-0.5 text-xs font-medium text-green-800">taking answers</span>}
      {note && <span className="text-xs text-slate-600">{note}</span>}
    </span>
  );
}
