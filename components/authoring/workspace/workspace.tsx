'use client';

import { useQuery } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useEffect, useMemo, useState } from 'react';
import { findLeaks } from '@/lib/authoring/leak';
import type { Submission } from '@/lib/authoring/submit';
import type { Workspace } from '@/lib/authoring/workspace';
import { Panel } from '@/components/panel';
import { FoldedGuidelines, ReturnedNote } from '../work-notes';
import { requestJson } from '@/components/queries/api';
import { assignmentApi, campaignPage } from '../api';
import { CandidateList } from './candidate-list';
import { DifficultyPanel } from './difficulty-panel';
import { candidateEvidence } from './candidate-evidence';
import { HandAdded } from './hand-added';
import { QueryEditor } from './query-editor';
import { RequirementBuilder } from './requirement-builder';
import { SaveStatus } from './save-status';
import { SeedPanel } from './seed-panel';
import { SkipDialog } from './skip-dialog';
import { SubmitButton, Submitted } from './submit-panel';
import { SuggestionList } from './suggestion-list';
import { workspaceKey, type JudgedEntity } from './types';
import { dropLocal, useAutosave } from './use-autosave';
import { useJudgments } from './use-judgments';
import { useLease } from './use-lease';

const CLOSED_WORDS: Record<string, string> = {
  SUBMITTED: 'submitted for review',
  APPROVED: 'approved',
  SKIPPED: 'skipped',
  EXPIRED: 'expired: its lease ran out and the seed went back to the pool',
};

/** The value, once it has stopped changing for `ms`. */
function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/**
 * The annotator's screen for one seed: its document and relations, the query with its leak check and
 * autosave, the relational and textual requirements, the candidates to judge, and submit or skip.
 */
export function AnnotatorWorkspace({ initial }: { initial: Workspace }) {
  const router = useRouter();
  const id = initial.assignment.id;
  const { data: ws, refetch } = useQuery({
    queryKey: workspaceKey(id),
    queryFn: () => requestJson<Workspace>(assignmentApi(id)),
    initialData: initial,
  });
  const [submission, setSubmission] = useState<Submission | null>(null);
  const [citing, setCiting] = useState<JudgedEntity | null>(null);
  const [progress, setProgress] = useState<{ judged: number; total: number } | null>(null);
  const editable = ws.assignment.editable && !submission;
  const slug = ws.campaign.kbSlug;

  const autosave = useAutosave({
    assignmentId: id, initial, editable,
    reload: async () => (await refetch({ throwOnError: true })).data!,
  });
  // A lease that ran out shows as an expired assignment, read-only, once the workspace is read again.
  useLease(id, editable && ws.assignment.status === 'ACTIVE', () => void refetch());
  const judgments = useJudgments(id, ws.judgments);
  const { draft, change } = autosave;
  // A validated query names its seed by design: nothing to warn about.
  const names = useMemo(() => (ws.campaign.kind === 'validation' ? [] : [ws.seed.name, ...ws.seed.aliases]), [ws.seed, ws.campaign.kind]);
  const leaks = useMemo(() => findLeaks(draft.text, names), [draft.text, names]);
  const rankText = useSettled(draft.text, 800);
  const relevant = useMemo(() => ws.judgments.filter((j) => j.label === 'relevant').map((j) => j.entityId).sort((a, b) => a - b), [ws.judgments]);
  const paths = draft.requirement?.paths ?? null;
  const readOnly = !editable;

  const blockedBy = !draft.text.trim() ? 'Write the query first.'
    : leaks.length > 0 && ws.campaign.leakPolicy === 'block' ? 'Submitting is blocked: the query names the seed, which this campaign does not accept.'
      : autosave.state.kind === 'conflict' ? 'Choose which draft to keep first.'
        : null;
  const cite = (e: JudgedEntity) => setCiting(citing?.id === e.id ? null : e);
  const evidence = candidateEvidence(slug, judgments, editable, () => setCiting(null));

  return (
    <div className="space-y-4">
      <ReturnedNote status={ws.assignment.status} note={ws.assignment.reviewNote} />
      {submission && <Submitted submission={submission} kbSlug={slug} campaignId={ws.campaign.id} />}
      {readOnly && !submission && (
        <p role="status" className="rounded bg-slate-100 px-3 py-2 text-sm" data-testid="read-only">
          This assignment is {CLOSED_WORDS[ws.assignment.status] ?? ws.assignment.status.toLowerCase()}; it is shown read-only.
        </p>
      )}
      {autosave.stranded !== null && (
        <div className="space-y-1 rounded border border-amber-300 bg-amber-50 px-3 py-2 text-sm">
          <p>This device kept text that was not saved before the assignment closed:</p>
          <p className="whitespace-pre-wrap rounded bg-white p-2">{autosave.stranded}</p>
          <button type="button" onClick={autosave.discardStranded} className="text-xs text-red-700 hover:underline">Discard it</button>
        </div>
      )}
      <FoldedGuidelines text={ws.campaign.guidelines} />
      <div className="grid gap-4 lg:grid-cols-2 *:min-w-0">
        <SeedPanel kbSlug={slug} seed={ws.seed} spans={draft.textSpans} readOnly={readOnly}
          onSpans={(textSpans) => change((d) => ({ ...d, textSpans }))} />
        <div className="space-y-4">
          <Panel title="Your query">
            <div className="space-y-2">
              <QueryEditor text={draft.text} onChange={(text) => change((d) => ({ ...d, text }))} readOnly={readOnly} names={names}
                leakPolicy={ws.campaign.leakPolicy} savedLeaks={autosave.leaks} savedIsCurrent={autosave.state.kind === 'saved'} />
              {editable && <SaveStatus state={autosave.state} localText={draft.text} onKeepServer={autosave.keepServer} onKeepLocal={autosave.keepLocal} />}
            </div>
          </Panel>
          <Panel title="Difficulty for the baselines">
            <DifficultyPanel assignmentId={id} kbSlug={slug} savedVersion={autosave.savedVersion} relevant={relevant} />
          </Panel>
          <Panel title="Relational requirement">
            <RequirementBuilder key={autosave.generation} kbSlug={slug} seed={ws.seed} value={draft.requirement} readOnly={readOnly}
              onChange={(requirement) => change((d) => ({ ...d, requirement }))} />
          </Panel>
          {editable && (
            <div className="flex flex-wrap items-start justify-between gap-3 rounded-lg border border-slate-200 bg-white p-4">
              <SubmitButton assignmentId={id} blockedBy={blockedBy} flush={autosave.flush} progress={paths ? progress : null} onSubmitted={(s) => {
                dropLocal(id);
                setSubmission(s);
                void refetch();
              }} />
              <SkipDialog assignmentId={id} onSkipped={() => {
                dropLocal(id);
                router.push(campaignPage(slug, ws.campaign.id));
              }} />
            </div>
          )}
        </div>
      </div>
      {ws.suggestions.length > 0 && (
        <Panel title="Suggested answers">
          <SuggestionList kbSlug={slug} suggestions={ws.suggestions} judgments={judgments} readOnly={readOnly} />
        </Panel>
      )}
      <Panel title="Candidates">
        {judgments.error && <p role="alert" className="mb-2 text-sm text-red-700">{judgments.error}</p>}
        {ws.campaign.kind === 'authoring' && (
          <p className="mb-2 text-sm text-slate-600" data-testid="seed-apart">
            The seed, <span className="font-medium">{ws.seed.name}</span>, is not listed: the query is about it, so it is an answer without judging.
          </p>
        )}
        {paths ? (
          <CandidateList key={JSON.stringify(paths)} kbSlug={slug} assignmentId={id} paths={paths} queryText={rankText} judgments={judgments}
            readOnly={readOnly} citing={citing?.id ?? null} onCite={cite} evidence={evidence} onProgress={setProgress} />
        ) : (
          <p className="text-sm text-slate-500">Build the relational requirement to list the entities that satisfy it.</p>
        )}
      </Panel>
      <Panel title="Added by hand">
        <HandAdded kbSlug={slug} assignmentId={id} paths={paths} saved={ws.judgments} judgments={judgments} readOnly={readOnly}
          citing={citing?.id ?? null} onCite={cite} evidence={evidence} />
      </Panel>
    </div>
  );
}
