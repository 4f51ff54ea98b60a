'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useState, type FormEvent } from 'react';
import { errorAt, type FieldErrors } from '../studies/study-draft';
import { requestJson } from '../queries/api';
import { synthesisApi, type LlmStatus, type PreviewItem } from './api';
import { JobList, jobsKey } from './job-list';
import { JobProgress } from './job-progress';
import { LlmStatusLine } from './llm-status';
import { PreviewList } from './preview-list';
import { PromptList } from './prompt-list';
import { initialDraft, specBody, synthesisErrorsOf, type SynthesisDraft } from './synthesis-draft';
import { SynthesisOptions } from './synthesis-options';
import { TemplatePicker } from './template-picker';

/**
 * The curator's synthesis page: the LLM in use, templates, options, a preview of five attempts, then the job
 * with its progress, the earlier jobs, and the prompts the LLM steps use.
 */
export function SynthesisWorkbench({ slug, types }: { slug: string; types: string[] }) {
  const queryClient = useQueryClient();
  const [llm, setLlm] = useState<LlmStatus>();
  const [draft, setDraft] = useState<SynthesisDraft>(() => initialDraft(true));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<'preview' | 'job' | null>(null);
  const [preview, setPreview] = useState<PreviewItem[] | null>(null);
  const [shownJob, setShownJob] = useState<number | null>(null);
  const onLlm = useCallback((status: LlmStatus) => setLlm(status), []);
  const patch = (p: Partial<SynthesisDraft>) => {
    setDraft((d) => ({ ...d, ...p }));
    const touched = Object.keys(p).map((k) => (k === 'chosen' || k === 'mode' || k.startsWith('range') ? 'templates' : k));
    setErrors((e) => Object.fromEntries(Object.entries(e).filter(([k]) => !touched.includes(k))));
  };
  const refreshJobs = () => queryClient.invalidateQueries({ queryKey: jobsKey(slug) });

  async function send(purpose: 'preview' | 'job') {
    setError(null);
    // Without a configured LLM there is nothing to tick: the deterministic steps run.
    const checked = specBody({ ...draft, useLlm: draft.useLlm && !!llm?.configured }, purpose);
    if ('errors' in checked) {
      setErrors(checked.errors);
      setError('Some fields need a change; they are marked.');
      return;
    }
    setErrors({});
    setBusy(purpose);
    try {
      if (purpose === 'preview') {
        setPreview((await requestJson<{ items: PreviewItem[] }>(`${synthesisApi(slug)}/preview`, { method: 'POST', json: checked.body })).items);
      } else {
        const { id } = await requestJson<{ id: number }>(`${synthesisApi(slug)}/jobs`, { method: 'POST', json: checked.body });
        setShownJob(id);
        await refreshJobs();
      }
    } catch (err) {
      setError((err as Error).message);
      setErrors(synthesisErrorsOf(err));
    } finally {
      setBusy(null);
    }
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void send('job');
  }

  return (
    <div className="space-y-6 text-sm">
      <form onSubmit={onSubmit} noValidate aria-label="Synthesis" className="min-w-0 space-y-6 rounded-lg border border-slate-200 bg-white p-4">
        <LlmStatusLine llm={llm} useLlm={draft.useLlm} onUseLlm={(useLlm) => patch({ useLlm })} />
        <TemplatePicker slug={slug} types={types} draft={draft} patch={patch} error={errorAt(errors, 'templates')} onLlm={onLlm} />
        <SynthesisOptions draft={draft} patch={patch} errors={errors} llm={llm} />
        {error && <p role="alert" className="rounded bg-red-50 px-3 py-2 text-red-700" data-testid="synthesis-error">{error}</p>}
        <div className="flex flex-wrap gap-2">
          <button type="button" onClick={() => void send('preview')} disabled={busy !== null}
            className="rounded border border-blue-600 px-3 py-1.5 text-blue-700 hover:bg-blue-50 disabled:opacity-60">
            {busy === 'preview' ? 'Previewing…' : 'Preview five'}
          </button>
          <button type="submit" disabled={busy !== null} className="rounded bg-blue-600 px-3 py-1.5 font-medium text-white hover:bg-blue-700 disabled:opacity-60">
            {busy === 'job' ? 'Starting…' : 'Synthesize'}
          </button>
        </div>
      </form>
      {preview && <PreviewList slug={slug} items={preview} />}
      {shownJob !== null && <JobProgress key={shownJob} slug={slug} id={shownJob} onChanged={refreshJobs} />}
      <JobList slug={slug} shown={shownJob} onShow={setShownJob} />
      <PromptList />
    </div>
  );
}
