'use client';

import { useCallback, useEffect, useRef, useState } from 'react';
import type { Participation, RatingInput, SaveResult } from '@/lib/studies/participate';
import { ApiError, requestJson } from '@/components/queries/api';
import { answerKey, type Answer } from './model';

/** Why a save failed, in the participant's words. */
function describe(err: unknown): string {
  if (err instanceof ApiError) return err.message;
  return 'The server could not be reached; check your connection';
}

export type ItemSaveState = 'none' | 'saving' | 'saved' | 'failed';

/**
 * The participant's answers and their saving. Every change is sent at once; sends run one after another, in
 * the order of the changes, so the last choice is the one stored. An answer stays "unsaved" until the server
 * confirms it; after a failure the sending stops, and the next change or `retry` sends every unsaved answer
 * again. The server keeps one answer per item and dimension, so a repeated send never duplicates one.
 */
export function useAnswers(api: string, initial: Participation['ratings'], onRefused: () => void) {
  const [answers, setAnswers] = useState(() => new Map<string, Answer>(initial.map((r) => [answerKey(r.itemId, r.dimension), { value: r.value, text: r.text }])));
  const unsaved = useRef(new Map<string, RatingInput>());
  const [pending, setPending] = useState<ReadonlySet<string>>(new Set());
  const [problem, setProblem] = useState<string | null>(null);
  /** An attention check answered wrongly with a try left: what to tell the participant. */
  const [retry, setRetry] = useState<string | null>(null);
  const running = useRef<Promise<boolean> | null>(null);
  const onRefusedRef = useRef(onRefused);
  onRefusedRef.current = onRefused;

  const publish = () => setPending(new Set(unsaved.current.keys()));

  const drain = async (): Promise<boolean> => {
    setProblem(null);
    for (let next = unsaved.current.entries().next(); !next.done; next = unsaved.current.entries().next()) {
      const [key, input] = next.value;
      let result: SaveResult;
      try {
        result = await requestJson<SaveResult>(`${api}/ratings`, { method: 'PUT', json: input });
      } catch (err) {
        setProblem(describe(err));
        // Closed, finished or expired: the screen reads the study again to say so.
        if (err instanceof ApiError && (err.status === 409 || err.status === 410)) onRefusedRef.current();
        return false;
      }
      // A newer change of the same answer, made while this one was on its way, is sent next.
      const latest = unsaved.current.get(key) === input;
      if (latest) unsaved.current.delete(key);
      publish();
      if (!result.saved) {
        // Not stored: the participant answers the check again.
        if (latest) setAnswers((prev) => { const left = new Map(prev); left.delete(key); return left; });
        setRetry(result.retry);
      } else if (result.ended) {
        onRefusedRef.current();
        return false;
      }
    }
    return true;
  };

  /** Sends what is unsaved: true once everything is saved, false when a send failed. */
  const flush = useCallback((): Promise<boolean> => {
    running.current ??= drain().finally(() => {
      running.current = null;
    });
    return running.current;
  }, [api]);

  const record = useCallback((input: RatingInput, answer: Answer) => {
    setRetry(null);
    const key = answerKey(input.itemId, input.dimension);
    setAnswers((prev) => new Map(prev).set(key, answer));
    unsaved.current.set(key, input);
    publish();
    void flush();
  }, [flush]);

  const choose = useCallback((itemId: number, dimension: string, value: number) => record({ itemId, dimension, value }, { value, text: null }), [record]);
  const comment = useCallback((itemId: number, dimension: string, text: string) => record({ itemId, dimension, text }, { value: null, text }), [record]);

  const itemState = (itemId: number): ItemSaveState => {
    const prefix = `${itemId}:`;
    if ([...pending].some((k) => k.startsWith(prefix))) return problem ? 'failed' : 'saving';
    return [...answers.keys()].some((k) => k.startsWith(prefix)) ? 'saved' : 'none';
  };

  // Leaving with answers still unsaved asks first.
  const hasPending = pending.size > 0;
  useEffect(() => {
    if (!hasPending) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [hasPending]);

  return { answers, choose, comment, itemState, problem, retry, unsavedCount: pending.size, flush };
}
