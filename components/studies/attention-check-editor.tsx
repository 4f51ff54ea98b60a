'use client';

import { draftPoints, errorAt, nextUid, type CheckDraft, type DimensionDraft, type FieldErrors } from './study-draft';

const INPUT = 'rounded border border-slate-300 px-2 py-1';
const MAX_CHECKS = 20;

/**
 * Items that ask for a given answer ("Please choose 1 on Naturalness"): participants see them among the others,
 * and the results list who answered them otherwise.
 */
export function AttentionCheckEditor({ value, onChange, dimensions, errors }: {
  value: CheckDraft[]; onChange: (checks: CheckDraft[]) => void; dimensions: DimensionDraft[]; errors: FieldErrors;
}) {
  const rated = dimensions.filter((d) => d.kind !== 'text');
  const update = (uid: number, patch: Partial<CheckDraft>) => onChange(value.map((c) => (c.uid === uid ? { ...c, ...patch } : c)));
  return (
    <fieldset className="space-y-3">
      <legend className="mb-1 text-base font-medium">Attention checks</legend>
      <p className="text-xs text-slate-500">Every participant gets every check, placed among their items; the results can leave out those who fail one.</p>
      {value.map((c, i) => {
        const id = `check-${c.uid}`;
        const dimension = rated.find((d) => d.uid === c.dimensionUid);
        const rowError = errorAt(errors, `attentionChecks.${i}`);
        return (
          <fieldset key={c.uid} className="space-y-2 rounded border border-slate-200 p-3" data-testid="attention-check">
            <legend className="px-1 text-slate-600">Check {i + 1}</legend>
            <div className="flex flex-col gap-1">
              <label htmlFor={`${id}-text`}>Text shown as the item</label>
              <input id={`${id}-text`} value={c.text} maxLength={1000} className={INPUT} placeholder="Please choose “Strongly disagree” on every scale for this query."
                onChange={(e) => update(c.uid, { text: e.target.value })} />
            </div>
            <div className="flex flex-wrap items-end gap-4">
              <div className="flex flex-col gap-1">
                <label htmlFor={`${id}-dimension`}>Checked on</label>
                <select id={`${id}-dimension`} value={dimension ? String(dimension.uid) : ''} className={INPUT}
                  onChange={(e) => update(c.uid, { dimensionUid: e.target.value ? Number(e.target.value) : null, accept: [] })}>
                  <option value="">Choose a dimension</option>
                  {rated.map((d) => <option key={d.uid} value={d.uid}>{d.label || d.key}</option>)}
                </select>
              </div>
              {dimension && (
                <div role="group" aria-label={`Check ${i + 1}: accepted answers`} className="flex flex-wrap items-center gap-3">
                  <span className="text-slate-600">Accepted:</span>
                  {draftPoints(dimension).map((p) => (
                    <label key={p} className="flex items-center gap-1">
                      <input type="checkbox" checked={c.accept.includes(p)}
                        onChange={(e) => update(c.uid, { accept: e.target.checked ? [...c.accept, p] : c.accept.filter((x) => x !== p) })} />
                      {p}{dimension.anchors[p] ? ` (${dimension.anchors[p]})` : ''}
                    </label>
                  ))}
                </div>
              )}
              <button type="button" onClick={() => onChange(value.filter((x) => x.uid !== c.uid))} className="ml-auto text-red-700 hover:underline">
                Remove check {i + 1}
              </button>
            </div>
            {rowError && <p role="alert" className="text-red-700">{rowError}</p>}
          </fieldset>
        );
      })}
      <button type="button" disabled={value.length >= MAX_CHECKS || !rated.length}
        onClick={() => onChange([...value, { uid: nextUid(), text: '', dimensionUid: rated[0]?.uid ?? null, accept: [] }])}
        className="rounded border border-slate-300 px-3 py-1.5 hover:bg-slate-50 disabled:opacity-50">
        Add an attention check
      </button>
    </fieldset>
  );
}
