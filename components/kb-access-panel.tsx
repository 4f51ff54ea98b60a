'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import type { Visibility } from '@/lib/db/generated/enums';
import type { KbMemberRow } from '@/lib/kb/members';
import { fetchJson } from '@/lib/client/fetch-json';

type Access = { visibility: Visibility; members: (Omit<KbMemberRow, 'since'> & { since: string })[] };

/** Visibility and membership of one knowledge base, for its admins and curators. */
export function KbAccessPanel({ slug }: { slug: string }) {
  const base = `/api/kbs/${encodeURIComponent(slug)}`;
  const key = ['kb-access', slug];
  const queryClient = useQueryClient();
  const router = useRouter();
  const [email, setEmail] = useState('');
  const access = useQuery({ queryKey: key, queryFn: () => fetchJson<Access>(`${base}/members`) });
  const refresh = () => queryClient.invalidateQueries({ queryKey: key });

  const visibility = useMutation({
    mutationFn: (v: Visibility) => fetchJson(base, { method: 'PATCH', body: JSON.stringify({ visibility: v }) }),
    onSuccess: () => {
      router.refresh();
      return refresh();
    },
  });
  const add = useMutation({
    mutationFn: (e: string) => fetchJson(`${base}/members`, { method: 'POST', body: JSON.stringify({ email: e }) }),
    onSuccess: () => {
      setEmail('');
      return refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (userId: number) => fetchJson(`${base}/members/${userId}`, { method: 'DELETE' }),
    onSuccess: refresh,
  });
  const error = access.error ?? visibility.error ?? add.error ?? remove.error;

  function onAdd(event: FormEvent) {
    event.preventDefault();
    add.mutate(email);
  }

  return (
    <div className="rounded-lg border border-slate-200 bg-white p-4 text-sm" data-testid="kb-access">
      <h2 className="mb-2 font-medium">Access</h2>
      {error && <p role="alert" className="mb-2 rounded bg-red-50 px-3 py-2 text-red-700">{error.message}</p>}
      {access.data && (
        <>
          <label className="flex flex-wrap items-center gap-2">
            Visible to
            <select
              aria-label="Visibility"
              value={access.data.visibility}
              disabled={visibility.isPending}
              onChange={(e) => visibility.mutate(e.target.value as Visibility)}
              className="max-w-full rounded border border-slate-300 px-2 py-1"
            >
              <option value="PUBLIC">every signed-in user (public)</option>
              <option value="PRIVATE">admins and members only (private)</option>
            </select>
          </label>
          <h3 className="mt-3 font-medium text-slate-700">Members</h3>
          <ul className="divide-y divide-slate-100" aria-label="Members">
            {access.data.members.map((m) => (
              <li key={m.userId} className="flex items-center justify-between py-1">
                <span>{m.email} <span className="text-xs lowercase text-slate-500">{m.role}</span></span>
                <button type="button" onClick={() => remove.mutate(m.userId)} className="text-red-700 hover:underline" aria-label={`Remove ${m.email}`}>
                  Remove
                </button>
              </li>
            ))}
            {access.data.members.length === 0 && <li className="py-1 text-slate-500">No members yet.</li>}
          </ul>
          <form onSubmit={onAdd} className="mt-2 flex gap-2">
            <input aria-label="Member email" type="email" required value={email} onChange={(e) => setEmail(e.target.value)}
              placeholder="email of an existing user" className="flex-1 rounded border border-slate-300 px-2 py-1" />
            <button type="submit" disabled={add.isPending} className="rounded bg-blue-600 px-3 py-1 font-medium text-white hover:bg-blue-700 disabled:opacity-60">Add member</button>
          </form>
        </>
      )}
    </div>
  );
}
