'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import type { ReleaseDetail, ReleaseDiff, ReleaseSummary } from '@/lib/queries/releases';
import { requestJson, queryPage, releasePage, setApi } from './api';
import { Field } from './field';
import { fmtCount } from './format';
import { intParam } from './use-url-params';
import { When } from '@/components/when';

interface Props {
  slug: string;
  name: string;
  canManage: boolean;
  params: URLSearchParams;
  setParams: (patch: Record<string, string | number | null>) => void;
}

/** The set's numbered releases, the form to make the next one, and what changed between two of them. */
export function ReleasePanel({ slug, name, canManage, params, setParams }: Props) {
  const releases = useQuery({
    queryKey: ['query-set-releases', slug, name],
    queryFn: () => requestJson<{ items: ReleaseSummary[] }>(`${setApi(slug, name)}/releases`),
  });
  const items = releases.data?.items ?? [];
  return (
    <section aria-labelledby="releases-heading" className="space-y-4 text-sm">
      <h2 id="releases-heading" className="text-lg font-medium">Releases</h2>
      <p className="max-w-3xl text-slate-600">
        A release freezes the queries as they are now, under the next number: later edits do not change it. Its content hash is the
        SHA-256 of its <code>queries.jsonl</code>, so anyone can check a download against it.
      </p>
      {releases.error && <p role="alert" className="text-red-700">Could not load the releases: {releases.error.message}</p>}
      {releases.data && (items.length === 0
        ? <p className="text-slate-500">No release yet.</p>
        : (
          <div className="table-scroll">
            <table className="w-full" data-testid="release-table">
              <thead className="text-left text-slate-600">
                <tr><th scope="col" className="py-1">Release</th><th scope="col">Name</th><th scope="col">Made</th><th scope="col" className="text-right">Queries</th><th scope="col" className="pl-4">Content hash</th></tr>
              </thead>
              <tbody>
                {items.map((r) => (
                  <tr key={r.number} className="border-t border-slate-100">
                    <td className="py-1"><Link href={releasePage(slug, name, r.number)} className="text-blue-700 hover:underline">Release {r.number}</Link></td>
                    <td>{r.name}</td>
                    <td className="text-slate-600"><When at={r.createdAt} />{r.createdBy && ` by ${r.createdBy}`}</td>
                    <td className="text-right tabular-nums">{fmtCount(r.queryCount)}</td>
                    <td className="pl-4 font-mono text-xs" title={r.contentHash}>{r.contentHash.slice(0, 12)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ))}
      {canManage ? <ReleaseForm slug={slug} name={name} /> : <p className="text-xs text-slate-500" data-testid="role-note">Curators and admins make releases; your role reads and downloads them.</p>}
      {items.length >= 2 && <ReleaseDiffView slug={slug} name={name} releases={items} params={params} setParams={setParams} />}
    </section>
  );
}

function ReleaseForm({ slug, name }: { slug: string; name: string }) {
  const queryClient = useQueryClient();
  const router = useRouter();
  const [made, setMade] = useState<number | null>(null);
  const create = useMutation({
    mutationFn: (body: { name: string; notes: string; language: string }) => requestJson<ReleaseDetail>(`${setApi(slug, name)}/releases`, { method: 'POST', json: body }),
    onSuccess: (release) => {
      setMade(release.number);
      // The page's header counts the releases.
      router.refresh();
      return queryClient.invalidateQueries({ queryKey: ['query-set-releases', slug, name] });
    },
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    setMade(null);
    create.mutate({ name: String(form.get('name') ?? '').trim(), notes: String(form.get('notes') ?? ''), language: String(form.get('language') ?? '').trim() }, { onSuccess: () => formElement.reset() });
  }

  return (
    <form onSubmit={onSubmit} className="space-y-2 rounded-lg border border-slate-200 bg-white p-4" aria-labelledby="make-release-heading">
      <h3 id="make-release-heading" className="font-medium">Make a release</h3>
      <Field id="release-name" label="Release name">
        <input id="release-name" name="name" required maxLength={200} placeholder="First public version" className="rounded border border-slate-300 px-2 py-1" />
      </Field>
      <Field id="release-language" label="Language of the queries" help="An ISO 639 code (en, de, fr ...): the Hugging Face card's language and Croissant's inLanguage.">
        <input id="release-language" name="language" required defaultValue="en" pattern="[a-z]{2,3}(-[A-Za-z0-9]{2,8})?" maxLength={12}
          aria-describedby="release-language-help" className="w-24 rounded border border-slate-300 px-2 py-1" />
      </Field>
      <Field id="release-notes" label="Notes" help="Markdown; they end the dataset card.">
        <textarea id="release-notes" name="notes" rows={3} maxLength={20_000} aria-describedby="release-notes-help" className="rounded border border-slate-300 px-2 py-1" />
      </Field>
      {create.error && <p role="alert" className="rounded bg-red-50 px-3 py-2 text-red-700">{create.error.message}</p>}
      {made !== null && (
        <p role="status" className="rounded bg-green-50 px-3 py-2 text-green-800">
          Release {made} made. <Link href={releasePage(slug, name, made)} className="text-blue-700 hover:underline">Open release {made}</Link>
        </p>
      )}
      <button type="submit" disabled={create.isPending} className="rounded bg-blue-600 px-3 py-1.5 font-medium text-white hover:bg-blue-700 disabled:opacity-60">
        {create.isPending ? 'Releasing…' : 'Make release'}
      </button>
    </form>
  );
}

/** Two releases picked by number (`?from=&to=`), and what changed query by query. */
function ReleaseDiffView({ slug, name, releases, params, setParams }: Omit<Props, 'canManage'> & { releases: ReleaseSummary[] }) {
  // Releases are listed newest first: by default, the latest against the one before.
  const from = intParam(params, 'from', releases[1]!.number);
  const to = intParam(params, 'to', releases[0]!.number);
  const diff = useQuery({
    queryKey: ['query-set-diff', slug, name, from, to],
    queryFn: () => requestJson<ReleaseDiff>(`${setApi(slug, name)}/diff?from=${from}&to=${to}`),
  });
  const d = diff.data;
  const picker = (label: string, key: 'from' | 'to', value: number) => (
    <Field id={`diff-${key}`} label={label} inline>
      <select id={`diff-${key}`} value={value} onChange={(e) => setParams({ [key]: e.target.value })} className="rounded border border-slate-300 px-2 py-1">
        {releases.map((r) => <option key={r.number} value={r.number}>release {r.number}</option>)}
      </select>
    </Field>
  );
  return (
    <div className="space-y-2 rounded-lg border border-slate-200 bg-white p-4" data-testid="release-diff">
      <h3 className="font-medium">What changed</h3>
      <div className="flex flex-wrap gap-4">{picker('From', 'from', from)}{picker('To', 'to', to)}</div>
      {diff.error && <p role="alert" className="text-red-700">{diff.error.message}</p>}
      {d && (
        <>
          <p className="text-slate-700">
            {fmtCount(d.added)} added, {fmtCount(d.removed)} removed, {fmtCount(d.changed)} changed
            ({fmtCount(d.textChanged)} in text, {fmtCount(d.answersChanged)} in answers, {fmtCount(d.splitChanged)} in split),
            {' '}{fmtCount(d.unchanged)} unchanged.
          </p>
          {d.items.length > 0 && (
            <div className="table-scroll">
              <table className="w-full">
                <thead className="text-left text-slate-600">
                  <tr><th scope="col" className="py-1">Query</th><th scope="col">Change</th><th scope="col">Text</th><th scope="col">Answers added</th><th scope="col">Answers removed</th></tr>
                </thead>
                <tbody>
                  {d.items.map((item) => (
                    <tr key={item.id} className="border-t border-slate-100 align-top">
                      <td className="py-1 pr-3 font-mono">
                        {item.change === 'removed' ? item.id : <Link href={queryPage(slug, name, item.id)} className="text-blue-700 hover:underline">{item.id}</Link>}
                      </td>
                      <td className="pr-3">{item.change}{item.fields.length > 0 && ` (${item.fields.join(', ')})`}</td>
                      <td className="pr-3">{item.text}</td>
                      <td className="pr-3 font-mono text-xs">{item.answersAdded.join(', ')}</td>
                      <td className="font-mono text-xs">{item.answersRemoved.join(', ')}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          {d.items.length < d.added + d.removed + d.changed && (
            <p className="text-xs text-slate-500">The first {d.items.length} changes are listed.</p>
          )}
        </>
      )}
    </div>
  );
}
