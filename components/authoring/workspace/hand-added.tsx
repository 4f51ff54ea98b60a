'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useState, type ReactNode } from 'react';
import type { CandidatePage } from '@/lib/authoring/candidates';
import type { WorkspaceJudgment } from '@/lib/authoring/workspace';
import type { Metapath } from '@/lib/kb/metapath';
import { EntityPicker } from '@/components/entity-picker';
import { requestJson } from '@/components/queries/api';
import { assignmentApi, entityPage } from '../api';
import { JudgmentButtons } from './judgment-buttons';
import { candidatesKey, type JudgedEntity } from './types';
import type { Judgments } from './use-judgments';

const SCAN_PAGE = 200;

/**
 * The judged entities outside the candidate set. The candidate pages count how many judged entities lie
 * inside it, so the set is only scanned when entities of the final type are judged and the count does not
 * already settle which lie outside.
 */
async function judgedOutside(assignmentId: number, paths: Metapath[] | null, judged: WorkspaceJudgment[]): Promise<Set<number>> {
  if (!paths || judged.length === 0) return new Set(judged.map((j) => j.entityId));
  const endType = paths[0]!.steps[paths[0]!.steps.length - 1]!.targetType;
  const outside = new Set(judged.filter((j) => j.type !== endType).map((j) => j.entityId));
  const unsettled = new Set(judged.filter((j) => j.type === endType).map((j) => j.entityId));
  for (let offset = 0; unsettled.size > 0; offset += SCAN_PAGE) {
    const page = await requestJson<CandidatePage>(`${assignmentApi(assignmentId)}/candidates`, { method: 'POST', json: { paths, queryText: '', limit: SCAN_PAGE, offset } });
    if (offset === 0 && outside.size === judged.length - page.judged) return outside;
    for (const item of page.items) unsettled.delete(item.id);
    if (offset + SCAN_PAGE >= page.total) break;
  }
  for (const id of unsettled) outside.add(id);
  return outside;
}

interface Props {
  kbSlug: string;
  assignmentId: number;
  paths: Metapath[] | null;
  saved: WorkspaceJudgment[];
  judgments: Judgments;
  readOnly: boolean;
  citing: number | null;
  onCite: (entity: JudgedEntity) => void;
  /** The evidence picker of the entity being cited, shown under its row. */
  evidence: (entity: JudgedEntity) => ReactNode;
}

/** Answers the requirement does not reach: found by name and judged like the candidates. */
export function HandAdded({ kbSlug, assignmentId, paths, saved, judgments, readOnly, citing, onCite, evidence }: Props) {
  const [picked, setPicked] = useState<JudgedEntity[]>([]);
  const { data: outside } = useQuery({
    queryKey: [...candidatesKey(assignmentId), 'outside', paths, saved.map((j) => j.entityId)],
    queryFn: () => judgedOutside(assignmentId, paths, saved),
  });
  const entities = [
    ...saved.filter((j) => outside?.has(j.entityId) && !picked.some((p) => p.id === j.entityId)).map((j) => ({ id: j.entityId, name: j.name, type: j.type })),
    ...picked,
  ];

  return (
    <div className="space-y-3">
      {!readOnly && (
        <EntityPicker kbSlug={kbSlug} label="Add an entity by hand" testId="hand-picker"
          onSelect={(e) => setPicked((list) => (list.some((p) => p.id === e.id) ? list : [...list, e]))} />
      )}
      {entities.length === 0 ? (
        <p className="text-sm text-slate-500">{readOnly ? 'None.' : 'None yet: add an answer the relational requirement misses.'}</p>
      ) : (
        <ul className="divide-y divide-slate-100 text-sm" data-testid="hand-added">
          {entities.map((e) => (
            <li key={e.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 py-2">
              <span className="min-w-0 flex-1">
                <Link href={entityPage(kbSlug, e.id)} target="_blank" className="font-medium text-blue-700 hover:underline">{e.name}</Link>
                <span className="text-xs text-slate-500"> · {e.type} · #{e.id}</span>
              </span>
              <JudgmentButtons name={e.name} state={judgments.stateOf(e.id)} busy={judgments.pending.has(e.id)} readOnly={readOnly}
                citing={citing === e.id} onCite={() => onCite(e)} onJudge={(label) => judgments.judge(e.id, label)} />
              {citing === e.id && <div className="basis-full">{evidence(e)}</div>}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
