'use client';

import { useMutation, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import type { AssignmentView } from '@/lib/authoring/assignments';
import type { AuditSubmission, AuditWorkspace } from '@/lib/authoring/audit-work';
import { Panel } from '@/components/panel';
import { FoldedGuidelines, ReturnedNote } from './work-notes';
import { requestJson, setPage } from '@/components/queries/api';
import { assignmentApi, auditWorkPage, campaignApi, campaignPage, entityPage } from './api';
import { AuditAnswers } from './audit-answers';
import { AuditFlagsForm } from './audit-flags';
import { AuditMissing } from './audit-missing';
import { candidateEvidence } from './workspace/candidate-evidence';
import { SkipDialog } from './workspace/skip-dialog';
import { workspaceKey, type JudgedEntity } from './workspace/types';
import { useJudgments } from './workspace/use-judgments';
import { useLease } from './workspace/use-lease';

const ORIGIN_WORDS = { human: 'written by people', synthesized: 'synthesized', imported: 'imported' } as const;

/**
 * The annotator's screen for one audited query: the query and its seeds, flags on its text, every current
 * answer to mark correct or wrong with evidence, the tools to find missing answers, and submit or skip.
 */
export function AuditWorkspaceView({ initial }: { initial: AuditWorkspace }) {
  const router = useRouter();
  const id = initial.assignment.id;
  const { data: ws, refetch } = useQuery({
    queryKey: workspaceKey(id),
    queryFn: () => requestJson<AuditWorkspace>(`${assignmentApi(id)}/audit`),
    initialData: initial,
  });
  const [submitted, setSubmitted] = useState<AuditSubmission | null>(null);
  const [citing, setCiting] = useState<JudgedEntity | null>(null);
  const editable = ws.assignment.editable && !submitted;
  const readOnly = !editable;
  const slug = ws.campaign.kbSlug;
  useLease(id, editable && ws.assignment.status === 'ACTIVE', () => void refetch());
  const judgments = useJudgments(id, ws.judgments);
  const current = new Set(ws.item.answers.map((a) => a.entityId));
  const others = ws.judgments.filter((j) => !current.has(j.entityId));
  const unjudged = ws.item.answers.filter((a) => !judgments.stateOf(a.entityId!)).length;

  const submit = useMutation({
    mutationFn: () => requestJson<AuditSubmission>(`${assignmentApi(id)}/audit/submit`, { method: 'POST' }),
    onSuccess: (s) => {
      setSubmitted(s);
      void refetch();
    },
  });
  const next = useMutation({
    mutationFn: () => requestJson<{ assignment: AssignmentView | null }>(`${campaignApi(ws.campaign.id)}/claim`, { method: 'POST' }),
    onSuccess: ({ assignment }) => router.push(assignment ? auditWorkPage(slug, ws.campaign.id, assignment.id) : campaignPage(slug, ws.campaign.id)),
  });
  const cite = (e: JudgedEntity | null) => setCiting(e === null || citing?.id === e.id ? null : e);
  const evidence = candidateEvidence(slug, judgments, editable, () => setCiting(null));

  return (
    <div className="space-y-4">
      <ReturnedNote status={ws.assignment.status} note={ws.assignment.reviewNote} />
      {submitted && (
        <div role="status" className="flex flex-wrap items-center gap-3 rounded bg-green-50 px-3 py-2 text-sm text-green-900" data-testid="audit-submitted">
          <span>
            Submitted for review: {submitted.correct} correct, {submitted.wrong} wrong, {submitted.unsure} unsure, {submitted.added} added
            {submitted.flags.length > 0 && `, flagged ${submitted.flags.join(', ').replace(/_/g, ' ')}`}.
          </span>
          <button type="button" onClick={() => next.mutate()} disabled={next.isPending} className="rounded bg-blue-600 px-3 py-1 font-medium text-white hover:bg-blue-700 disabled:opacity-60">
            Next query
          </button>
          {next.error && <span role="alert" className="text-red-700">{next.error.message}</span>}
        </div>
      )}
      {readOnly && !submitted && (
        <p role="status" className="rounded bg-slate-100 px-3 py-2 text-sm" data-testid="read-only">
          This assignment is {ws.assignment.status.toLowerCase()}; it is shown read-only.
        </p>
      )}
      <FoldedGuidelines text={ws.campaign.guidelines} />
      <Panel title="The query">
        <div className="space-y-2 text-sm" data-testid="audit-query">
          <p className="text-base">{ws.item.text}</p>
          <p className="text-slate-600">
            Query {ws.item.externalId} of{' '}
            {ws.campaign.querySet ? <Link href={setPage(slug, ws.campaign.querySet)} className="text-blue-700 hover:underline">{ws.campaign.querySet}</Link> : 'a removed set'}
            {ws.campaign.release !== null && ` (release ${ws.campaign.release})`} · {ws.item.split ?? 'no split'} · {ORIGIN_WORDS[ws.item.origin]}
          </p>
          {ws.item.seeds.length > 0 && (
            <p>
              Seeds:{' '}
              {ws.item.seeds.map((s, i) => (
                <span key={s.id}>{i > 0 && ', '}{s.entityId ? <Link href={entityPage(slug, s.entityId)} target="_blank" className="text-blue-700 hover:underline">{s.name}</Link> : s.id}</span>
              ))}
            </p>
          )}
          <h3 className="pt-2 font-medium">Flags on the query text</h3>
          <AuditFlagsForm assignmentId={id} saved={ws.flags} readOnly={readOnly} onSaved={() => void refetch()} />
        </div>
      </Panel>
      <Panel title="Current answers">
        {judgments.error && <p role="alert" className="mb-2 text-sm text-red-700">{judgments.error}</p>}
        <AuditAnswers kbSlug={slug} answers={ws.item.answers} judgments={judgments} readOnly={readOnly} citing={citing?.id ?? null} onCite={cite} />
      </Panel>
      <Panel title="Missing answers">
        <AuditMissing kbSlug={slug} assignmentId={id} queryText={ws.item.text} seeds={ws.item.seeds} others={others} judgments={judgments}
          readOnly={readOnly} citing={citing?.id ?? null} onCite={cite} evidence={evidence} />
      </Panel>
      {editable && (
        <div className="flex flex-wrap items-start justify-between gap-3 rounded-lg border border-slate-200 bg-white p-4 text-sm">
          <div className="space-y-1">
            <button type="button" onClick={() => submit.mutate()} disabled={submit.isPending || unjudged > 0}
              className="rounded bg-blue-600 px-3 py-1.5 font-medium text-white hover:bg-blue-700 disabled:opacity-60">
              Submit the audit
            </button>
            {unjudged > 0 && <p className="text-slate-600">Mark every current answer first ({unjudged} left).</p>}
            {submit.error && <p role="alert" className="text-red-700">{submit.error.message}</p>}
          </div>
          <SkipDialog assignmentId={id} onSkipped={() => router.push(campaignPage(slug, ws.campaign.id))} />
        </div>
      )}
    </div>
  );
}
