'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import type { Evidence, JudgmentLabel } from '@/lib/authoring/drafts';
import type { WorkspaceJudgment } from '@/lib/authoring/workspace';
import { ApiError, requestJson } from '@/components/queries/api';
import { assignmentApi } from '../api';
import { candidatesKey, workspaceKey, type JudgmentState } from './types';

/** A candidate's judgment as the candidate list gives it: no evidence. */
export type ListedJudgment = { label: JudgmentLabel; version: number } | null;

/**
 * The annotator's judgments: what the workspace, the candidate pages and this screen's own saves say, the
 * newest version winning. Judgments of one entity are saved one after another, each naming the version the
 * previous one returned, so quick keyboard changes never trip over each other.
 */
export function useJudgments(assignmentId: number, saved: WorkspaceJudgment[]) {
  const queryClient = useQueryClient();
  const mine = useRef(new Map<number, JudgmentState>());
  const [, setMineVersion] = useState(0);
  const chains = useRef(new Map<number, Promise<void>>());
  const [pending, setPending] = useState<ReadonlySet<number>>(new Set());
  const [error, setError] = useState<string | null>(null);

  const stateOf = (entityId: number, listed: ListedJudgment = null): JudgmentState | null => {
    const fromWorkspace = saved.find((j) => j.entityId === entityId);
    const options = [mine.current.get(entityId), fromWorkspace && { label: fromWorkspace.label, version: fromWorkspace.version, evidence: fromWorkspace.evidence }, listed && { ...listed, evidence: [] }];
    return options.reduce<JudgmentState | null>((best, o) => (o && (!best || o.version > best.version) ? o : best), null);
  };

  const refresh = () => Promise.all([
    queryClient.invalidateQueries({ queryKey: candidatesKey(assignmentId) }),
    queryClient.invalidateQueries({ queryKey: workspaceKey(assignmentId) }),
  ]);

  const save = async (entityId: number, label: JudgmentLabel, evidence: Evidence[] | undefined, listed: ListedJudgment) => {
    const current = stateOf(entityId, listed);
    // A relevant judgment keeps its evidence when relabelled as relevant; evidence given with the judgment is
    // kept whatever the label (an audit cites why a current answer is wrong).
    const kept = evidence ?? (label === 'relevant' ? current?.evidence ?? [] : []);
    try {
      const { version } = await requestJson<{ version: number }>(`${assignmentApi(assignmentId)}/judgments`, {
        method: 'POST', json: { entityId, label, evidence: kept, version: current?.version ?? 0 },
      });
      mine.current.set(entityId, { label, version, evidence: kept });
      setMineVersion((v) => v + 1);
      setError(null);
    } catch (err) {
      setError(err instanceof ApiError && err.status === 409 ? `${err.message} The list was refreshed.` : `Not saved: ${(err as Error).message}`);
    }
    await refresh();
  };

  /** Records a judgment; `evidence` replaces the cited evidence (kept as it is when omitted). */
  const judge = (entityId: number, label: JudgmentLabel, options: { evidence?: Evidence[]; listed?: ListedJudgment } = {}) => {
    setPending((p) => new Set(p).add(entityId));
    const next = (chains.current.get(entityId) ?? Promise.resolve())
      .then(() => save(entityId, label, options.evidence, options.listed ?? null))
      .finally(() => {
        if (chains.current.get(entityId) === next) {
          chains.current.delete(entityId);
          setPending((p) => {
            const rest = new Set(p);
            rest.delete(entityId);
            return rest;
          });
        }
      });
    chains.current.set(entityId, next);
  };

  return { stateOf, judge, pending, error, clearError: () => setError(null) };
}

export type Judgments = ReturnType<typeof useJudgments>;
