'use client';

import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { TemplateSize } from '@/lib/synthesis/types';
import { requestJson } from '../queries/api';
import { fmtCount, fmtPercent } from '../queries/format';
import { Pager } from '../queries/pager';
import { synthesisApi, type LlmStatus, type TemplateList } from './api';
import type { SynthesisDraft } from './synthesis-draft';

const INPUT = 'rounded border border-slate-300 px-2 py-1';
const PAGE_SIZE = 20;

interface Props {
  slug: string;
  types: string[];
  draft: SynthesisDraft;
  patch: (p: Partial<SynthesisDraft>) => void;
  error?: string;
  /** The LLM status comes with the template list. */
  onLlm: (llm: LlmStatus) => void;
}

/**
 * The relational templates of the knowledge base's schema, filtered by seed type, answer type and steps; their
 * answer-set sizes measured on a sample on request; chosen one by one, or all whose sizes fall in a range.
 */
export function TemplatePicker({ slug, types, draft, patch, error, onLlm }: Props) {
  const [seedType, setSeedType] = useState('');
  const [answerType, setAnswerType] = useState('');
  const [steps, setSteps] = useState('');
  const [page, setPage] = useState(1);
  // Sizes stay known across pages and filters once measured.
  const [sizes, setSizes] = useState<Record<string, TemplateSize>>({});
  const search = (measure: boolean) => {
    const q = new URLSearchParams({ limit: String(PAGE_SIZE), offset: String((page - 1) * PAGE_SIZE) });
    if (seedType) q.set('seedType', seedType);
    if (answerType) q.set('answerType', answerType);
    if (steps) q.set('steps', steps);
    if (measure) q.set('measure', '1');
    return `${synthesisApi(slug)}/templates?${q}`;
  };
  const list = useQuery({
    queryKey: ['synthesis-templates', slug, seedType, answerType, steps, page],
    queryFn: () => requestJson<TemplateList>(search(false)),
  });
  useEffect(() => {
    if (list.data) onLlm(list.data.llm);
  }, [list.data, onLlm]);
  const measure = useMutation({
    mutationFn: () => requestJson<TemplateList>(search(true)),
    onSuccess: (answer) => setSizes((s) => ({ ...s, ...Object.fromEntries(answer.items.flatMap((t) => (t.size ? [[t.key, t.size]] : []))) })),
  });
  const filter = (set: (v: string) => void) => (v: string) => { set(v); setPage(1); };
  const chosen = new Set(draft.chosen);
  const toggle = (key: string, on: boolean) => patch({ mode: 'chosen', chosen: on ? [...draft.chosen, key] : draft.chosen.filter((k) => k !== key) });
  const items = list.data?.items ?? [];
  const pages = Math.max(1, Math.ceil((list.data?.total ?? 0) / PAGE_SIZE));

  return (
    <fieldset className="space-y-3" aria-describedby={error ? 'templates-error' : undefined}>
      <legend className="mb-1 text-base font-medium">Templates</legend>
      <div className="flex flex-wrap items-end gap-3">
        <TypeSelect id="tp-seed" label="Seed type" types={types} value={seedType} onChange={filter(setSeedType)} />
        <TypeSelect id="tp-answer" label="Answer type" types={types} value={answerType} onChange={filter(setAnswerType)} />
        <div className="flex flex-col gap-1">
          <label htmlFor="tp-steps">Steps</label>
          <select id="tp-steps" value={steps} onChange={(e) => filter(setSteps)(e.target.value)} className={INPUT}>
            <option value="">Any</option>
            {[1, 2, 3].map((n) => <option key={n} value={n}>{n}</option>)}
          </select>
        </div>
        <button type="button" onClick={() => measure.mutate()} disabled={measure.isPending || items.length === 0}
          className="rounded border border-blue-600 px-3 py-1 text-blue-700 hover:bg-blue-50 disabled:opacity-60">
          {measure.isPending ? 'Measuring…' : 'Measure answer-set sizes'}
        </button>
      </div>
      {list.error && <p role="alert" className="text-red-700">Could not load the templates: {list.error.message}</p>}
      {measure.error && <p role="alert" className="text-red-700">Could not measure: {measure.error.message}</p>}
      {list.data && (
        <p className="text-slate-600" data-testid="template-total">
          {fmtCount(list.data.total)} {list.data.total === 1 ? 'template' : 'templates'}
          {draft.mode === 'chosen' && draft.chosen.length > 0 && <> · {draft.chosen.length} chosen{' '}
            <button type="button" onClick={() => patch({ chosen: [] })} className="text-blue-700 hover:underline">Clear</button></>}
        </p>
      )}
      <ul className="divide-y divide-slate-100 rounded border border-slate-200" data-testid="template-list">
        {items.map((t, i) => {
          const size = sizes[t.key] ?? t.size;
          return (
            <li key={t.key} className="flex items-start gap-2 px-2 py-1.5">
              <input id={`tp-${i}`} type="checkbox" className="mt-1" checked={chosen.has(t.key)} onChange={(e) => toggle(t.key, e.target.checked)} />
              <label htmlFor={`tp-${i}`} className="min-w-0 flex-1 break-words">
                {t.words}
                <span className="block break-all text-xs text-slate-500">{t.key} · {t.steps} {t.steps === 1 ? 'step' : 'steps'}</span>
              </label>
              {size && <SizeFigure size={size} />}
            </li>
          );
        })}
        {list.data && items.length === 0 && <li className="px-2 py-1.5 text-slate-500">No template matches these filters.</li>}
      </ul>
      <Pager page={page} pages={pages} onPage={setPage} />
      <div className="space-y-2 rounded border border-slate-200 p-3">
        <label className="flex items-center gap-2">
          <input type="radio" name="template-mode" checked={draft.mode === 'chosen'} onChange={() => patch({ mode: 'chosen' })} />
          The templates chosen above ({draft.chosen.length})
        </label>
        <div className="flex flex-wrap items-center gap-2">
          <label className="flex items-center gap-2">
            <input type="radio" name="template-mode" checked={draft.mode === 'range'} onChange={() => patch({ mode: 'range' })} />
            All with answer sets of
          </label>
          <input type="number" min={1} max={1000} aria-label="Smallest answer-set size" value={draft.rangeMin}
            onChange={(e) => patch({ mode: 'range', rangeMin: e.target.value })} className={`${INPUT} w-20`} />
          <span aria-hidden="true">–</span>
          <input type="number" min={1} max={1000} aria-label="Largest answer-set size" value={draft.rangeMax}
            onChange={(e) => patch({ mode: 'range', rangeMax: e.target.value })} className={`${INPUT} w-20`} />
        </div>
        <p className="text-xs text-slate-500">Measured on a sample of seeds; a template counts when its median answer set lies in the range.</p>
      </div>
      {error && <p id="templates-error" role="alert" className="text-red-700">{error}</p>}
    </fieldset>
  );
}

function TypeSelect({ id, label, types, value, onChange }: { id: string; label: string; types: string[]; value: string; onChange: (v: string) => void }) {
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)} className={`${INPUT} max-w-[10rem]`}>
        <option value="">Any</option>
        {types.map((t) => <option key={t} value={t}>{t}</option>)}
      </select>
    </div>
  );
}

/** A template's answer-set sizes on the sample: the share of seeds with any answer as a bar, and the figures. */
function SizeFigure({ size }: { size: TemplateSize }) {
  const share = size.sampled ? size.nonEmpty / size.sampled : 0;
  return (
    <div className="w-28 shrink-0 text-right text-xs text-slate-600" data-testid="template-size">
      <div role="img" aria-label={`${fmtPercent(share)} of ${size.sampled} sampled seeds have answers`} className="ml-auto h-1.5 w-full overflow-hidden rounded bg-slate-100">
        <div className="h-full bg-blue-600" style={{ width: `${Math.round(100 * share)}%` }} />
      </div>
      <p>mean {size.mean.toFixed(1)} · median {size.median} · max {fmtCount(size.max)}</p>
      <p>{fmtPercent(share)} non-empty of {size.sampled}</p>
    </div>
  );
}
