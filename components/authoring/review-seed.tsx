'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useState, type FormEvent } from 'react';
import { requirementInWords } from '@/lib/authoring/metapath-words';
import type { SeedReview, SubmittedWork } from '@/lib/authoring/review';
import { Panel } from '../panel';
import { queryPage, requestJson, setPage } from '../queries/api';
import { assignmentApi, campaignApi, entityPage, reviewPage } from './api';
import { defaultDecision, EntityDecisions, type EntityDecision, type NameOf } from './entity-decisions';
import { When } from '@/components/when';

interface Props {
  slug: string;
  campaignId: number;
  entityId: number;
  /** The reviewer: their own work cannot be approved or sent back by them. */
  userId: number;
}

interface TextSpan {
  field: string;
  quote: string;
}

const isSpan = (s: unknown): s is TextSpan =>
  typeof s === 'object' && s !== null && typeof (s as TextSpan).field === 'string' && typeof (s as TextSpan).quote === 'string';

const BUTTON = 'rounded bg-blue-600 px-3 py-1.5 font-medium text-white hover:bg-blue-700 disabled:opacity-60';

/**
 * One seed's review: the submitted works side by side (each can be sent back with a note), the union of their
 * answers to accept or reject, and the approval of one query, with its text as chosen and edited.
 */
export function ReviewSeed({ slug, campaignId, entityId, userId }: Props) {
  const key = ['seed-review', campaignId, entityId];
  const review = useQuery({
    queryKey: key,
    queryFn: () => requestJson<SeedReview>(`${campaignApi(campaignId)}/review/${entityId}`),
  });
  const [approved, setApproved] = useState<{ queryId: string; querySet: string; answers: number } | null>(null);
  if (review.error) return <p role="alert" className="text-red-700">Could not load the work on this seed: {review.error.message}</p>;
  if (!review.data) return <p className="text-sm text-slate-500">Loading…</p>;
  const r = review.data;
  const names = new Map([[r.seed.id, r.seed.name], ...r.entities.map((e) => [e.entityId, e.name] as const)]);
  const nameOf: NameOf = (id) => names.get(id) ?? `#${id}`;
  return (
    <div className="space-y-6 text-sm">
      <p className="text-slate-600" data-testid="review-seed">
        Seed: <Link href={entityPage(slug, r.seed.id)} className="font-medium text-blue-700 hover:underline">{r.seed.name}</Link>
        {' '}<span className="text-xs">({r.seed.type} · {r.seed.externalId})</span>.{' '}
        {r.seedIsAnswer ? 'The seed is always an answer: the queries were written about it.' : 'The validated query starts from the seed; only the entities the annotators judged relevant are answers.'}
      </p>
      {approved && (
        <p role="status" className="rounded bg-green-50 px-3 py-2 text-green-800" data-testid="approved">
          Approved as query {approved.queryId} of {approved.querySet}, with {approved.answers} {approved.answers === 1 ? 'answer' : 'answers'}.{' '}
          <Link href={queryPage(slug, approved.querySet, approved.queryId)} className="text-blue-700 underline">Open the query</Link>
          {' · '}<Link href={setPage(slug, approved.querySet)} className="text-blue-700 underline">Open the query set</Link>
          {' · '}<Link href={reviewPage(slug, campaignId)} className="text-blue-700 underline">Back to the review queue</Link>
        </p>
      )}
      {r.work.length === 0 ? (
        !approved && <p className="text-slate-500">No submitted work is waiting on this seed. <Link href={reviewPage(slug, campaignId)} className="text-blue-700 underline">Back to the review queue</Link></p>
      ) : (
        <>
          <div className="grid gap-4 overflow-x-auto" style={{ gridTemplateColumns: `repeat(${r.work.length}, minmax(18rem, 1fr))` }} data-testid="works">
            {r.work.map((w) => <WorkColumn key={w.assignmentId} work={w} seedId={r.seed.id} seedIsAnswer={r.seedIsAnswer} nameOf={nameOf} own={w.annotatorId === userId} reviewKey={key} campaignId={campaignId} />)}
          </div>
          <Approval review={r} slug={slug} userId={userId} nameOf={nameOf}
            onApproved={(result) => {
              setApproved(result);
              void review.refetch();
            }} />
        </>
      )}
    </div>
  );
}

function WorkColumn({ work: w, seedId, seedIsAnswer, nameOf, own, reviewKey, campaignId }: { work: SubmittedWork; seedId: number; seedIsAnswer: boolean; nameOf: NameOf; own: boolean; reviewKey: unknown[]; campaignId: number }) {
  const words = requirementInWords(w.requirement, { seedId, nameOf });
  const spans = w.textSpans.filter(isSpan);
  const chosen = w.relevant.filter((x) => !seedIsAnswer || x.entityId !== seedId).length;
  return (
    <article className="space-y-3 rounded-lg border border-slate-200 bg-white p-4" data-testid={`work-${w.assignmentId}`} aria-label={`Work of ${w.annotator}`}>
      <header>
        <h2 className="font-medium">{w.annotator}{own && <span className="ml-1 text-xs text-slate-500">(you)</span>}</h2>
        <p className="text-xs text-slate-500">submitted <When at={w.submittedAt} /></p>
      </header>
      <blockquote className="rounded bg-slate-50 px-3 py-2 text-base" data-testid="work-text">{w.text}</blockquote>
      <div>
        <h3 className="font-medium">Relational requirement</h3>
        {words ? (
          <>
            <p className="text-slate-700">{words.summary}</p>
            <ul className="list-disc pl-5">{words.paths.map((p, i) => <li key={i}>{p}</li>)}</ul>
          </>
        ) : <p className="text-slate-500">None recorded.</p>}
      </div>
      <div>
        <h3 className="font-medium">Textual requirements</h3>
        {spans.length ? (
          <ul className="space-y-1">
            {spans.map((s, i) => <li key={i}><q className="italic">{s.quote}</q> <span className="text-xs text-slate-500">({s.field})</span></li>)}
          </ul>
        ) : <p className="text-slate-500">No passage highlighted.</p>}
      </div>
      <p className="text-slate-700">
        {chosen} {chosen === 1 ? 'answer' : 'answers'} chosen{seedIsAnswer && ' besides the seed'}
        {w.unsure > 0 ? <>, <strong>{w.unsure} left unsure</strong></> : ', none left unsure'}.
      </p>
      <SendBack work={w} reviewKey={reviewKey} campaignId={campaignId} />
    </article>
  );
}

/** Returns a submitted work to its author with a note; the review and the queue are read again. */
export function SendBack({ work: w, reviewKey, campaignId }: { work: Pick<SubmittedWork, 'assignmentId' | 'annotator'>; reviewKey: unknown[]; campaignId: number }) {
  const queryClient = useQueryClient();
  const [note, setNote] = useState('');
  const [missing, setMissing] = useState(false);
  const send = useMutation({
    mutationFn: () => requestJson<{ returned: number }>(`${assignmentApi(w.assignmentId)}/return`, { method: 'POST', json: { note: note.trim() } }),
    onSuccess: () => Promise.all([
      queryClient.invalidateQueries({ queryKey: reviewKey }),
      queryClient.invalidateQueries({ queryKey: ['review-queue', campaignId] }),
      queryClient.invalidateQueries({ queryKey: ['audit-review-queue', campaignId] }),
    ]),
  });
  const id = `send-back-${w.assignmentId}`;

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    setMissing(!note.trim());
    if (note.trim()) send.mutate();
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-1 border-t border-slate-100 pt-3">
      <label htmlFor={id} className="block">Note to {w.annotator}</label>
      <textarea id={id} rows={2} value={note} maxLength={2000} onChange={(e) => setNote(e.target.value)} aria-invalid={missing}
        placeholder="What should change" className="w-full rounded border border-slate-300 px-2 py-1" />
      {missing && <p role="alert" className="text-red-700">Write a note saying what the author should change.</p>}
      {send.error && <p role="alert" className="text-red-700">{send.error.message}</p>}
      <button type="submit" disabled={send.isPending} className="rounded border border-amber-500 px-3 py-1 text-amber-800 hover:bg-amber-50 disabled:opacity-60">
        {send.isPending ? 'Sending back…' : 'Send back'}
      </button>
    </form>
  );
}

function Approval({ review: r, slug, userId, nameOf, onApproved }: {
  review: SeedReview;
  slug: string;
  userId: number;
  nameOf: NameOf;
  onApproved: (result: { queryId: string; querySet: string; answers: number }) => void;
}) {
  const queryClient = useQueryClient();
  const [decisions, setDecisions] = useState<Record<number, EntityDecision>>({});
  // By default the first work someone else wrote: the reviewer cannot approve their own.
  const [chosenId, setChosenId] = useState<number>((r.work.find((w) => w.annotatorId !== userId) ?? r.work[0]!).assignmentId);
  const [text, setText] = useState<string | null>(null);
  const chosen = r.work.find((w) => w.assignmentId === chosenId) ?? r.work[0]!;
  const current = r.entities.map((e) => ({ entity: e, decision: decisions[e.entityId] ?? defaultDecision(e) }));
  const undecided = current.filter((c) => c.decision.accept === null).length;
  const unreasoned = current.filter((c) => c.decision.accept === false && !c.decision.reason.trim()).length;
  const queryText = text ?? chosen.text;
  const approve = useMutation({
    mutationFn: () => requestJson<{ queryId: string; answers: string[] }>(`${assignmentApi(chosen.assignmentId)}/approve`, {
      method: 'POST',
      json: {
        decisions: current.map(({ entity, decision }) => ({ entityId: entity.entityId, accept: decision.accept === true, ...(decision.accept === false && { reason: decision.reason.trim() }) })),
        text: queryText.trim(),
      },
    }),
    onSuccess: ({ queryId, answers }) => {
      onApproved({ queryId, querySet: r.querySet!, answers: answers.length });
      return queryClient.invalidateQueries({ queryKey: ['review-queue'] });
    },
  });
  const blocked = undecided > 0
    ? `Decide on every entity first: ${undecided} ${undecided === 1 ? 'is' : 'are'} still undecided.`
    : unreasoned > 0 ? `Give a reason for each rejection: ${unreasoned} ${unreasoned === 1 ? 'has' : 'have'} none.`
      : !queryText.trim() ? 'The query text is empty.' : !r.querySet ? 'The campaign has no query set to approve into.' : null;

  return (
    <div className="space-y-4">
      <Panel title="Answers: the union of the annotators’ choices">
        <p className="mb-2 text-slate-600">
          Entities every annotator chose start accepted; decide on the others. A rejection needs a reason, kept with the query.
        </p>
        <EntityDecisions slug={slug} entities={r.entities} work={r.work} decisions={decisions} nameOf={nameOf}
          onChange={(id, d) => setDecisions((all) => ({ ...all, [id]: d }))} />
      </Panel>
      <Panel title="Approve">
        <fieldset className="space-y-1">
          <legend className="mb-1">Query text to approve</legend>
          {r.work.map((w) => (
            <label key={w.assignmentId} className="flex items-baseline gap-2">
              <input type="radio" name="approve-work" checked={w.assignmentId === chosen.assignmentId} onChange={() => { setChosenId(w.assignmentId); setText(null); }} />
              <span><strong>{w.annotator}</strong>: {w.text}{w.annotatorId === userId && <span className="text-xs text-slate-500"> (your own work: another reviewer must approve it)</span>}</span>
            </label>
          ))}
        </fieldset>
        <label htmlFor="approve-text" className="mt-3 block">Query text</label>
        <textarea id="approve-text" rows={3} value={queryText} maxLength={1000} onChange={(e) => setText(e.target.value)} className="w-full rounded border border-slate-300 px-2 py-1" />
        {blocked && <p className="mt-2 text-amber-800" data-testid="approve-blocked">{blocked}</p>}
        {approve.error && <p role="alert" className="mt-2 rounded bg-red-50 px-3 py-2 text-red-700">{approve.error.message}</p>}
        <button type="button" disabled={!!blocked || approve.isPending} onClick={() => approve.mutate()} className={`${BUTTON} mt-2`}>
          {approve.isPending ? 'Approving…' : `Approve into ${r.querySet ?? 'the query set'}`}
        </button>
      </Panel>
    </div>
  );
}
