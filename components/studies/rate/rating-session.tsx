'use client';

import { useEffect, useRef, useState } from 'react';
import type { Participation } from '@/lib/studies/participate';
import { plural } from '@/lib/format/plural';
import { requestJson } from '@/components/queries/api';
import { MarkdownText } from '@/components/queries/markdown-text';
import { answerKey, firstIncomplete, isComplete, isPoint, shortcutKeys, type PointDimension } from './model';
import { RatingProgress } from './progress';
import { radioName, ScaleInput } from './scale-input';
import { SaveStatus } from './save-status';
import { TextAnswer } from './text-answer';
import { useAnswers } from './use-answers';

/** Keys the page's own controls act on: they keep them (typing in a box, Enter on a button). */
const OWN_KEYS = 'textarea, select, [contenteditable="true"], input:not([type="radio"])';

/**
 * A participant's items, one at a time: the query, a scale per dimension, saving at once, progress, stop and
 * finish. Number keys choose a point on the focused scale (the first unanswered one when none is focused);
 * Enter goes on to the next item. Opens at the first item without all its required answers. Read-only (after
 * finishing), it shows the answers given, and Enter and the buttons only move between items.
 */
export function RatingSession({ api, participation, readOnly, resumeNote, onChanged }: {
  api: string;
  participation: Participation;
  readOnly: boolean;
  /** How to come back later, shown when the participant stops. */
  resumeNote: string;
  /** Reads the participation again (after finishing, or when a save is refused as the study closed). */
  onChanged: () => Promise<unknown>;
}) {
  const { study, items } = participation;
  const { dimensions } = study;
  const scales = dimensions.filter(isPoint);
  const saving = useAnswers(api, participation.ratings, () => void onChanged());
  const { answers } = saving;
  const [index, setIndex] = useState(() => {
    if (readOnly) return 0;
    const first = firstIncomplete(items, dimensions, answers);
    return first === -1 ? items.length - 1 : first;
  });
  const [stoppedAt, setStoppedAt] = useState<string | null>(null);
  const [hint, setHint] = useState<string | null>(null);
  const [finishing, setFinishing] = useState(false);
  const [finishError, setFinishError] = useState<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);

  const item = items[index]!;
  const complete = items.filter((i) => isComplete(i.itemId, dimensions, answers)).length;
  const isLast = index === items.length - 1;
  const rating = stoppedAt === null;

  const goTo = (i: number) => {
    setIndex(i);
    setHint(null);
    setFinishError(null);
  };

  const finish = async () => {
    const missing = firstIncomplete(items, dimensions, answers);
    if (missing !== -1) {
      goTo(missing);
      setHint(`Item ${missing + 1} still needs an answer on every required scale.`);
      return;
    }
    setFinishing(true);
    setFinishError(null);
    try {
      if (!(await saving.flush())) throw new Error('Some answers are not saved yet; retry saving them first.');
      await requestJson<{ finished: true }>(`${api}/finish`, { method: 'POST' });
      await onChanged();
    } catch (err) {
      setFinishError((err as Error).message);
      setFinishing(false);
    }
  };

  const next = () => {
    if (readOnly) {
      if (!isLast) goTo(index + 1);
      return;
    }
    if (!isComplete(item.itemId, dimensions, answers)) {
      setHint('Answer every required scale of this item to go on.');
      return;
    }
    if (isLast) void finish();
    else goTo(index + 1);
  };

  const onKey = (e: KeyboardEvent) => {
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || e.isComposing || finishing) return;
    const target = e.target instanceof Element ? e.target : null;
    if (target?.closest(OWN_KEYS)) return;
    if (e.key === 'Enter') {
      if (target?.closest('button, a, summary')) return;
      e.preventDefault();
      next();
      return;
    }
    if (readOnly || !/^[0-9]$/.test(e.key)) return;
    const focused = target?.closest<HTMLElement>('[data-scale]')?.dataset.scale;
    const scale = focused ? scales.find((d) => d.key === focused) : scales.find((d) => !answers.has(answerKey(item.itemId, d.key)));
    if (!scale) {
      setHint('Every scale of this item has an answer: Tab to a scale to change it, or press Enter for the next item.');
      return;
    }
    const value = shortcutKeys(scale).get(e.key);
    if (value === undefined) return;
    e.preventDefault();
    setHint(null);
    saving.choose(item.itemId, scale.key, value);
    // Arrow keys then move on from the chosen point.
    if (focused) document.querySelector<HTMLInputElement>(`input[name="${radioName(item.itemId, scale.key)}"][value="${value}"]`)?.focus();
  };
  const onKeyRef = useRef(onKey);
  onKeyRef.current = onKey;

  useEffect(() => {
    if (!rating) return;
    const listener = (e: KeyboardEvent) => onKeyRef.current(e);
    window.addEventListener('keydown', listener);
    return () => window.removeEventListener('keydown', listener);
  }, [rating]);

  // Each item starts with the focus on its heading: no scale focused, so number keys fill the first unanswered one.
  useEffect(() => {
    if (rating) heading.current?.focus();
  }, [rating, index]);

  if (stoppedAt !== null) {
    return (
      <div className="max-w-3xl space-y-3 rounded-lg border border-slate-200 bg-white p-4" data-testid="stopped">
        <h2 className="text-lg font-medium">Stopped for now</h2>
        <p>
          {saving.unsavedCount > 0 ? 'Your last answers are still being saved; keep this page open until they are.' : 'Your answers so far are saved.'}
          {' '}You have completed {complete} of {plural(items.length, 'item')}.
        </p>
        <p>{resumeNote} You will start again at the first item you have not finished:</p>
        <p className="break-all rounded bg-slate-100 px-2 py-1 font-mono text-sm" data-testid="resume-link">{stoppedAt}</p>
        <button type="button" onClick={() => setStoppedAt(null)} className="rounded border border-slate-300 px-3 py-1 hover:bg-slate-50">Carry on now</button>
      </div>
    );
  }

  const itemState = saving.itemState(item.itemId);
  return (
    <div className="max-w-3xl space-y-4">
      <div className="flex flex-wrap items-center gap-4">
        <RatingProgress position={index + 1} complete={complete} total={items.length} />
        {!readOnly && (
          <button type="button" onClick={() => setStoppedAt(window.location.href)}
            className="rounded border border-slate-300 px-3 py-1 text-sm hover:bg-slate-50">
            Stop for now
          </button>
        )}
      </div>

      <article key={item.itemId} aria-labelledby="item-heading" data-item-id={item.itemId} className="space-y-4 rounded-lg border border-slate-200 bg-white p-4">
        <div>
          <h2 id="item-heading" ref={heading} tabIndex={-1} className="text-sm font-medium text-slate-500 outline-none">Query {index + 1}</h2>
          <p className="mt-1 text-xl" data-testid="item-text">{item.text}</p>
          {study.showAnswers && item.answerNames.length > 0 && (
            <div className="mt-2 text-sm">
              <p className="text-slate-600">Its answers in the knowledge base:</p>
              <ul className="list-disc pl-5" data-testid="item-answers">{item.answerNames.map((name, i) => <li key={i}>{name}</li>)}</ul>
            </div>
          )}
        </div>
        {dimensions.map((d) => d.kind === 'text' ? (
          <TextAnswer key={d.key} itemId={item.itemId} dimension={d} saved={answers.get(answerKey(item.itemId, d.key))?.text ?? null} readOnly={readOnly}
            onSave={(text) => saving.comment(item.itemId, d.key, text)} />
        ) : (
          <ScaleInput key={d.key} itemId={item.itemId} dimension={d} value={answers.get(answerKey(item.itemId, d.key))?.value ?? null} disabled={readOnly}
            onChoose={(value) => {
              setHint(null);
              saving.choose(item.itemId, d.key, value);
            }} />
        ))}
        {readOnly ? (
          <p className="text-sm text-slate-600" data-testid="read-only">Your answers, as recorded; they can no longer be changed.</p>
        ) : (
          <SaveStatus state={itemState} problem={saving.problem} othersUnsaved={itemState !== 'failed' && saving.problem !== null && saving.unsavedCount > 0}
            onRetry={() => void saving.flush()} />
        )}
      </article>

      <nav aria-label="Items" className="flex flex-wrap items-center gap-2">
        <button type="button" onClick={() => goTo(index - 1)} disabled={index === 0}
          className="rounded border border-slate-300 px-3 py-1 hover:bg-slate-50 disabled:opacity-40">
          Previous
        </button>
        {isLast && readOnly ? null : isLast ? (
          <button type="button" onClick={() => void finish()} disabled={finishing}
            className="rounded bg-green-700 px-4 py-1 text-white hover:bg-green-800 disabled:opacity-60">
            {finishing ? 'Finishing…' : 'Finish'}
          </button>
        ) : (
          <button type="button" onClick={next} className="rounded bg-blue-700 px-4 py-1 text-white hover:bg-blue-800">Next</button>
        )}
      </nav>
      {hint && <p role="status" className="text-sm text-amber-800" data-testid="rating-hint">{hint}</p>}
      {saving.retry && <p role="alert" className="text-sm text-amber-800" data-testid="attention-retry">{saving.retry}</p>}
      {finishError && <p role="alert" className="text-sm text-red-800">Could not finish: {finishError}</p>}

      <Shortcuts scales={readOnly ? [] : scales} enter={readOnly ? (isLast ? null : 'next item') : isLast ? 'finish' : 'next item'} />
      {study.instructions.trim() && (
        <details className="rounded border border-slate-200 bg-white px-3 py-2 text-sm">
          <summary className="cursor-pointer text-slate-600">Instructions</summary>
          <div className="mt-2"><MarkdownText text={study.instructions} /></div>
        </details>
      )}
    </div>
  );
}

/** The keyboard shortcuts, with the number keys of the study's scales. */
function Shortcuts({ scales, enter }: { scales: PointDimension[]; enter: string | null }) {
  const keys = [...new Set(scales.flatMap((d) => [...shortcutKeys(d).keys()]))].sort();
  const numberKeys = keys.length ? <><kbd>{keys[0]}</kbd>–<kbd>{keys[keys.length - 1]}</kbd></> : null;
  return (
    <ul aria-label="Keyboard shortcuts" className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-600 [&_kbd]:rounded [&_kbd]:border [&_kbd]:border-slate-300 [&_kbd]:bg-slate-50 [&_kbd]:px-1">
      {numberKeys && <li>{numberKeys} choose a point on the focused scale, or on the first unanswered one</li>}
      <li><kbd>Tab</kbd> / <kbd>Shift</kbd>+<kbd>Tab</kbd> next / previous scale</li>
      <li><kbd>←</kbd> <kbd>→</kbd> move within a scale</li>
      {enter && <li><kbd>Enter</kbd> {enter}</li>}
    </ul>
  );
}
