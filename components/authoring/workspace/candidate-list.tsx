'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import type { CandidatePage } from '@/lib/authoring/candidates';
import type { JudgmentLabel } from '@/lib/authoring/drafts';
import type { Metapath } from '@/lib/kb/metapath';
import { plural } from '@/lib/format/plural';
import { requestJson } from '@/components/queries/api';
import { assignmentApi, entityPage } from '../api';
import { JudgmentButtons } from './judgment-buttons';
import { ProgressBar } from './progress-bar';
import { candidatesKey, LABELS, type JudgedEntity } from './types';
import type { Judgments } from './use-judgments';

export const PAGE_SIZE = 50;

const KEY_LABELS: Record<string, JudgmentLabel> = { 1: 'relevant', r: 'relevant', 2: 'not_relevant', n: 'not_relevant', 3: 'unsure', u: 'unsure' };

interface Props {
  kbSlug: string;
  assignmentId: number;
  paths: Metapath[];
  /** The query as typed (debounced): the candidates are ranked by relevance to it. */
  queryText: string;
  judgments: Judgments;
  readOnly: boolean;
  citing: number | null;
  onCite: (entity: JudgedEntity) => void;
  /** The evidence picker of the entity being cited, shown under its row. */
  evidence: (entity: JudgedEntity) => ReactNode;
  /** Told the judged count and the candidates' total whenever they change (the submit step warns with them). */
  onProgress?: (progress: { judged: number; total: number }) => void;
}

/**
 * The exact candidate set of the relational requirement, ranked by relevance to the query, a page at a
 * time, with the judged count. The list takes the keyboard: ArrowDown/j and ArrowUp/k move, 1/r, 2/n and
 * 3/u judge the focused candidate and move on.
 */
export function CandidateList({ kbSlug, assignmentId, paths, queryText, judgments, readOnly, citing, onCite, evidence, onProgress }: Props) {
  const [page, setPage] = useState(0);
  const [focused, setFocused] = useState(0);
  const rows = useRef<(HTMLLIElement | null)[]>([]);
  const { data, error, isFetching } = useQuery({
    queryKey: [...candidatesKey(assignmentId), paths, queryText, page],
    queryFn: () => requestJson<CandidatePage>(`${assignmentApi(assignmentId)}/candidates`, {
      method: 'POST', json: { paths, queryText, limit: PAGE_SIZE, offset: page * PAGE_SIZE },
    }),
    placeholderData: keepPreviousData,
  });
  const items = data?.items ?? [];
  const pages = data ? Math.max(1, Math.ceil(data.total / PAGE_SIZE)) : 1;

  useEffect(() => {
    rows.current[focused]?.scrollIntoView({ block: 'nearest' });
  }, [focused]);

  const judgedCount = data?.judged;
  const total = data?.total;
  useEffect(() => {
    if (judgedCount !== undefined && total !== undefined) onProgress?.({ judged: judgedCount, total });
  }, [judgedCount, total, onProgress]);

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (event.altKey || event.ctrlKey || event.metaKey || (event.target as HTMLElement).closest('input, textarea, select')) return;
    const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
    const move = (by: number) => setFocused((i) => Math.max(0, Math.min(items.length - 1, i + by)));
    if (key === 'ArrowDown' || key === 'j') move(1);
    else if (key === 'ArrowUp' || key === 'k') move(-1);
    else if (KEY_LABELS[key] && !readOnly && items[focused]) {
      const item = items[focused];
      judgments.judge(item.id, KEY_LABELS[key], { listed: item.judgment });
      move(1);
    } else return;
    event.preventDefault();
  }

  if (error) return <p role="alert" className="text-sm text-red-700">Could not list the candidates: {error.message}</p>;
  if (!data) return <p className="text-sm text-slate-500">Finding the candidates…</p>;
  return (
    <div className="space-y-3">
      <ProgressBar judged={data.judged} total={data.total} />
      {!readOnly && (
        <p className="text-xs text-slate-500" id="candidate-keys">
          Keyboard, with the list focused: <kbd>↓</kbd>/<kbd>j</kbd> next, <kbd>↑</kbd>/<kbd>k</kbd> previous,
          {LABELS.map((l) => <span key={l.label}> <kbd>{l.keys}</kbd> {l.text.toLowerCase()},</span>)} then on to the next.
        </p>
      )}
      {data.total === 0 ? (
        <p className="text-sm text-slate-500">No entity satisfies the relational requirement.</p>
      ) : (
        <div tabIndex={0} onKeyDown={onKeyDown} aria-label="Candidates" aria-describedby={readOnly ? undefined : 'candidate-keys'}
          className="rounded border border-slate-200 focus:outline-none focus:ring-2 focus:ring-blue-400" data-testid="candidate-list">
          <ol className={`divide-y divide-slate-100 text-sm ${isFetching ? 'opacity-70' : ''}`} aria-busy={isFetching}>
            {items.map((item, i) => {
              const state = judgments.stateOf(item.id, item.judgment);
              return (
                <li key={item.id} ref={(el) => { rows.current[i] = el; }} aria-current={i === focused ? 'true' : undefined}
                  onClick={() => setFocused(i)} data-testid="candidate"
                  className={`flex flex-wrap items-center gap-x-3 gap-y-1 px-3 py-2 ${i === focused ? 'bg-blue-50' : ''}`}>
                  <span className="w-8 text-right tabular-nums text-slate-600">{page * PAGE_SIZE + i + 1}</span>
                  <span className="min-w-0 flex-1">
                    <Link href={entityPage(kbSlug, item.id)} target="_blank" className="font-medium text-blue-700 hover:underline">{item.name}</Link>
                    <span className="text-xs text-slate-500"> · {item.type} · #{item.id} · {plural(item.degree, 'edge')}</span>
                  </span>
                  <JudgmentButtons name={item.name} state={state} busy={judgments.pending.has(item.id)} readOnly={readOnly}
                    citing={citing === item.id} onCite={() => onCite(item)}
                    onJudge={(label) => {
                      setFocused(i);
                      judgments.judge(item.id, label, { listed: item.judgment });
                    }} />
                  {citing === item.id && (
                    // The picker's own keys (selecting text, its buttons) must not judge the candidates.
                    <div className="basis-full" onKeyDown={(e) => e.stopPropagation()}>{evidence(item)}</div>
                  )}
                </li>
              );
            })}
          </ol>
        </div>
      )}
      {pages > 1 && (
        <nav aria-label="Candidate pages" className="flex items-center gap-3 text-sm">
          <button type="button" disabled={page === 0} onClick={() => { setPage(page - 1); setFocused(0); }} className="rounded border border-slate-300 px-3 py-1 disabled:opacity-40">Previous</button>
          <span>Page {page + 1} of {pages}</span>
          <button type="button" disabled={page + 1 >= pages} onClick={() => { setPage(page + 1); setFocused(0); }} className="rounded border border-slate-300 px-3 py-1 disabled:opacity-40">Next</button>
        </nav>
      )}
    </div>
  );
}
