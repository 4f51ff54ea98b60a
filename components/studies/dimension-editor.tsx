'use client';

import { useState } from 'react';
import type { Dimension } from '@/lib/studies/dimensions';
import { DimensionCard, KIND_LABELS } from './dimension-card';
import { errorAt, newDimension, type DimensionDraft, type FieldErrors } from './study-draft';

const MAX_DIMENSIONS = 20;

/** What participants rate each item on: STaRK's three scales to start with, edited, removed or added to. */
export function DimensionEditor({ value, onChange, errors }: { value: DimensionDraft[]; onChange: (dimensions: DimensionDraft[]) => void; errors: FieldErrors }) {
  const [kind, setKind] = useState<Dimension['kind']>('scale');
  return (
    <fieldset className="space-y-3">
      <legend className="mb-1 text-base font-medium">Dimensions</legend>
      <p className="text-xs text-slate-500">
        Scales report the share of positive answers (above the midpoint, 4–5 of 1–5) and non-negative ones (at or above it); yes / no
        dimensions report the share of “yes”; free-text answers are exported as they are.
      </p>
      {value.map((d, i) => (
        <DimensionCard key={d.uid} value={d} error={errorAt(errors, `dimensions.${i}`)} canRemove={value.length > 1}
          onChange={(next) => onChange(value.map((x) => (x.uid === d.uid ? next : x)))}
          onRemove={() => onChange(value.filter((x) => x.uid !== d.uid))} />
      ))}
      {errors.dimensions && <p role="alert" className="text-red-700">{errors.dimensions}</p>}
      <div className="flex flex-wrap items-end gap-2">
        <div className="flex flex-col gap-1">
          <label htmlFor="new-dimension-kind">Kind of the new dimension</label>
          <select id="new-dimension-kind" value={kind} onChange={(e) => setKind(e.target.value as Dimension['kind'])} className="rounded border border-slate-300 px-2 py-1">
            {(Object.keys(KIND_LABELS) as Dimension['kind'][]).map((k) => <option key={k} value={k}>{KIND_LABELS[k]}</option>)}
          </select>
        </div>
        <button type="button" disabled={value.length >= MAX_DIMENSIONS} onClick={() => onChange([...value, newDimension(kind, value.map((d) => d.key))])}
          className="rounded border border-slate-300 px-3 py-1.5 hover:bg-slate-50 disabled:opacity-50">
          Add dimension
        </button>
      </div>
    </fieldset>
  );
}
