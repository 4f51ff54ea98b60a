import type { JudgmentLabel } from '@/lib/authoring/drafts';
import { LABELS, type JudgmentState } from './types';

const TONE: Record<JudgmentLabel, string> = {
  relevant: 'border-green-700 bg-green-700 text-white',
  not_relevant: 'border-slate-600 bg-slate-600 text-white',
  unsure: 'border-amber-700 bg-amber-700 text-white',
};

interface Props {
  name: string;
  state: JudgmentState | null;
  busy: boolean;
  readOnly: boolean;
  onJudge: (label: JudgmentLabel) => void;
  /** Opens the evidence picker; offered for a relevant judgment. */
  onCite: () => void;
  citing: boolean;
}

/** Relevant / not relevant / unsure for one entity, and its evidence when relevant. */
export function JudgmentButtons({ name, state, busy, readOnly, onJudge, onCite, citing }: Props) {
  const evidence = state?.evidence.length ?? 0;
  if (readOnly) {
    return (
      <span className="text-xs text-slate-600" data-testid="judgment-label">
        {state ? LABELS.find((l) => l.label === state.label)!.text : 'Not judged'}
        {evidence > 0 && ` · ${evidence} evidence`}
      </span>
    );
  }
  return (
    <div className="flex flex-wrap items-center gap-1 text-xs" role="group" aria-label={`Judge ${name}`} aria-busy={busy}>
      {LABELS.map((l) => (
        <button key={l.label} type="button" aria-pressed={state?.label === l.label} onClick={() => onJudge(l.label)}
          title={`${l.text} (${l.keys})`}
          className={`rounded border px-2 py-0.5 ${state?.label === l.label ? TONE[l.label] : 'border-slate-300 hover:bg-slate-50'}`}>
          {l.text}
        </button>
      ))}
      {state?.label === 'relevant' && (
        <button type="button" onClick={onCite} aria-expanded={citing}
          className="rounded border border-blue-600 px-2 py-0.5 text-blue-700 hover:bg-blue-50">
          Cite evidence{evidence > 0 ? ` (${evidence})` : ''}
        </button>
      )}
    </div>
  );
}
