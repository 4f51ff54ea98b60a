'use client';

import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import type { CreatedStudy } from '@/lib/studies/create';
import { ApiError, requestJson } from '../queries/api';
import { Field } from '../queries/field';
import { fmtCount } from '../queries/format';
import { studiesApi, studyLinkUrl, studyPage } from './api';
import { AttentionCheckEditor } from './attention-check-editor';
import { DimensionEditor } from './dimension-editor';
import { MarkdownField } from './markdown-field';
import { ShownOnce } from './shown-once';
import { SourceEditor } from './source-editor';
import { fieldErrorsOf, initialDraft, studyBody, type FieldErrors, type StudyDraft } from './study-draft';
import { useSourceOptions } from './use-source-options';

const INPUT = 'rounded border border-slate-300 px-2 py-1';
/** Where the API reports the problems of a form field whose name differs from the body's. */
const ERROR_PATH: Partial<Record<keyof StudyDraft, string>> = { checks: 'attentionChecks' };

/** Sets up a study: its texts, sources, dimensions, design and dates; then shows its study link once. */
export function StudyForm({ slug, defaultInstructions, source }: { slug: string; defaultInstructions: string; source?: { querySet: string; sample: string } }) {
  const router = useRouter();
  const [draft, setDraft] = useState<StudyDraft>(() => initialDraft(defaultInstructions, source));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [created, setCreated] = useState<(CreatedStudy & { link: string }) | null>(null);
  const options = useSourceOptions(slug, draft.sources);
  const patch = (p: Partial<StudyDraft>) => {
    setDraft((d) => ({ ...d, ...p }));
    // A field that changes loses its marked problem; the others keep theirs until the next try.
    const paths = Object.keys(p).map((k) => ERROR_PATH[k as keyof StudyDraft] ?? k);
    setErrors((e) => Object.fromEntries(Object.entries(e).filter(([k]) => !paths.some((path) => k === path || k.startsWith(`${path}.`)))));
  };

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    const checked = studyBody(draft);
    if ('errors' in checked) {
      setErrors(checked.errors);
      setError('Some fields need a change; they are marked.');
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      const study = await requestJson<CreatedStudy>(studiesApi(slug), { method: 'POST', json: checked.body });
      // Without a study link there is nothing to show once: straight to the study.
      if (!study.linkToken) router.push(studyPage(slug, study.id));
      else setCreated({ ...study, link: studyLinkUrl(window.location.origin, study.linkToken) });
    } catch (err) {
      setError((err as Error).message);
      if (err instanceof ApiError) setErrors(fieldErrorsOf(err));
      setBusy(false);
    }
  }

  if (created) {
    return (
      <div className="space-y-3" data-testid="study-created">
        <p role="status" className="rounded bg-green-50 px-3 py-2 text-sm text-green-800">
          Study created with {fmtCount(created.items)} items{created.attentionChecks ? ` and ${created.attentionChecks} attention ${created.attentionChecks === 1 ? 'check' : 'checks'}` : ''}.
        </p>
        <ShownOnce title="Study link" links={[created.link]} testId="study-link">
          <Link href={studyPage(slug, created.id)} className="rounded bg-blue-600 px-3 py-1.5 font-medium text-white hover:bg-blue-700">Go on to the study</Link>
        </ShownOnce>
        <p className="text-sm text-slate-600">Anyone with the study link can take part without an account while the study takes answers. The study’s page can replace it with a new one.</p>
      </div>
    );
  }

  const sizesKnown = options.sizes.every((n) => n !== null);
  const items = options.sizes.reduce<number>((sum, n) => sum + (n ?? 0), 0);
  const ipp = Number(draft.itemsPerParticipant);
  const ppi = Number(draft.participantsPerItem);
  const plan = sizesKnown && ipp >= 1 && ppi >= 1
    ? `${fmtCount(items)} items × ${fmtCount(ppi)} ${ppi === 1 ? 'rater' : 'raters'} = ${fmtCount(items * ppi)} item ratings: ${fmtCount(Math.ceil((items * ppi) / ipp))} participants at ${fmtCount(ipp)} items each cover them.`
    : null;

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-6 rounded-lg border border-slate-200 bg-white p-4 text-sm">
      <Field id="sf-name" label="Name" help="Unique on this knowledge base; letters, digits, “.”, “_” and “-”." error={errors.name}>
        <input id="sf-name" value={draft.name} onChange={(e) => patch({ name: e.target.value })} placeholder="naturalness-spring"
          aria-invalid={!!errors.name} aria-describedby="sf-name-help" className={`${INPUT} max-w-md`} />
      </Field>

      <MarkdownField id="sf-instructions" label="Instructions" value={draft.instructions} onChange={(instructions) => patch({ instructions })} error={errors.instructions}
        help="Markdown; participants read them before the first item and can open them again." />
      <MarkdownField id="sf-consent" label="Consent" value={draft.consent} onChange={(consent) => patch({ consent })} error={errors.consent}
        help="Markdown; when given, participants must agree to it before rating. Leave empty for no consent step." />

      <SourceEditor value={draft.sources} onChange={(sources) => patch({ sources })} options={options} errors={errors} />

      <DimensionEditor value={draft.dimensions} onChange={(dimensions) => patch({ dimensions })} errors={errors} />

      <fieldset className="space-y-3">
        <legend className="mb-1 text-base font-medium">Design</legend>
        <div className="grid gap-4 md:grid-cols-3">
          <Field id="sf-ipp" label="Items per participant" help="Each participant rates this many items (plus every attention check)." error={errors.itemsPerParticipant}>
            <input id="sf-ipp" type="number" min={1} value={draft.itemsPerParticipant} onChange={(e) => patch({ itemsPerParticipant: e.target.value })}
              aria-invalid={!!errors.itemsPerParticipant} aria-describedby="sf-ipp-help" className={INPUT} />
          </Field>
          <Field id="sf-ppi" label="Participants per item" help="The overlap: how many participants rate each item, at most." error={errors.participantsPerItem}>
            <input id="sf-ppi" type="number" min={1} value={draft.participantsPerItem} onChange={(e) => patch({ participantsPerItem: e.target.value })}
              aria-invalid={!!errors.participantsPerItem} aria-describedby="sf-ppi-help" className={INPUT} />
          </Field>
          <Field id="sf-seed" label="Seed" help="Fixes the samples and the order of the items; each participant’s own order is shuffled with their own seed." error={errors.seed}>
            <input id="sf-seed" type="number" min={0} value={draft.seed} onChange={(e) => patch({ seed: e.target.value })}
              aria-invalid={!!errors.seed} aria-describedby="sf-seed-help" className={INPUT} />
          </Field>
        </div>
        {plan && <p className="text-slate-600" data-testid="design-plan">{plan}</p>}
        <label className="flex items-center gap-2">
          <input type="checkbox" checked={draft.showAnswers} onChange={(e) => patch({ showAnswers: e.target.checked })} />
          Show each query’s answers (by name) to participants
        </label>
        <label className="flex items-center gap-2">
          <input type="checkbox" checked={draft.allowEditsAfterFinish} onChange={(e) => patch({ allowEditsAfterFinish: e.target.checked })} />
          Let participants change their answers after finishing (while the study is open)
        </label>
      </fieldset>

      <AttentionCheckEditor value={draft.checks} onChange={(checks) => patch({ checks })} dimensions={draft.dimensions} errors={errors} />

      <fieldset className="space-y-3">
        <legend className="mb-1 text-base font-medium">Access and dates</legend>
        <div className="grid gap-4 md:grid-cols-2">
          <Field id="sf-opens" label="Opens" help="Your local time; empty: as soon as the study is open." error={errors.opensAt}>
            <input id="sf-opens" type="datetime-local" value={draft.opensAt} onChange={(e) => patch({ opensAt: e.target.value })}
              aria-invalid={!!errors.opensAt} aria-describedby="sf-opens-help" className={INPUT} />
          </Field>
          <Field id="sf-closes" label="Closes" help="Your local time; empty: until the study is closed." error={errors.closesAt}>
            <input id="sf-closes" type="datetime-local" value={draft.closesAt} onChange={(e) => patch({ closesAt: e.target.value })}
              aria-invalid={!!errors.closesAt} aria-describedby="sf-closes-help" className={INPUT} />
          </Field>
        </div>
        <label className="flex items-center gap-2">
          <input type="checkbox" checked={draft.studyLink} onChange={(e) => patch({ studyLink: e.target.checked })} />
          Study link: anyone with it can take part without an account
        </label>
        <label className="flex items-center gap-2">
          <input type="checkbox" checked={draft.open} onChange={(e) => patch({ open: e.target.checked })} />
          Open now: take answers from the opening date on
        </label>
      </fieldset>

      {error && <p role="alert" className="rounded bg-red-50 px-3 py-2 text-red-700">{error}</p>}
      <button type="submit" disabled={busy} className="rounded bg-blue-600 px-3 py-1.5 font-medium text-white hover:bg-blue-700 disabled:opacity-60">
        {busy ? 'Creating…' : 'Create study'}
      </button>
    </form>
  );
}
