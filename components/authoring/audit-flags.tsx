'use client';

import { useState } from 'react';
import { AUDIT_FLAGS, type AuditFlag } from '@/lib/authoring/audit-flags';
import type { AuditFlags } from '@/lib/authoring/audit-work';
import { requestJson } from '@/components/queries/api';
import { assignmentApi } from './api';

export const FLAG_WORDS: Record<AuditFlag, string> = {
  ambiguous: 'Ambiguous',
  leaks_answer: 'Leaks the answer',
  unanswerable: 'Unanswerable',
};

/** The annotator's flags on the query text with the note saying why, saved with the Save flags button. */
export function AuditFlagsForm({ assignmentId, saved, readOnly, onSaved }: { assignmentId: number; saved: AuditFlags; readOnly: boolean; onSaved: () => void }) {
  const [flags, setFlags] = useState<AuditFlag[]>(saved.flags);
  const [note, setNote] = useState(saved.note);
  const [version, setVersion] = useState(saved.version);
  const [state, setState] = useState<{ kind: 'idle' | 'saving' | 'saved' } | { kind: 'error'; message: string }>({ kind: 'idle' });
  const changed = note !== saved.note || flags.join() !== saved.flags.join();

  async function save() {
    setState({ kind: 'saving' });
    try {
      const result = await requestJson<{ version: number }>(`${assignmentApi(assignmentId)}/audit`, { method: 'PUT', json: { flags, note, version } });
      setVersion(result.version);
      setState({ kind: 'saved' });
      onSaved();
    } catch (err) {
      setState({ kind: 'error', message: (err as Error).message });
    }
  }

  return (
    <fieldset className="space-y-2 text-sm" disabled={readOnly} data-testid="audit-flags">
      <legend className="sr-only">Flags on the query text</legend>
      <div className="flex flex-wrap gap-4">
        {AUDIT_FLAGS.map((f) => (
          <label key={f} className="flex items-center gap-1.5">
            <input type="checkbox" checked={flags.includes(f)}
              onChange={(e) => setFlags((list) => (e.target.checked ? [...list, f] : list.filter((x) => x !== f)))} />
            {FLAG_WORDS[f]}
          </label>
        ))}
      </div>
      <label className="block">
        <span className="mb-1 block text-slate-700">Note {flags.length > 0 && <span className="text-slate-500">(say why; needed with a flag)</span>}</span>
        <textarea value={note} onChange={(e) => setNote(e.target.value)} maxLength={5000} rows={2}
          className="w-full rounded border border-slate-300 px-2 py-1" aria-invalid={flags.length > 0 && !note.trim()} />
      </label>
      {!readOnly && (
        <div className="flex flex-wrap items-center gap-3">
          <button type="button" onClick={() => void save()} disabled={state.kind === 'saving'}
            className="rounded border border-blue-600 px-3 py-1 text-blue-700 hover:bg-blue-50 disabled:opacity-60">
            Save flags
          </button>
          <span role="status" className="text-slate-600">
            {state.kind === 'saving' ? 'Saving…' : state.kind === 'saved' && !changed ? 'Saved' : changed ? 'Not saved yet' : ''}
          </span>
          {state.kind === 'error' && <p role="alert" className="text-red-700">{state.message}</p>}
        </div>
      )}
    </fieldset>
  );
}
