'use client';

import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import type { CreatedCampaign } from '@/lib/authoring/campaigns';
import { ApiError, requestJson, type LineProblem } from '../queries/api';
import { Field } from '../queries/field';
import { MarkdownText } from '../queries/markdown-text';
import { ProblemTable } from '../queries/problem-table';
import { AnnotatorPicker } from './annotator-picker';
import { campaignPage } from './api';
import { DEFAULT_SEEDS, SeedOptions, seedsBody, type SeedChoice } from './seed-options';

// Mirrors the server's rule for campaign and query-set names (lib/queries/sets.ts).
export const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,79}$/;
export const NAME_RULE = 'Use 1 to 80 letters, digits, “.”, “_” or “-”, starting with a letter or digit.';

/** The checks a campaign made from a query set shares: its name, annotators per query, and at least one annotator. */
export function queryCampaignErrors(name: string, perQuery: number, annotators: string[]): Partial<Record<'name' | 'annotatorsPerSeed' | 'annotators', string>> {
  return {
    ...(!NAME.test(name.trim()) && { name: NAME_RULE }),
    ...((!Number.isInteger(perQuery) || perQuery < 1 || perQuery > 20) && { annotatorsPerSeed: 'From 1 to 20 annotators per query.' }),
    ...(!annotators.length && { annotators: 'Tick at least one annotator.' }),
  };
}
const INPUT = 'rounded border border-slate-300 px-2 py-1';

const FIELDS = ['name', 'guidelines', 'annotatorsPerSeed', 'leaseMinutes', 'leakPolicy', 'bm25Target', 'querySet', 'annotators', 'seeds'] as const;
type FieldName = (typeof FIELDS)[number];
type FieldErrors = Partial<Record<FieldName, string>>;

/** The query set a campaign's name suggests, kept within the 80 characters a name may have. */
const derivedSetName = (name: string) => `${name.slice(0, 72)}-queries`;

/**
 * The server's refusal split by field: the per-field issues of a 400 (`details: [{field, message}]`), or a
 * message that starts with a field name ("annotators: no user with the email …").
 */
function fieldErrorsOf(err: ApiError): FieldErrors {
  const errors: FieldErrors = {};
  const add = (path: string, message: string) => {
    const field = FIELDS.find((f) => f === path.split('.')[0]);
    if (field) errors[field] = errors[field] ? `${errors[field]} ${message}` : message;
  };
  if (Array.isArray(err.details)) {
    for (const d of err.details as { field?: unknown; message?: unknown }[]) {
      if (typeof d.field === 'string' && typeof d.message === 'string') add(d.field, d.message);
    }
  }
  const prefixed = /^(\w+): (.*)$/.exec(err.message);
  if (!Object.keys(errors).length && prefixed) add(prefixed[1]!, prefixed[2]!);
  return errors;
}

/** Creates a campaign: its seeds, annotators, rules and target query set, then opens its page. */
export function CampaignForm({ slug, types, defaultGuidelines }: { slug: string; types: { name: string; entityCount: number }[]; defaultGuidelines: string }) {
  const router = useRouter();
  const [name, setName] = useState('');
  // The set follows the name until it is edited.
  const [querySet, setQuerySet] = useState<string | null>(null);
  const [guidelines, setGuidelines] = useState(defaultGuidelines);
  const [seeds, setSeeds] = useState<SeedChoice>(DEFAULT_SEEDS);
  const [annotators, setAnnotators] = useState<string[]>([]);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [error, setError] = useState<string | null>(null);
  const [problems, setProblems] = useState<LineProblem[]>([]);
  const [busy, setBusy] = useState(false);
  const trimmedName = name.trim();
  const targetSet = querySet ?? (trimmedName ? derivedSetName(trimmedName) : '');

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const k = Number(form.get('annotatorsPerSeed'));
    const lease = Number(form.get('leaseMinutes'));
    // Blank: no difficulty target.
    const targetText = String(form.get('bm25Target') ?? '').trim();
    const target = targetText ? Number(targetText) : null;
    const seedChoice = seedsBody(seeds);
    const errors: FieldErrors = {};
    if (!NAME.test(trimmedName)) errors.name = NAME_RULE;
    if (!NAME.test(targetSet.trim())) errors.querySet = NAME_RULE;
    if (!Number.isInteger(k) || k < 1 || k > 20) errors.annotatorsPerSeed = 'From 1 to 20 annotators per seed.';
    if (!Number.isInteger(lease) || lease < 1 || lease > 10_080) errors.leaseMinutes = 'From 1 minute to 10,080 (a week).';
    if (target !== null && (!Number.isInteger(target) || target < 1 || target > 100)) errors.bm25Target = 'A whole number from 1 to 100, or blank for no target.';
    if (!annotators.length) errors.annotators = 'Tick at least one annotator.';
    if ('error' in seedChoice) errors.seeds = seedChoice.error;
    setFieldErrors(errors);
    setError(null);
    setProblems([]);
    if (Object.keys(errors).length || 'error' in seedChoice) return;

    setBusy(true);
    try {
      const created = await requestJson<CreatedCampaign>(`/api/kbs/${encodeURIComponent(slug)}/campaigns`, {
        method: 'POST',
        json: {
          name: trimmedName, guidelines, annotatorsPerSeed: k, leaseMinutes: lease, leakPolicy: form.get('leakPolicy'), bm25Target: target,
          querySet: targetSet.trim(), open: form.get('open') === 'on', annotators, seeds: seedChoice.body,
        },
      });
      router.push(campaignPage(slug, created.id));
    } catch (err) {
      setError((err as Error).message);
      if (err instanceof ApiError) {
        setProblems(err.problems);
        setFieldErrors(fieldErrorsOf(err));
      }
      setBusy(false);
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-6 rounded-lg border border-slate-200 bg-white p-4 text-sm">
      <div className="grid gap-4 md:grid-cols-2">
        <Field id="cf-name" label="Name" help="Unique on this knowledge base; letters, digits, “.”, “_” and “-”." error={fieldErrors.name}>
          <input id="cf-name" value={name} onChange={(e) => setName(e.target.value)} placeholder="brands-spring" aria-invalid={!!fieldErrors.name} aria-describedby="cf-name-help" className={INPUT} />
        </Field>
        <Field id="cf-query-set" label="Target query set" help="Approved queries go there; it is created when it does not exist." error={fieldErrors.querySet}>
          <input id="cf-query-set" value={targetSet} onChange={(e) => setQuerySet(e.target.value)} aria-invalid={!!fieldErrors.querySet} aria-describedby="cf-query-set-help" className={INPUT} />
        </Field>
      </div>

      <div className="grid gap-4 md:grid-cols-2">
        <Field id="cf-guidelines" label="Guidelines" help="Markdown; annotators see them beside their work." error={fieldErrors.guidelines}>
          <textarea id="cf-guidelines" rows={16} value={guidelines} maxLength={50_000} onChange={(e) => setGuidelines(e.target.value)}
            aria-invalid={!!fieldErrors.guidelines} aria-describedby="cf-guidelines-help" className={`${INPUT} font-mono text-xs`} />
        </Field>
        <div className="flex flex-col gap-1">
          <span id="cf-guidelines-preview">Preview</span>
          <div aria-labelledby="cf-guidelines-preview" role="region" tabIndex={0} className="max-h-96 overflow-y-auto rounded border border-slate-200 bg-slate-50 p-3" data-testid="guidelines-preview">
            <MarkdownText text={guidelines} />
          </div>
        </div>
      </div>

      <SeedOptions types={types} value={seeds} onChange={setSeeds} error={fieldErrors.seeds} />

      <AnnotatorPicker value={annotators} onChange={setAnnotators} error={fieldErrors.annotators} />

      <div className="grid gap-4 md:grid-cols-3">
        <Field id="cf-k" label="Annotators per seed (k)" help="Each seed is written about by this many different annotators, 1 to 20." error={fieldErrors.annotatorsPerSeed}>
          <input id="cf-k" name="annotatorsPerSeed" type="number" min={1} max={20} defaultValue={2} aria-invalid={!!fieldErrors.annotatorsPerSeed} aria-describedby="cf-k-help" className={INPUT} />
        </Field>
        <Field id="cf-lease" label="Lease (minutes)" help="How long a seed stays with an annotator who stops working on it." error={fieldErrors.leaseMinutes}>
          <input id="cf-lease" name="leaseMinutes" type="number" min={1} max={10_080} defaultValue={60} aria-invalid={!!fieldErrors.leaseMinutes} aria-describedby="cf-lease-help" className={INPUT} />
        </Field>
        <fieldset aria-describedby="cf-leak-help">
          <legend className="mb-1">When a query names its seed</legend>
          <label className="flex items-center gap-2"><input type="radio" name="leakPolicy" value="warn" defaultChecked />Warn the annotator</label>
          <label className="flex items-center gap-2"><input type="radio" name="leakPolicy" value="block" />Refuse the submission</label>
          <p id="cf-leak-help" className="text-xs text-slate-500">The seed’s name or an alias in the query gives the answer away.</p>
          {fieldErrors.leakPolicy && <p role="alert" className="text-red-700">{fieldErrors.leakPolicy}</p>}
        </fieldset>
      </div>

      <Field id="cf-bm25-target" label="Difficulty target (optional): answers should not be in BM25’s top N"
        help="1 to 100; blank for none. The workspace warns (never blocks) when BM25 ranks the seed or an answer that high." error={fieldErrors.bm25Target}>
        <input id="cf-bm25-target" name="bm25Target" type="number" min={1} max={100} placeholder="e.g. 5" aria-invalid={!!fieldErrors.bm25Target} aria-describedby="cf-bm25-target-help" className={`${INPUT} w-32`} />
      </Field>

      <label className="flex items-center gap-2"><input name="open" type="checkbox" defaultChecked />Open now: annotators can start at once</label>

      {error && <p role="alert" className="rounded bg-red-50 px-3 py-2 text-red-700">{error}</p>}
      {problems.length > 0 && <ProblemTable problems={problems} caption="Problems in the seed list; nothing was created." />}
      <button type="submit" disabled={busy} className="rounded bg-blue-600 px-3 py-1.5 font-medium text-white hover:bg-blue-700 disabled:opacity-60">
        {busy ? 'Creating…' : 'Create campaign'}
      </button>
    </form>
  );
}
