'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { ModelRaterView } from '@/lib/studies/model-rater-store';
import { requestJson } from '../queries/api';
import { fmtCount } from '../queries/format';
import { modelRatersApi } from './api';

export interface ModelRaters {
  llm: { configured: boolean; model: string | null };
  items: (ModelRaterView & { interrupted: boolean })[];
}

export const modelRatersKey = (studyId: number) => ['study-model-raters', studyId] as const;

const BUTTON = 'rounded border border-slate-300 px-3 py-1.5 hover:bg-slate-50 disabled:opacity-60';
const MAX_MODEL = 200;
/** How often the progress is read while a model rates. */
const POLL_MS = 1500;

/**
 * Adds a model rater: the configured LLM, or another model on the same endpoint, rates every item of the study
 * in the background; its ratings are a source of their own in the results, never counted with the people's.
 */
export function ModelRaterPanel({ studyId }: { studyId: number }) {
  const queryClient = useQueryClient();
  const [model, setModel] = useState('');
  const raters = useQuery({
    queryKey: modelRatersKey(studyId),
    queryFn: () => requestJson<ModelRaters>(modelRatersApi(studyId)),
    refetchInterval: (q) => (q.state.data?.items.some((r) => r.status === 'RUNNING' && !r.interrupted) ? POLL_MS : false),
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: modelRatersKey(studyId) });
  const add = useMutation({
    mutationFn: () => requestJson<{ id: number }>(modelRatersApi(studyId), { method: 'POST', json: model.trim() ? { model: model.trim() } : {} }),
    onSuccess: refresh,
  });
  const cancel = useMutation({
    mutationFn: (name: string) => requestJson<{ id: number }>(`${modelRatersApi(studyId)}?model=${encodeURIComponent(name)}`, { method: 'DELETE' }),
    onSuccess: refresh,
  });
  if (raters.error) return <p role="alert" className="text-sm text-red-700">Could not load the model raters: {raters.error.message}</p>;
  if (!raters.data) return <p className="text-sm text-slate-500">Loading…</p>;
  const { llm, items } = raters.data;
  return (
    <div className="space-y-3 text-sm" data-testid="model-raters">
      <p className="text-slate-600">
        A model rates every item on the study’s scales, from its instructions, dimensions and anchors. Its ratings are shown apart in the
        results, with its agreement with the people, and never counted in the human figures.
      </p>
      {llm.configured ? (
        <div className="flex flex-wrap items-end gap-3">
          <p className="w-full">Configured model: <span className="break-all font-mono" data-testid="configured-model">{llm.model}</span></p>
          <div className="flex min-w-0 flex-col gap-1">
            <label htmlFor="model-rater-model">Model <span className="text-slate-500">(empty: the configured one)</span></label>
            <input id="model-rater-model" value={model} maxLength={MAX_MODEL} onChange={(e) => setModel(e.target.value)} placeholder={llm.model ?? ''}
              className="w-64 max-w-full rounded border border-slate-300 px-2 py-1 font-mono" />
          </div>
          <button type="button" className={BUTTON} disabled={add.isPending} onClick={() => add.mutate()}>
            {add.isPending ? 'Adding…' : 'Add a model rater'}
          </button>
        </div>
      ) : (
        <div className="flex flex-wrap items-center gap-3">
          <button type="button" className={BUTTON} disabled aria-describedby="model-rater-unavailable">Add a model rater</button>
          <p id="model-rater-unavailable" className="text-slate-600">No LLM is configured: set SKB_LLM_BASE_URL and SKB_LLM_MODEL on the server.</p>
        </div>
      )}
      {(add.error ?? cancel.error) && <p role="alert" className="text-red-700">{(add.error ?? cancel.error)!.message}</p>}
      {items.length > 0 && (
        <ul className="space-y-2">
          {items.map((r) => <RaterProgress key={r.id} rater={r} onCancel={() => cancel.mutate(r.model)} cancelling={cancel.isPending && cancel.variables === r.model} />)}
        </ul>
      )}
    </div>
  );
}

function RaterProgress({ rater: r, onCancel, cancelling }: { rater: ModelRaters['items'][number]; onCancel: () => void; cancelling: boolean }) {
  const status = r.interrupted ? 'interrupted: add it again to resume' : r.status.toLowerCase();
  return (
    <li className="rounded border border-slate-200 p-2" data-testid="model-rater">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <span className="break-all font-mono">{r.model}</span>
        <span className="text-slate-500">on {r.baseUrlHost}</span>
        <span data-testid="model-rater-status">{status}</span>
        {r.status === 'RUNNING' && (
          <button type="button" className={BUTTON} disabled={cancelling} onClick={onCancel}>{cancelling ? 'Cancelling…' : 'Cancel'}</button>
        )}
      </div>
      <div className="mt-1 flex items-center gap-3">
        <progress className="h-2 w-40 max-w-full" max={Math.max(1, r.total)} value={r.done} aria-label={`${r.model}: items rated`} />
        <span className="tabular-nums" data-testid="model-rater-progress">
          {fmtCount(r.done)} of {fmtCount(r.total)} rated{r.failures ? `, ${fmtCount(r.failures)} failed` : ''}
        </span>
      </div>
      {r.message && <p className="mt-1 text-slate-600">{r.message}</p>}
    </li>
  );
}
