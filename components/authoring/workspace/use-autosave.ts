'use client';

import { useCallback, useEffect, useRef, useState } from 'react';
import type { SavedDraft } from '@/lib/authoring/drafts';
import type { LeakMatch } from '@/lib/authoring/leak';
import type { Workspace } from '@/lib/authoring/workspace';
import { ApiError, requestJson } from '@/components/queries/api';
import { assignmentApi } from '../api';
import { draftContent, type DraftContent } from './types';

export type SaveState =
  | { kind: 'saved' }
  | { kind: 'saving' }
  | { kind: 'unsaved' }
  /** The server could not be reached: the draft is on this device and saving is retried. */
  | { kind: 'offline' }
  /** The server refused the draft (400); the next change tries again. */
  | { kind: 'refused'; message: string }
  /** The draft was saved elsewhere since this editor's version: the author chooses which text stays. */
  | { kind: 'conflict'; server: { draft: DraftContent; version: number } }
  /** The assignment can no longer be changed (expired, submitted elsewhere). */
  | { kind: 'closed'; message: string };

const DEBOUNCE_MS = 800;
const FIRST_RETRY_MS = 1_000;
const MAX_RETRY_MS = 15_000;

/** The unsaved draft kept on this device, with the server version it was based on. */
interface LocalCopy {
  base: number;
  draft: DraftContent;
}

const storageKey = (assignmentId: number) => `skb:assignment-draft:${assignmentId}`;

function readLocal(assignmentId: number): LocalCopy | null {
  try {
    const raw = localStorage.getItem(storageKey(assignmentId));
    return raw ? (JSON.parse(raw) as LocalCopy) : null;
  } catch {
    return null;
  }
}

function writeLocal(assignmentId: number, copy: LocalCopy): void {
  try {
    localStorage.setItem(storageKey(assignmentId), JSON.stringify(copy));
  } catch {
    // Storage full or disabled: the server's copy is then the only one.
  }
}

export function dropLocal(assignmentId: number): void {
  try {
    localStorage.removeItem(storageKey(assignmentId));
  } catch {
    // Nothing to drop when storage is disabled.
  }
}

/** JSON with object keys sorted: the server's JSON columns do not keep key order, so drafts compare by this. */
const canonical = (value: unknown) => JSON.stringify(value, (_key, v: unknown) =>
  v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v);

interface Options {
  assignmentId: number;
  initial: Workspace;
  editable: boolean;
  /** Reads the workspace again (after a 409, to tell a newer draft from a closed assignment). */
  reload: () => Promise<Workspace>;
}

/**
 * The draft editor's state and its autosave. Every change is kept on this device at once and saved
 * ~800 ms after typing stops, naming the version last saved; a lost connection is retried with backoff and
 * when the browser is back online. On load, a copy left on this device is restored and saved when it was
 * based on the server's version, and offered against the server's text when the draft moved on elsewhere.
 */
export function useAutosave({ assignmentId, initial, editable, reload }: Options) {
  const [draft, setDraft] = useState(() => draftContent(initial.draft));
  const [state, setStateValue] = useState<SaveState>({ kind: 'saved' });
  const [leaks, setLeaks] = useState<LeakMatch[]>(initial.leaks);
  /** The version last saved or loaded: what the server's checks of the draft (difficulty) read. */
  const [savedVersion, setSavedVersion] = useState(initial.draft.version);
  /** Bumped when the draft is replaced as a whole, so editors holding their own state start again from it. */
  const [generation, setGeneration] = useState(0);
  /** Text this device kept for an assignment that can no longer be changed. */
  const [stranded, setStranded] = useState<string | null>(null);

  const current = useRef(draft);
  const saved = useRef(canonical(draft));
  const version = useRef(initial.draft.version);
  const stateRef = useRef(state);
  const editableRef = useRef(editable);
  editableRef.current = editable;
  const queue = useRef<Promise<void>>(Promise.resolve());
  const debounce = useRef<ReturnType<typeof setTimeout>>(undefined);
  const retry = useRef<{ timer?: ReturnType<typeof setTimeout>; delay: number }>({ delay: FIRST_RETRY_MS });
  const reloadRef = useRef(reload);
  reloadRef.current = reload;

  const setState = (next: SaveState) => {
    stateRef.current = next;
    setStateValue(next);
  };
  const halted = () => !editableRef.current || stateRef.current.kind === 'conflict' || stateRef.current.kind === 'closed';
  const dirty = () => canonical(current.current) !== saved.current;

  const replace = (next: DraftContent, at: number) => {
    current.current = next;
    setDraft(next);
    saved.current = canonical(next);
    version.current = at;
    setSavedVersion(at);
    setGeneration((g) => g + 1);
  };

  const attempt = async (): Promise<void> => {
    clearTimeout(retry.current.timer);
    if (halted()) return;
    const snapshot = current.current;
    const sent = canonical(snapshot);
    if (sent === saved.current) {
      setState({ kind: 'saved' });
      return;
    }
    setState({ kind: 'saving' });
    try {
      const res = await requestJson<SavedDraft>(`${assignmentApi(assignmentId)}/draft`, { method: 'PUT', json: { ...snapshot, version: version.current } });
      version.current = res.version;
      saved.current = sent;
      setLeaks(res.leaks);
      setSavedVersion(res.version);
      retry.current.delay = FIRST_RETRY_MS;
      if (dirty()) {
        writeLocal(assignmentId, { base: res.version, draft: current.current });
        setState({ kind: 'unsaved' });
        clearTimeout(debounce.current);
        debounce.current = setTimeout(enqueue, DEBOUNCE_MS);
      } else {
        dropLocal(assignmentId);
        setState({ kind: 'saved' });
      }
    } catch (err) {
      if (err instanceof ApiError && err.status === 409) await afterConflict(err.message);
      else if (err instanceof ApiError && err.status < 500) setState({ kind: 'refused', message: err.message });
      else goOffline();
    }
  };

  // Saves run one at a time, in order: each names the version the previous one returned.
  const enqueue = (): Promise<void> => (queue.current = queue.current.then(attempt));

  const goOffline = () => {
    setState({ kind: 'offline' });
    retry.current.timer = setTimeout(enqueue, retry.current.delay);
    retry.current.delay = Math.min(retry.current.delay * 2, MAX_RETRY_MS);
  };

  const afterConflict = async (message: string) => {
    try {
      const ws = await reloadRef.current();
      if (!ws.assignment.editable) setState({ kind: 'closed', message });
      else setState({ kind: 'conflict', server: { draft: draftContent(ws.draft), version: ws.draft.version } });
    } catch {
      goOffline();
    }
  };

  const change = useCallback((update: (d: DraftContent) => DraftContent) => {
    const next = update(current.current);
    current.current = next;
    setDraft(next);
    writeLocal(assignmentId, { base: version.current, draft: next });
    if (halted()) return;
    if (stateRef.current.kind !== 'offline') setState({ kind: 'unsaved' });
    clearTimeout(debounce.current);
    debounce.current = setTimeout(enqueue, DEBOUNCE_MS);
  }, [assignmentId]);

  /** Keeps the text saved elsewhere; this device's text is dropped. */
  const keepServer = () => {
    if (stateRef.current.kind !== 'conflict') return;
    const { server } = stateRef.current;
    replace(server.draft, server.version);
    dropLocal(assignmentId);
    setState({ kind: 'saved' });
  };

  /** Saves this device's text over the version saved elsewhere. */
  const keepLocal = () => {
    if (stateRef.current.kind !== 'conflict') return;
    const { server } = stateRef.current;
    version.current = server.version;
    saved.current = canonical(server.draft);
    writeLocal(assignmentId, { base: server.version, draft: current.current });
    setState({ kind: 'unsaved' });
    void enqueue();
  };

  /** Saves now what is unsaved; the saved version, or an error saying why the draft is not saved. */
  const flush = async (): Promise<number> => {
    clearTimeout(debounce.current);
    await enqueue();
    const s = stateRef.current;
    if (!dirty()) return version.current;
    if (s.kind === 'conflict') throw new Error('The draft was saved elsewhere; choose which text to keep first.');
    if (s.kind === 'refused' || s.kind === 'closed') throw new Error(s.message);
    throw new Error('The draft is not saved yet (offline); it is kept on this device. Try again when back online.');
  };

  const discardStranded = () => {
    dropLocal(assignmentId);
    setStranded(null);
  };

  useEffect(() => {
    const local = readLocal(assignmentId);
    if (!local) return;
    if (canonical(local.draft) === saved.current) {
      dropLocal(assignmentId);
    } else if (!editableRef.current) {
      setStranded(local.draft.text);
    } else if (local.base === version.current) {
      current.current = local.draft;
      setDraft(local.draft);
      setGeneration((g) => g + 1);
      setState({ kind: 'unsaved' });
      void enqueue();
    } else {
      const server = { draft: current.current, version: version.current };
      current.current = local.draft;
      setDraft(local.draft);
      setGeneration((g) => g + 1);
      setState({ kind: 'conflict', server });
    }
  }, [assignmentId]);

  useEffect(() => {
    const online = () => {
      if (stateRef.current.kind === 'offline') void enqueue();
    };
    window.addEventListener('online', online);
    return () => {
      window.removeEventListener('online', online);
      clearTimeout(debounce.current);
      clearTimeout(retry.current.timer);
    };
  }, []);

  return { draft, change, state, leaks, savedVersion, generation, keepServer, keepLocal, flush, stranded, discardStranded };
}
