'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useState, type FormEvent, type ReactNode } from 'react';
import type { QueryChange, QueryDetail, QueryEntity } from '@/lib/queries/edit';
import { ApiError, requestJson, setApi } from './api';
import { Field } from './field';
import { splitLabel } from './format';
import { When } from '@/components/when';

interface Props {
  slug: string;
  name: string;
  initial: QueryDetail;
  canEdit: boolean;
  /** Shown after the answers and seeds (a synthesized query's provenance). */
  children?: ReactNode;
}

/** A comma- or whitespace-separated list of entity ids. */
const parseIds = (text: string) => text.split(/[\s,]+/).filter(Boolean);

/** One query: its text, split, answers and seeds resolved to entities, metadata, revisions, and the editor. */
export function QueryDetailView({ slug, name, initial, canEdit, children }: Props) {
  const url = `${setApi(slug, name)}/queries/${encodeURIComponent(initial.id)}`;
  const key = ['query-set-query', slug, name, initial.id];
  const { data: query, error, refetch } = useQuery({ queryKey: key, queryFn: () => requestJson<QueryDetail>(url), initialData: initial });
  const [editing, setEditing] = useState(false);

  return (
    <div className="space-y-4 text-sm">
      {error && <p role="alert" className="rounded bg-red-50 px-3 py-2 text-red-700">{error.message}</p>}
      <div className="rounded-lg border border-slate-200 bg-white p-4">
        <p className="whitespace-pre-wrap text-base" data-testid="query-text">{query.text}</p>
        <p className="mt-2 text-slate-500">
          Split <span data-testid="query-split">{splitLabel(query.split)}</span> · version {query.version}
        </p>
        {canEdit && !editing && (
          <button type="button" onClick={() => setEditing(true)} className="mt-3 rounded border border-blue-600 px-3 py-1 text-blue-700 hover:bg-blue-50">
            Edit query
          </button>
        )}
        {!canEdit && <p className="mt-3 text-xs text-slate-500" data-testid="role-note">Curators and admins edit queries; your role reads them.</p>}
        {canEdit && editing && <QueryEditor url={url} query={query} queryKey={key} onDone={() => setEditing(false)} onReload={() => refetch()} />}
      </div>
      <div className="grid gap-4 md:grid-cols-2">
        <EntityList title="Answers" entities={query.answers} slug={slug} testId="query-answers" />
        <EntityList title="Seed entities" entities={query.seeds} slug={slug} testId="query-seeds" empty="None recorded." />
      </div>
      {children}
      <div className="rounded-lg border border-slate-200 bg-white p-4">
        <h2 className="mb-2 font-medium">Metadata</h2>
        {Object.keys(query.metadata).length === 0
          ? <p className="text-slate-500">None.</p>
          : <pre className="overflow-x-auto rounded bg-slate-50 p-2 text-xs">{JSON.stringify(query.metadata, null, 2)}</pre>}
      </div>
      <div className="rounded-lg border border-slate-200 bg-white p-4">
        <h2 className="mb-2 font-medium">Revisions</h2>
        <div className="table-scroll">
          <table className="w-full" data-testid="query-revisions">
            <thead className="text-left text-slate-600">
              <tr>
                <th scope="col" className="py-1 pr-3 text-right">Version</th><th scope="col" className="pr-3">When</th><th scope="col" className="pr-3">By</th>
                <th scope="col" className="pr-3">Reason</th><th scope="col" className="pr-3">Text</th><th scope="col" className="pr-3">Answers</th><th scope="col">Split</th>
              </tr>
            </thead>
            <tbody>
              {query.revisions.map((r) => (
                <tr key={r.version} className="border-t border-slate-100 align-top">
                  <td className="py-1 pr-3 text-right tabular-nums">{r.version}</td>
                  <td className="whitespace-nowrap pr-3 text-xs text-slate-600"><When at={r.changedAt} /></td>
                  <td className="pr-3">{r.changedBy ?? '—'}</td>
                  <td className="pr-3">{r.reason}</td>
                  <td className="pr-3">{r.text}</td>
                  <td className="pr-3 font-mono text-xs">{r.answers.join(', ')}</td>
                  <td>{splitLabel(r.split)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </div>
    </div>
  );
}

function EntityList({ title, entities, slug, testId, empty = 'None.' }: { title: string; entities: QueryEntity[]; slug: string; testId: string; empty?: string }) {
  const unresolved = entities.filter((e) => e.entityId === null).length;
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-4">
      <h2 className="mb-2 font-medium">
        {title} <span className="font-normal text-slate-500">({entities.length}{unresolved > 0 && `, ${unresolved} not in the knowledge base`})</span>
      </h2>
      {entities.length === 0 ? <p className="text-slate-500">{empty}</p> : (
        <ul className="divide-y divide-slate-100" data-testid={testId}>
          {entities.map((e, i) => (
            <li key={`${e.id}-${i}`} className="flex items-baseline justify-between gap-2 py-1">
              {e.entityId === null
                ? <span className="text-amber-800">Unresolved <span className="sr-only">entity id</span></span>
                : <Link href={`/kb/${encodeURIComponent(slug)}/entities/${e.entityId}`} className="text-blue-700 hover:underline">{e.name}</Link>}
              <span className="text-xs text-slate-500">{e.type && `${e.type} · `}<code>{e.id}</code></span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** Text, answers, split and the reason for the change; a save over someone else's is refused (409) and said so. */
function QueryEditor({ url, query, queryKey, onDone, onReload }: { url: string; query: QueryDetail; queryKey: unknown[]; onDone: () => void; onReload: () => void }) {
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: (change: QueryChange) => requestJson<QueryDetail>(url, { method: 'PATCH', json: change }),
    onSuccess: (saved) => {
      queryClient.setQueryData(queryKey, saved);
      onDone();
    },
  });
  const conflict = save.error instanceof ApiError && save.error.status === 409;

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = String(form.get('text') ?? '').trim();
    const answers = parseIds(String(form.get('answers') ?? ''));
    const split = String(form.get('split') ?? '').trim() || null;
    const change: QueryChange = { version: query.version, reason: String(form.get('reason') ?? '').trim() };
    // Only what changed is sent, so the revision records exactly the edit.
    if (text !== query.text) change.text = text;
    if (answers.join(',') !== query.answers.map((a) => a.id).join(',')) change.answers = answers;
    if (split !== query.split) change.split = split;
    save.mutate(change);
  }

  return (
    <form onSubmit={onSubmit} className="mt-3 space-y-3 border-t border-slate-100 pt-3" aria-label="Edit query">
      <Field id="edit-text" label="Text">
        <textarea id="edit-text" name="text" required rows={3} maxLength={5000} defaultValue={query.text} className="rounded border border-slate-300 px-2 py-1" />
      </Field>
      <Field id="edit-answers" label="Answers" help="External entity ids, separated by commas; each must be in the knowledge base.">
        <input id="edit-answers" name="answers" defaultValue={query.answers.map((a) => a.id).join(', ')} aria-describedby="edit-answers-help" className="rounded border border-slate-300 px-2 py-1 font-mono" />
      </Field>
      <Field id="edit-split" label="Split" help="Empty: in no split.">
        <input id="edit-split" name="split" defaultValue={query.split ?? ''} aria-describedby="edit-split-help" className="w-48 rounded border border-slate-300 px-2 py-1" />
      </Field>
      <Field id="edit-reason" label="Reason for the change">
        <input id="edit-reason" name="reason" required maxLength={500} placeholder="e.g. answer 123 is a duplicate of 456" className="rounded border border-slate-300 px-2 py-1" />
      </Field>
      {save.error && (
        <div role="alert" className="rounded bg-red-50 px-3 py-2 text-red-700">
          {conflict && <strong className="font-medium">Not saved: someone else changed this query while you were editing it. </strong>}
          {save.error.message}
          {conflict && <button type="button" onClick={() => { save.reset(); onReload(); onDone(); }} className="ml-2 underline">Reload the query</button>}
        </div>
      )}
      <div className="flex gap-2">
        <button type="submit" disabled={save.isPending} className="rounded bg-blue-600 px-3 py-1.5 font-medium text-white hover:bg-blue-700 disabled:opacity-60">
          {save.isPending ? 'Saving…' : 'Save'}
        </button>
        <button type="button" onClick={onDone} className="rounded border border-slate-300 px-3 py-1.5">Cancel</button>
      </div>
    </form>
  );
}
