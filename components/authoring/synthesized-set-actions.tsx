'use client';

import Link from 'next/link';
import { useState, type FormEvent } from 'react';
import type { CreatedValidationCampaign } from '@/lib/authoring/validation-campaign';
import { ApiError, requestJson, setApi } from '../queries/api';
import { Field } from '../queries/field';
import { studiesPage } from '../studies/api';
import { AnnotatorPicker } from './annotator-picker';
import { campaignPage } from './api';
import { NAME, NAME_RULE, queryCampaignErrors } from './campaign-form';

/** How many queries a rating study of a synthesized set samples by default. */
const RATING_SAMPLE = 50;
const INPUT = 'rounded border border-slate-300 px-2 py-1';
const LEFT_OUT_SHOWN = 20;

const FIELDS = ['name', 'querySet', 'annotatorsPerSeed', 'annotators'] as const;
type Errors = Partial<Record<(typeof FIELDS)[number], string>>;

/** The new-study form, prefilled with this set and a sample of it. */
export const ratingStudyLink = (slug: string, set: string, queries: number) =>
  `${studiesPage(slug)}/new?${new URLSearchParams({ querySet: set, sample: String(Math.max(1, Math.min(queries, RATING_SAMPLE))) })}`;

/**
 * What a curator does next with a synthesized set: rate a sample of it in a study, or send its queries to an
 * answer-validation campaign (the authoring workspace with the kept answers as suggestions).
 */
export function SynthesizedSetActions({ slug, set, queries }: { slug: string; set: string; queries: number }) {
  const [sending, setSending] = useState(false);
  return (
    <div className="mt-3 space-y-3 text-sm" data-testid="synthesized-actions">
      <div className="flex flex-wrap items-center gap-2">
        <Link href={ratingStudyLink(slug, set, queries)} className="rounded border border-blue-600 px-3 py-1 text-blue-700 hover:bg-blue-50">
          Open a rating study on a sample
        </Link>
        <button type="button" aria-expanded={sending} onClick={() => setSending((s) => !s)}
          className="rounded border border-blue-600 px-3 py-1 text-blue-700 hover:bg-blue-50">
          Send to answer validation
        </button>
      </div>
      {sending && <ValidationForm slug={slug} set={set} />}
    </div>
  );
}

function ValidationForm({ slug, set }: { slug: string; set: string }) {
  const [name, setName] = useState(`${set.slice(0, 69)}-validation`);
  const [querySet, setQuerySet] = useState(`${set.slice(0, 70)}-validated`);
  const [perSeed, setPerSeed] = useState('1');
  const [annotators, setAnnotators] = useState<string[]>([]);
  const [errors, setErrors] = useState<Errors>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [created, setCreated] = useState<CreatedValidationCampaign | null>(null);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const k = Number(perSeed);
    const found: Errors = { ...queryCampaignErrors(name, k, annotators), ...(!NAME.test(querySet.trim()) && { querySet: NAME_RULE }) };
    setErrors(found);
    setError(null);
    if (Object.keys(found).length) return;
    setBusy(true);
    try {
      setCreated(await requestJson<CreatedValidationCampaign>(`${setApi(slug, set)}/validation-campaign`, {
        method: 'POST', json: { name: name.trim(), querySet: querySet.trim(), annotatorsPerSeed: k, annotators },
      }));
    } catch (err) {
      setError((err as Error).message);
      // "querySet: …": the server names the field it refuses.
      const named = err instanceof ApiError ? /^(\w+): (.*)$/.exec(err.message) : null;
      const field = FIELDS.find((f) => f === named?.[1]);
      if (field) setErrors({ [field]: named![2] });
    } finally {
      setBusy(false);
    }
  }

  if (created) {
    return (
      <div role="status" className="space-y-1 rounded bg-green-50 px-3 py-2 text-green-900" data-testid="validation-created">
        <p>
          Campaign created with {created.seeds} {created.seeds === 1 ? 'query' : 'queries'} to validate.{' '}
          <Link href={campaignPage(slug, created.id)} className="font-medium text-blue-700 hover:underline">Open the campaign</Link>
        </p>
        {created.leftOut.length > 0 && (
          <details>
            <summary className="cursor-pointer">{created.leftOut.length} {created.leftOut.length === 1 ? 'query' : 'queries'} left out</summary>
            <ul className="list-disc pl-5">
              {created.leftOut.slice(0, LEFT_OUT_SHOWN).map((q) => <li key={q.id}>{q.id}: {q.reason}</li>)}
              {created.leftOut.length > LEFT_OUT_SHOWN && <li>and {created.leftOut.length - LEFT_OUT_SHOWN} more</li>}
            </ul>
          </details>
        )}
      </div>
    );
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Send to answer validation" className="space-y-4 rounded-lg border border-slate-200 bg-white p-4">
      <p className="text-slate-600">
        Annotators check each query and its answers in the authoring workspace; the answers the synthesis kept are shown as
        suggestions. Each query’s first seed is handed out once; approved queries go to the target set.
      </p>
      <div className="grid gap-4 md:grid-cols-3">
        <Field id="vf-name" label="Campaign name" error={errors.name}>
          <input id="vf-name" value={name} onChange={(e) => setName(e.target.value)} aria-invalid={!!errors.name} className={INPUT} />
        </Field>
        <Field id="vf-query-set" label="Target query set" help="A new set for the validated queries." error={errors.querySet}>
          <input id="vf-query-set" value={querySet} onChange={(e) => setQuerySet(e.target.value)} aria-invalid={!!errors.querySet} aria-describedby="vf-query-set-help" className={INPUT} />
        </Field>
        <Field id="vf-k" label="Annotators per query" help="1 to 20." error={errors.annotatorsPerSeed}>
          <input id="vf-k" type="number" min={1} max={20} value={perSeed} onChange={(e) => setPerSeed(e.target.value)} aria-invalid={!!errors.annotatorsPerSeed} aria-describedby="vf-k-help" className={`${INPUT} w-24`} />
        </Field>
      </div>
      <AnnotatorPicker value={annotators} onChange={setAnnotators} error={errors.annotators} />
      {error && <p role="alert" className="rounded bg-red-50 px-3 py-2 text-red-700">{error}</p>}
      <button type="submit" disabled={busy} className="rounded bg-blue-600 px-3 py-1.5 font-medium text-white hover:bg-blue-700 disabled:opacity-60">
        {busy ? 'Creating…' : 'Create the validation campaign'}
      </button>
    </form>
  );
}
