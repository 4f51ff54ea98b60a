'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import type { AuditFlag } from '@/lib/authoring/audit-flags';
import { AUDIT_FLAGS } from '@/lib/authoring/audit-flags';
import type { AuditItemReview, AuditOutcome, Verdict } from '@/lib/authoring/audit-review';
import { plural } from '@/lib/format/plural';
import { Panel } from '../panel';
import { queryPage, requestJson, setPage } from '../queries/api';
import { assignmentApi, auditReviewPage, campaignApi, entityPage } from './api';
import { verdictText } from './audit-answers';
import { FLAG_WORDS } from './audit-flags';
import { auditQueueKey } from './audit-review-queue';
import { DecisionChoice, evidenceInWords, type EntityDecision, type NameOf } from './entity-decisions';
import { SendBack } from './review-seed';
import { When } from '@/components/when';

/** A row of the decisions table: a current answer (keep or remove) or one an annotator added (add or leave out). */
interface Row {
  entityId: number;
  externalId: string;
  name: string;
  type: string;
  current: boolean;
  verdicts: Verdict[];
}

const BUTTON = 'rounded bg-blue-600 px-3 py-1.5 font-medium text-white hover:bg-blue-700 disabled:opacity-60';

/** Unanimous verdicts decide by default: a current answer all found wrong starts removed, one all added starts added. */
function defaultDecision(row: Row, annotators: number): EntityDecision {
  const wrong = row.verdicts.filter((v) => v.label === 'not_relevant').length;
  const right = row.verdicts.filter((v) => v.label === 'relevant').length;
  if (row.current) {
    if (right === annotators) return { accept: true, reason: '' };
    if (wrong === annotators) return { accept: false, reason: 'marked wrong by every annotator' };
    return { accept: null, reason: '' };
  }
  return { accept: right === annotators ? true : null, reason: '' };
}

function VerdictCell({ verdict, nameOf }: { verdict: Verdict | undefined; nameOf: NameOf }) {
  if (!verdict) return <span className="text-slate-500">—</span>;
  return (
    <span>
      {verdictText(verdict.label)}
      {verdict.evidence.length > 0 && (
        <details>
          <summary className="cursor-pointer text-xs text-slate-500">{verdict.evidence.length} evidence</summary>
          <ul className="list-disc pl-4 text-xs text-slate-700">{verdict.evidence.map((e, i) => <li key={i}>{evidenceInWords(e, nameOf)}</li>)}</ul>
        </details>
      )}
    </span>
  );
}

/**
 * One audited query's review: each annotator's flags and note (each work can be sent back), every current
 * answer and every added one with each annotator's verdict and evidence, the decision on each, the decision on
 * the query itself, and the approval that edits the set.
 */
export function AuditReviewItem({ slug, campaignId, item, userId }: { slug: string; campaignId: number; item: number; userId: number }) {
  const key = ['audit-item-review', campaignId, item];
  const review = useQuery({ queryKey: key, queryFn: () => requestJson<AuditItemReview>(`${campaignApi(campaignId)}/audit/review/${item}`) });
  const [outcome, setOutcome] = useState<AuditOutcome | null>(null);
  if (review.error) return <p role="alert" className="text-red-700">Could not load the audits of this query: {review.error.message}</p>;
  if (!review.data) return <p className="text-sm text-slate-500">Loading…</p>;
  const r = review.data;
  const names = new Map<number, string>([...r.answers.map((a) => [a.entityId!, a.name ?? a.id] as const), ...r.added.map((a) => [a.entityId, a.name] as const)]);
  const nameOf: NameOf = (id) => names.get(id) ?? `#${id}`;
  return (
    <div className="space-y-6 text-sm">
      <Panel title="The query">
        <p className="text-base" data-testid="audit-review-text">{r.item.text}</p>
        <p className="text-slate-600">Query {r.item.externalId} · {r.item.split ?? 'no split'} · {r.item.origin}{r.live ? ` · now version ${r.live.version}` : ' · no longer in the set'}</p>
      </Panel>
      {outcome && (
        <p role="status" className="rounded bg-green-50 px-3 py-2 text-green-800" data-testid="audit-approved">
          {outcome.action === 'remove' ? 'Approved: the query was removed from the set.'
            : outcome.error ? `Approved: ${plural(outcome.removedAnswers.length, 'answer')} removed, ${outcome.addedAnswers.length} added${outcome.action === 'flag' ? ', the query flagged' : ''}.`
              : 'Approved: the query is right as it is; the set is unchanged.'}{' '}
          {outcome.action !== 'remove' && r.campaign.querySet && <><Link href={queryPage(slug, r.campaign.querySet, r.item.externalId)} className="text-blue-700 underline">Open the query</Link>{' · '}</>}
          {r.campaign.querySet && <><Link href={setPage(slug, r.campaign.querySet)} className="text-blue-700 underline">Open the query set</Link>{' · '}</>}
          <Link href={auditReviewPage(slug, campaignId)} className="text-blue-700 underline">Back to the review queue</Link>
        </p>
      )}
      {r.work.length === 0 ? (
        !outcome && <p className="text-slate-500">No audit is waiting on this query. <Link href={auditReviewPage(slug, campaignId)} className="text-blue-700 underline">Back to the review queue</Link></p>
      ) : (
        <>
          <div className="grid gap-4 overflow-x-auto" style={{ gridTemplateColumns: `repeat(${r.work.length}, minmax(16rem, 1fr))` }} data-testid="audit-works">
            {r.work.map((w) => (
              <article key={w.assignmentId} className="space-y-2 rounded-lg border border-slate-200 bg-white p-4" aria-label={`Audit of ${w.annotator}`}>
                <h2 className="font-medium">{w.annotator}{w.annotatorId === userId && <span className="ml-1 text-xs text-slate-500">(you)</span>}</h2>
                <p className="text-xs text-slate-500">submitted <When at={w.submittedAt} /></p>
                <p>{w.flags.length ? <>Flagged: <strong>{w.flags.map((f) => FLAG_WORDS[f]).join(', ')}</strong></> : 'No flag on the text.'}</p>
                {w.note && <blockquote className="rounded bg-slate-50 px-2 py-1">{w.note}</blockquote>}
                <SendBack work={w} reviewKey={key} campaignId={campaignId} />
              </article>
            ))}
          </div>
          <Approval review={r} slug={slug} userId={userId} nameOf={nameOf} onApproved={(o) => {
            setOutcome(o);
            void review.refetch();
          }} />
        </>
      )}
    </div>
  );
}

function Approval({ review: r, slug, userId, nameOf, onApproved }: { review: AuditItemReview; slug: string; userId: number; nameOf: NameOf; onApproved: (o: AuditOutcome) => void }) {
  const queryClient = useQueryClient();
  const rows: Row[] = [
    ...r.answers.map((a) => ({ entityId: a.entityId!, externalId: a.id, name: a.name ?? a.id, type: a.type ?? '', current: true, verdicts: a.verdicts })),
    ...r.added.map((a) => ({ ...a, current: false })),
  ];
  const [decisions, setDecisions] = useState<Record<number, EntityDecision>>({});
  const flagged = [...new Set(r.work.flatMap((w) => w.flags))];
  const [action, setAction] = useState<'keep' | 'flag' | 'remove'>(flagged.length ? 'flag' : 'keep');
  const [flags, setFlags] = useState<AuditFlag[]>(flagged);
  const [note, setNote] = useState(r.work.map((w) => w.note).filter(Boolean).join(' / '));
  const decisionOf = (row: Row) => decisions[row.entityId] ?? defaultDecision(row, r.work.length);
  const undecided = rows.filter((row) => decisionOf(row).accept === null).length;
  const unreasoned = rows.filter((row) => decisionOf(row).accept === false && !decisionOf(row).reason.trim()).length;
  // The first work someone else handed in: a reviewer cannot approve their own.
  const approvable = r.work.find((w) => w.annotatorId !== userId);
  const approve = useMutation({
    mutationFn: () => requestJson<AuditOutcome>(`${assignmentApi(approvable!.assignmentId)}/audit/approve`, {
      method: 'POST',
      json: {
        decisions: rows.map((row) => ({ entityId: row.entityId, accept: decisionOf(row).accept === true, ...(decisionOf(row).accept === false && { reason: decisionOf(row).reason.trim() }) })),
        query: { action, flags: action === 'flag' ? flags : [], note: action === 'keep' ? '' : note.trim() },
      },
    }),
    onSuccess: (o) => {
      onApproved(o);
      return queryClient.invalidateQueries({ queryKey: auditQueueKey(r.campaign.id) });
    },
  });
  const blocked = !approvable ? 'All of this work is your own: another reviewer must approve it.'
    : undecided > 0 ? `Decide on every answer first: ${undecided} undecided.`
      : unreasoned > 0 ? `Give a reason for each answer removed or left out: ${unreasoned} without one.`
        : action === 'flag' && !flags.length ? 'Tick at least one flag, or keep the query.'
          : action !== 'keep' && !note.trim() ? `Say why the query is ${action === 'flag' ? 'flagged' : 'removed'}.` : null;

  return (
    <div className="space-y-4">
      <Panel title="Answers: current ones and those the annotators added">
        <div className="table-scroll">
          <table className="w-full" data-testid="audit-decisions">
            <thead className="text-left text-slate-600">
              <tr>
                <th scope="col" className="py-1 pr-3">Entity</th>
                {r.work.map((w) => <th key={w.assignmentId} scope="col" className="pr-3">{w.annotator}</th>)}
                <th scope="col">Decision</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => {
                const d = decisionOf(row);
                const set = (next: EntityDecision) => setDecisions((all) => ({ ...all, [row.entityId]: next }));
                return (
                  <tr key={row.entityId} className="border-t border-slate-100 align-top" data-testid={`audit-decision-${row.externalId}`}>
                    <th scope="row" className="py-1 pr-3 text-left font-normal">
                      <Link href={entityPage(slug, row.entityId)} className="text-blue-700 hover:underline">{row.name}</Link>
                      <span className="block text-xs text-slate-500">{row.type} · {row.externalId} · {row.current ? 'current answer' : 'added'}</span>
                    </th>
                    {r.work.map((w) => <td key={w.assignmentId} className="pr-3"><VerdictCell verdict={row.verdicts.find((v) => v.annotatorId === w.annotatorId)} nameOf={nameOf} /></td>)}
                    <td>
                      <DecisionChoice name={`d-${row.entityId}`} subject={row.name} decision={d} onChange={set}
                        acceptLabel={row.current ? 'Keep' : 'Add'} rejectLabel={row.current ? 'Remove' : 'Leave out'}
                        reasonLabel={`Reason for ${row.current ? 'removing' : 'leaving out'} ${row.name}`} />
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      </Panel>
      <Panel title="The query and the approval">
        <fieldset className="flex flex-wrap gap-4">
          <legend className="mb-1">The query itself</legend>
          {(['keep', 'flag', 'remove'] as const).map((a) => (
            <label key={a} className="flex items-center gap-1">
              <input type="radio" name="query-action" checked={action === a} onChange={() => setAction(a)} />
              {a === 'keep' ? 'Keep it' : a === 'flag' ? 'Keep it, flagged' : 'Remove it from the set'}
            </label>
          ))}
        </fieldset>
        {action === 'flag' && (
          <fieldset className="mt-2 flex flex-wrap gap-4">
            <legend className="sr-only">Flags</legend>
            {AUDIT_FLAGS.map((f) => (
              <label key={f} className="flex items-center gap-1">
                <input type="checkbox" checked={flags.includes(f)} onChange={(e) => setFlags((l) => (e.target.checked ? [...l, f] : l.filter((x) => x !== f)))} />{FLAG_WORDS[f]}
              </label>
            ))}
          </fieldset>
        )}
        {action !== 'keep' && (
          <label className="mt-2 block">
            <span className="mb-1 block">Why</span>
            <textarea rows={2} value={note} maxLength={5000} onChange={(e) => setNote(e.target.value)} className="w-full rounded border border-slate-300 px-2 py-1" />
          </label>
        )}
        {blocked && <p className="mt-2 text-amber-800" data-testid="approve-blocked">{blocked}</p>}
        {approve.error && <p role="alert" className="mt-2 rounded bg-red-50 px-3 py-2 text-red-700">{approve.error.message}</p>}
        <button type="button" disabled={!!blocked || approve.isPending} onClick={() => approve.mutate()} className={`${BUTTON} mt-2`}>
          {approve.isPending ? 'Approving…' : `Approve the fixes into ${r.campaign.querySet ?? 'the query set'}`}
        </button>
      </Panel>
    </div>
  );
}
