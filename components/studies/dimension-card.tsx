'use client';

import { draftPoints, keyFromLabel, type DimensionDraft } from './study-draft';

const INPUT = 'rounded border border-slate-300 px-2 py-1';
export const KIND_LABELS: Record<DimensionDraft['kind'], string> = { scale: 'scale', binary: 'yes / no', text: 'free text' };

/** One dimension's fields: its label, key and question, a scale's range, and a label for each point. */
export function DimensionCard({ value: d, onChange, onRemove, canRemove, error }: {
  value: DimensionDraft; onChange: (d: DimensionDraft) => void; onRemove: () => void; canRemove: boolean; error?: string;
}) {
  const id = `dim-${d.uid}`;
  const set = (patch: Partial<DimensionDraft>) => onChange({ ...d, ...patch } as DimensionDraft);
  const setAnchor = (point: number, label: string) => {
    if (d.kind !== 'text') onChange({ ...d, anchors: { ...d.anchors, [point]: label } });
  };
  return (
    <fieldset className="space-y-2 rounded border border-slate-200 p-3" data-testid="dimension-card">
      <legend className="px-1 font-medium">{d.label.trim() || 'Unnamed dimension'} <span className="font-normal text-slate-500">({KIND_LABELS[d.kind]})</span></legend>
      <div className="grid gap-3 md:grid-cols-[1fr_1fr_2fr]">
        <div className="flex flex-col gap-1">
          <label htmlFor={`${id}-label`}>Label</label>
          <input id={`${id}-label`} value={d.label} maxLength={100} className={INPUT}
            onChange={(e) => set(d.keyEdited ? { label: e.target.value } : { label: e.target.value, key: keyFromLabel(e.target.value) })} />
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor={`${id}-key`}>Key</label>
          <input id={`${id}-key`} value={d.key} maxLength={40} aria-describedby={`${id}-key-help`} className={`${INPUT} font-mono`}
            onChange={(e) => set({ key: e.target.value, keyEdited: true })} />
          <span id={`${id}-key-help`} className="text-xs text-slate-500">Names the column in exports.</span>
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor={`${id}-question`}>Question</label>
          <input id={`${id}-question`} value={d.question} maxLength={1000} className={INPUT} onChange={(e) => set({ question: e.target.value })} />
        </div>
      </div>
      {d.kind === 'scale' && (
        <div className="flex flex-wrap gap-3">
          <div className="flex flex-col gap-1">
            <label htmlFor={`${id}-min`}>Lowest point</label>
            <input id={`${id}-min`} type="number" min={-10} max={10} value={Number.isNaN(d.min) ? '' : d.min} className={`${INPUT} w-24`}
              onChange={(e) => set({ min: e.target.valueAsNumber })} />
          </div>
          <div className="flex flex-col gap-1">
            <label htmlFor={`${id}-max`}>Highest point</label>
            <input id={`${id}-max`} type="number" min={-9} max={20} value={Number.isNaN(d.max) ? '' : d.max} className={`${INPUT} w-24`}
              onChange={(e) => set({ max: e.target.valueAsNumber })} />
          </div>
        </div>
      )}
      {d.kind !== 'text' && (
        <div className="flex flex-wrap gap-2" role="group" aria-label={`${d.label || 'Dimension'}: point labels`}>
          {draftPoints(d).length === 0 && <p className="text-slate-600">Give a range of 2 to 11 points to label them.</p>}
          {draftPoints(d).map((p) => (
            <div key={p} className="flex flex-col gap-1">
              <label htmlFor={`${id}-anchor-${p}`} className="text-xs text-slate-600">Label of point {p}</label>
              <input id={`${id}-anchor-${p}`} value={d.anchors[p] ?? ''} maxLength={100} className={`${INPUT} w-36`} onChange={(e) => setAnchor(p, e.target.value)} />
            </div>
          ))}
        </div>
      )}
      <div className="flex flex-wrap items-center gap-4">
        <label className="flex items-center gap-2">
          <input type="checkbox" checked={d.required} onChange={(e) => set({ required: e.target.checked })} />
          Required: a participant finishes only with an answer here
        </label>
        {canRemove && <button type="button" onClick={onRemove} className="ml-auto text-red-700 hover:underline">Remove {d.label.trim() || 'this dimension'}</button>}
      </div>
      {error && <p role="alert" className="text-red-700">{error}</p>}
    </fieldset>
  );
}
