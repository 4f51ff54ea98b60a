'use client';

import { fmtCount } from '../queries/format';
import { emptySource, errorAt, type FieldErrors, type SourceDraft } from './study-draft';
import type { SourceOptions } from './use-source-options';

const INPUT = 'rounded border border-slate-300 px-2 py-1';
const MAX_SOURCES = 10;

/** The query sets (live, or a release of them) whose queries the study mixes, each optionally sampled. */
export function SourceEditor({ value, onChange, options, errors }: {
  value: SourceDraft[]; onChange: (sources: SourceDraft[]) => void; options: SourceOptions; errors: FieldErrors;
}) {
  const update = (uid: number, patch: Partial<SourceDraft>) => onChange(value.map((s) => (s.uid === uid ? { ...s, ...patch } : s)));
  const known = options.sizes.every((n) => n !== null);
  const total = options.sizes.reduce<number>((sum, n) => sum + (n ?? 0), 0);
  return (
    <fieldset className="space-y-3">
      <legend className="mb-1 text-base font-medium">Sources</legend>
      <p className="text-xs text-slate-500">
        Queries of every source are mixed in one seeded order; participants do not see where an item came from. A sample takes that
        many queries of the source, chosen with the study’s seed.
      </p>
      {options.setsError && <p role="alert" className="text-red-700">Could not load the query sets: {options.setsError.message}</p>}
      {value.map((s, i) => {
        const id = `source-${s.uid}`;
        const releases = options.releases.get(s.querySet) ?? [];
        const rowError = errorAt(errors, `sources.${i}`);
        return (
          <fieldset key={s.uid} className="flex flex-wrap items-end gap-3 rounded border border-slate-200 p-3" data-testid="source-row">
            <legend className="px-1 text-slate-600">Source {i + 1}</legend>
            <div className="flex min-w-0 max-w-full flex-col gap-1">
              <label htmlFor={`${id}-set`}>Query set</label>
              <select id={`${id}-set`} value={s.querySet} aria-invalid={!!rowError} className={INPUT}
                onChange={(e) => update(s.uid, { querySet: e.target.value, release: '' })}>
                <option value="">Choose a query set</option>
                {options.sets.map((set) => <option key={set.id} value={set.name}>{set.name} ({fmtCount(set.queries)} queries)</option>)}
              </select>
            </div>
            <div className="flex min-w-0 max-w-full flex-col gap-1">
              <label htmlFor={`${id}-release`}>Version</label>
              <select id={`${id}-release`} value={s.release} disabled={!s.querySet} className={INPUT}
                onChange={(e) => update(s.uid, { release: e.target.value })}>
                <option value="">Live set</option>
                {releases.map((r) => <option key={r.number} value={r.number}>Release {r.number}: {r.name} ({fmtCount(r.queryCount)} queries)</option>)}
              </select>
            </div>
            <div className="flex flex-col gap-1">
              <label htmlFor={`${id}-sample`}>Sample size</label>
              <input id={`${id}-sample`} type="number" min={1} placeholder="all" value={s.sample} className={`${INPUT} w-28`}
                onChange={(e) => update(s.uid, { sample: e.target.value })} />
            </div>
            <span className="pb-1 text-slate-600" data-testid="source-size">
              {options.sizes[i] === null || options.sizes[i] === undefined ? '' : `${fmtCount(options.sizes[i]!)} items`}
            </span>
            {value.length > 1 && (
              <button type="button" onClick={() => onChange(value.filter((x) => x.uid !== s.uid))} className="ml-auto pb-1 text-red-700 hover:underline">
                Remove source {i + 1}
              </button>
            )}
            {rowError && <p role="alert" className="w-full text-red-700">{rowError}</p>}
          </fieldset>
        );
      })}
      <div className="flex flex-wrap items-center gap-3">
        <button type="button" disabled={value.length >= MAX_SOURCES} onClick={() => onChange([...value, emptySource()])}
          className="rounded border border-slate-300 px-3 py-1.5 hover:bg-slate-50 disabled:opacity-50">
          Add a source
        </button>
        {known && <span className="text-slate-600" data-testid="item-total">{fmtCount(total)} items in all</span>}
      </div>
      {errors.sources && <p role="alert" className="text-red-700">{errors.sources}</p>}
    </fieldset>
  );
}
