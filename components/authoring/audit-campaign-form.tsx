'use client';

import Link from 'next/link';
import { useState, type FormEvent } from 'react';
import type { CreatedAuditCampaign } from '@/lib/authoring/audit-campaign';
import { ApiError, requestJson, setApi } from '../queries/api';
import { Field } from '../queries/field';
import { AnnotatorPicker } from './annotator-picker';
import { campaignPage } from './api';
import { queryCampaignErrors } from './campaign-form';

const INPUT = 'rounded border border-slate-300 px-2 py-1';
// Controls take the column's width: a select is as wide as its longest option, and set names can be long.
const WIDE = `${INPUT} w-full`;
const PROBLEMS_SHOWN = 20;

export interface AuditableSet {
  name: string;
  queries: number;
  /** Release numbers, newest first. */
  releases: number[];
}

type Errors = Partial<Record<'name' | 'set' | 'annotatorsPerSeed' | 'annotators', string>>;

/** A new audit: which set (or release of it), who audits, and how many annotators check each query. */
export function AuditCampaignForm({ slug, sets, initialSet }: { slug: string; sets: AuditableSet[]; initialSet: string | null }) {
  const [chosen, setChosen] = useState(initialSet && sets.some((s) => s.name === initialSet) ? initialSet : (sets[0]?.name ?? ''));
  const [release, setRelease] = useState('');
  const [name, setName] = useState(`${(initialSet ?? sets[0]?.name ?? 'set').slice(0, 73)}-audit`);
  const [perQuery, setPerQuery] = useState('1');
  const [annotators, setAnnotators] = useState<string[]>([]);
  const [errors, setErrors] = useState<Errors>({});
  const [error, setError] = useState<ApiError | Error | null>(null);
  const [busy, setBusy] = useState(false);
  const [created, setCreated] = useState<CreatedAuditCampaign | null>(null);
  const set = sets.find((s) => s.name === chosen);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const k = Number(perQuery);
    const found: Errors = { ...queryCampaignErrors(name, k, annotators), ...(!set && { set: 'Choose the query set to audit.' }) };
    setErrors(found);
    setError(null);
    if (Object.keys(found).length) return;
    setBusy(true);
    try {
      setCreated(await requestJson<CreatedAuditCampaign>(`${setApi(slug, chosen)}/audit-campaign`, {
        method: 'POST', json: { name: name.trim(), annotatorsPerSeed: k, annotators, ...(release && { release: Number(release) }) },
      }));
    } catch (err) {
      setError(err as Error);
    } finally {
      setBusy(false);
    }
  }

  if (created) {
    return (
      <p role="status" className="rounded bg-green-50 px-3 py-2 text-green-900" data-testid="audit-created">
        Audit created with {created.items} {created.items === 1 ? 'query' : 'queries'} to check.{' '}
        <Link href={campaignPage(slug, created.id)} className="font-medium text-blue-700 hover:underline">Open the campaign</Link>
      </p>
    );
  }
  if (!sets.length) return <p className="text-slate-600">This knowledge base has no query set to audit yet.</p>;
  const problems = error instanceof ApiError ? error.problems : [];
  return (
    <form onSubmit={onSubmit} noValidate aria-label="New audit" className="space-y-4 rounded-lg border border-slate-200 bg-white p-4 text-sm">
      <div className="grid grid-cols-1 gap-4 md:grid-cols-2">
        <Field id="af-set" label="Query set" error={errors.set}>
          <select id="af-set" value={chosen} onChange={(e) => { setChosen(e.target.value); setRelease(''); }} className={WIDE}>
            {sets.map((s) => <option key={s.name} value={s.name}>{s.name} ({s.queries.toLocaleString('en')} queries)</option>)}
          </select>
        </Field>
        <Field id="af-release" label="Audit" help="Fixes always go to the live set, as new revisions of its queries.">
          <select id="af-release" value={release} onChange={(e) => setRelease(e.target.value)} aria-describedby="af-release-help" className={WIDE}>
            <option value="">the live set</option>
            {set?.releases.map((n) => <option key={n} value={n}>release {n}</option>)}
          </select>
        </Field>
        <Field id="af-name" label="Campaign name" error={errors.name}>
          <input id="af-name" value={name} onChange={(e) => setName(e.target.value)} aria-invalid={!!errors.name} className={WIDE} />
        </Field>
        <Field id="af-k" label="Annotators per query" help="1 to 20; with two or more, reviewers compare them." error={errors.annotatorsPerSeed}>
          <input id="af-k" type="number" min={1} max={20} value={perQuery} onChange={(e) => setPerQuery(e.target.value)} aria-invalid={!!errors.annotatorsPerSeed}
            aria-describedby="af-k-help" className={`${INPUT} w-24`} />
        </Field>
      </div>
      <AnnotatorPicker value={annotators} onChange={setAnnotators} error={errors.annotators} />
      {error && (
        <div role="alert" className="rounded bg-red-50 px-3 py-2 text-red-700" data-testid="audit-error">
          <p>{error.message}</p>
          {problems.length > 0 && (
            <ul className="mt-1 list-disc pl-5">
              {problems.slice(0, PROBLEMS_SHOWN).map((p) => <li key={`${p.line}-${p.reason}`}>line {p.line}: {p.reason}</li>)}
            </ul>
          )}
        </div>
      )}
      <button type="submit" disabled={busy} className="rounded bg-blue-600 px-3 py-1.5 font-medium text-white hover:bg-blue-700 disabled:opacity-60">
        {busy ? 'Creating…' : 'Create the audit'}
      </button>
    </form>
  );
}
