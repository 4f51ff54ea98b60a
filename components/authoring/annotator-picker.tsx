'use client';

import { useQuery } from '@tanstack/react-query';
import type { AnnotatorCandidate } from '@/lib/authoring/campaign-detail';
import { requestJson } from '../queries/api';

/** Ticks the people who will annotate (by email): the active annotators, curators and admins. */
export function AnnotatorPicker({ value, onChange, error }: { value: string[]; onChange: (emails: string[]) => void; error?: string }) {
  const users = useQuery({
    queryKey: ['annotator-candidates'],
    queryFn: () => requestJson<{ users: AnnotatorCandidate[] }>('/api/users/annotators'),
  });
  const toggle = (email: string, on: boolean) => onChange(on ? [...value, email] : value.filter((e) => e !== email));
  return (
    <fieldset aria-describedby={error ? 'cf-annotators-error' : undefined}>
      <legend className="mb-1 font-medium">Annotators</legend>
      {users.isPending && <p className="text-slate-500">Loading the people who can annotate…</p>}
      {users.error && <p role="alert" className="text-red-700">Could not load the annotators: {users.error.message}</p>}
      {users.data && (
        <ul className="max-h-64 space-y-1 overflow-y-auto" data-testid="annotator-picker">
          {users.data.users.map((u) => (
            <li key={u.id}>
              <label className="flex items-center gap-2">
                <input type="checkbox" checked={value.includes(u.email)} onChange={(e) => toggle(u.email, e.target.checked)} />
                <span>{u.name ?? u.email}</span>
                {u.name && <span className="text-slate-500">{u.email}</span>}
                <span className="text-xs text-slate-500">{u.role.toLowerCase()}</span>
              </label>
            </li>
          ))}
        </ul>
      )}
      {error && <p id="cf-annotators-error" role="alert" className="text-red-700">{error}</p>}
    </fieldset>
  );
}
