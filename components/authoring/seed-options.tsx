'use client';

import { useRef, type ChangeEvent } from 'react';
import { Field } from '../queries/field';

export type SeedMode = 'random' | 'stratified' | 'list';

/** The seed choices as the form holds them (numbers as typed). */
export interface SeedChoice {
  mode: SeedMode;
  count: string;
  perType: string;
  types: string[];
  seed: string;
  text: string;
  /** A chosen file replaces the pasted list; its name labels the problems the server finds. */
  file: { name: string; text: string } | null;
}

export const DEFAULT_SEEDS: SeedChoice = { mode: 'random', count: '20', perType: '5', types: [], seed: '1', text: '', file: null };

/** The server reads at most this many characters of a seed list. */
const MAX_LIST_CHARS = 10_000_000;
const INPUT = 'rounded border border-slate-300 px-2 py-1';

export type SeedsBody =
  | { mode: 'random'; count: number; types?: string[]; seed: number }
  | { mode: 'stratified'; perType: number; types?: string[]; seed: number }
  | { mode: 'list'; text: string; file: string };

const positive = (v: string) => (/^\d+$/.test(v.trim()) && Number(v) >= 1 ? Number(v) : null);
const integer = (v: string) => (/^-?\d+$/.test(v.trim()) ? Number(v) : null);

/** The request's `seeds`, or what is wrong with the choice. */
export function seedsBody(c: SeedChoice): { body: SeedsBody } | { error: string } {
  const types = c.types.length ? { types: c.types } : {};
  const seed = integer(c.seed);
  if (c.mode === 'list') {
    const text = c.file?.text ?? c.text;
    if (!text.trim()) return { error: 'Paste external ids, one a line, or choose a file.' };
    if (text.length > MAX_LIST_CHARS) return { error: 'The list is longer than 10 million characters.' };
    return { body: { mode: 'list', text, file: c.file?.name ?? 'pasted list' } };
  }
  if (seed === null) return { error: 'The sampling seed must be a whole number.' };
  if (c.mode === 'random') {
    const count = positive(c.count);
    return count === null ? { error: 'The number of seeds must be a whole number from 1.' } : { body: { mode: 'random', count, ...types, seed } };
  }
  const perType = positive(c.perType);
  return perType === null ? { error: 'The seeds per type must be a whole number from 1.' } : { body: { mode: 'stratified', perType, ...types, seed } };
}

const MODES: { mode: SeedMode; label: string; help: string }[] = [
  { mode: 'random', label: 'Random', help: 'A number of entities drawn from the chosen types.' },
  { mode: 'stratified', label: 'Stratified', help: 'The same number from each chosen type.' },
  { mode: 'list', label: 'List', help: 'The external ids you give, in that order.' },
];

/** How the campaign's seed entities are chosen: a random or stratified sample, or a list of external ids. */
export function SeedOptions({ types, value, onChange, error }: { types: { name: string; entityCount: number }[]; value: SeedChoice; onChange: (c: SeedChoice) => void; error?: string }) {
  const fileInput = useRef<HTMLInputElement>(null);
  const set = (patch: Partial<SeedChoice>) => onChange({ ...value, ...patch });
  const toggleType = (name: string, on: boolean) => set({ types: on ? [...value.types, name] : value.types.filter((t) => t !== name) });

  async function onFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    set({ file: file ? { name: file.name, text: await file.text() } : null });
  }

  return (
    <fieldset className="space-y-3" aria-describedby={error ? 'cf-seeds-error' : undefined}>
      <legend className="mb-1 font-medium">Seeds</legend>
      <div className="flex flex-wrap gap-4">
        {MODES.map((m) => (
          <label key={m.mode} className="flex items-center gap-2" title={m.help}>
            <input type="radio" name="seedMode" value={m.mode} checked={value.mode === m.mode} onChange={() => set({ mode: m.mode })} />
            {m.label}
          </label>
        ))}
      </div>
      <p className="text-xs text-slate-500">{MODES.find((m) => m.mode === value.mode)!.help}</p>
      {value.mode === 'list' ? (
        <div className="grid gap-4 md:grid-cols-2">
          <Field id="cf-seed-file" label="Seed list file" help="A text file of external ids, one a line; blank lines and # comments are skipped.">
            <input id="cf-seed-file" ref={fileInput} type="file" accept=".txt,.csv,.index,text/plain" onChange={onFile} aria-describedby="cf-seed-file-help" className={INPUT} />
          </Field>
          {value.file ? (
            <p className="self-center text-slate-700" data-testid="seed-file">
              Using <span className="font-mono">{value.file.name}</span> ({value.file.text.split('\n').filter((l) => l.trim()).length.toLocaleString('en')} lines).{' '}
              <button type="button" className="text-blue-700 hover:underline"
                onClick={() => { if (fileInput.current) fileInput.current.value = ''; set({ file: null }); }}>
                Remove the file
              </button>
            </p>
          ) : (
            <Field id="cf-seed-list" label="… or paste external ids" help="One a line.">
              <textarea id="cf-seed-list" rows={5} value={value.text} onChange={(e) => set({ text: e.target.value })} aria-describedby="cf-seed-list-help" className={`${INPUT} font-mono`} />
            </Field>
          )}
        </div>
      ) : (
        <>
          <div className="grid gap-4 md:grid-cols-2">
            {value.mode === 'random' ? (
              <Field id="cf-seed-count" label="Number of seeds">
                <input id="cf-seed-count" type="number" min={1} value={value.count} onChange={(e) => set({ count: e.target.value })} className={INPUT} />
              </Field>
            ) : (
              <Field id="cf-seed-per-type" label="Seeds per type" help="All of a type that has fewer.">
                <input id="cf-seed-per-type" type="number" min={1} value={value.perType} onChange={(e) => set({ perType: e.target.value })} aria-describedby="cf-seed-per-type-help" className={INPUT} />
              </Field>
            )}
            <Field id="cf-seed-seed" label="Sampling seed" help="The same number always draws the same sample.">
              <input id="cf-seed-seed" type="number" step={1} value={value.seed} onChange={(e) => set({ seed: e.target.value })} aria-describedby="cf-seed-seed-help" className={INPUT} />
            </Field>
          </div>
          <fieldset>
            <legend className="mb-1">Entity types to draw from <span className="text-xs text-slate-500">(none ticked: every type)</span></legend>
            <div className="flex flex-wrap gap-x-4 gap-y-1">
              {types.map((t) => (
                <label key={t.name} className="flex items-center gap-2">
                  <input type="checkbox" checked={value.types.includes(t.name)} onChange={(e) => toggleType(t.name, e.target.checked)} />
                  {t.name} <span className="text-xs text-slate-500">({t.entityCount.toLocaleString('en')})</span>
                </label>
              ))}
            </div>
          </fieldset>
          <p className="text-xs text-slate-500">Entities without any edge are left out: they give an author nothing to ask about.</p>
        </>
      )}
      {error && <p id="cf-seeds-error" role="alert" className="text-red-700">{error}</p>}
    </fieldset>
  );
}
