'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { ROLES, type Role } from '@/lib/auth/roles';
import type { PublicUser } from '@/lib/auth/users';
import { fetchJson } from '@/lib/client/fetch-json';
import { When } from '@/components/when';

type UserRow = Omit<PublicUser, 'createdAt'> & { createdAt: string };

export function UserAdmin({ currentUserId }: { currentUserId: number }) {
  const queryClient = useQueryClient();
  const users = useQuery({ queryKey: ['users'], queryFn: () => fetchJson<{ users: UserRow[] }>('/api/users') });
  const change = useMutation({
    mutationFn: ({ url, method, body }: { url: string; method: string; body?: unknown }) =>
      fetchJson<UserRow>(url, { method, body: body === undefined ? undefined : JSON.stringify(body) }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['users'] }),
  });

  if (users.error) return <p role="alert" className="text-red-700">{users.error.message}</p>;
  return (
    <div className="space-y-6">
      {change.error && <p role="alert" className="rounded bg-red-50 px-3 py-2 text-sm text-red-700">{change.error.message}</p>}
      <div className="table-scroll">
        <table className="w-full rounded-lg border border-slate-200 bg-white text-sm" data-testid="user-table">
          <thead className="bg-slate-50 text-left text-slate-600">
            <tr>
              <th className="px-3 py-2">Email</th><th className="px-3 py-2">Name</th><th className="px-3 py-2">Role</th>
              <th className="px-3 py-2">Created</th><th className="px-3 py-2">Account</th>
            </tr>
          </thead>
          <tbody>
            {users.data?.users.map((u) => (
              <tr key={u.id} className="border-t border-slate-100">
                <td className="px-3 py-2">
                  {u.email}{u.id === currentUserId && <span className="ml-1 text-xs text-slate-500">(you)</span>}
                  {u.disabled && <span className="ml-1 rounded bg-slate-200 px-1 text-xs text-slate-700">disabled</span>}
                </td>
                <td className="px-3 py-2">{u.name ?? '—'}</td>
                <td className="px-3 py-2">
                  <select
                    aria-label={`Role of ${u.email}`}
                    value={u.role}
                    disabled={change.isPending}
                    onChange={(e) => change.mutate({ url: `/api/users/${u.id}`, method: 'PATCH', body: { role: e.target.value as Role } })}
                    className="rounded border border-slate-300 px-2 py-1"
                  >
                    {ROLES.map((r) => <option key={r} value={r}>{r.toLowerCase()}</option>)}
                  </select>
                </td>
                <td className="px-3 py-2 text-slate-500"><When at={u.createdAt} day /></td>
                <td className="px-3 py-2"><AccountActions user={u} pending={change.isPending} run={change.mutate} /></td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <NewUserForm />
    </div>
  );
}

type Run = (request: { url: string; method: string; body?: unknown }) => void;

/** Disable or enable, sign out everywhere, set a new password: each asks for confirmation first. */
function AccountActions({ user, pending, run }: { user: UserRow; pending: boolean; run: Run }) {
  const [resetting, setResetting] = useState(false);
  const button = 'rounded border border-slate-300 px-2 py-0.5 text-xs hover:bg-slate-100 disabled:opacity-60';
  const confirmed = (question: string) => window.confirm(question);
  function onReset(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const password = String(new FormData(event.currentTarget).get('password') ?? '');
    if (!confirmed(`Set this password for ${user.email}? Their sessions end.`)) return;
    run({ url: `/api/users/${user.id}/password`, method: 'PUT', body: { password } });
    setResetting(false);
  }
  return (
    <div className="flex flex-wrap items-center gap-1">
      <button type="button" className={button} disabled={pending}
        onClick={() => confirmed(user.disabled ? `Enable ${user.email}?` : `Disable ${user.email}? They are signed out and cannot sign in.`)
          && run({ url: `/api/users/${user.id}`, method: 'PATCH', body: { disabled: !user.disabled } })}>
        {user.disabled ? 'Enable' : 'Disable'}
      </button>
      <button type="button" className={button} disabled={pending}
        onClick={() => confirmed(`Sign ${user.email} out everywhere?`) && run({ url: `/api/users/${user.id}/sessions`, method: 'DELETE' })}>
        Sign out everywhere
      </button>
      {resetting ? (
        <form onSubmit={onReset} className="flex items-center gap-1">
          <input name="password" type="password" required minLength={8} maxLength={256} aria-label={`New password for ${user.email}`}
            autoComplete="new-password" className="w-36 rounded border border-slate-300 px-1 py-0.5 text-xs" />
          <button type="submit" className={button} disabled={pending}>Set</button>
          <button type="button" className={button} onClick={() => setResetting(false)}>Cancel</button>
        </form>
      ) : (
        <button type="button" className={button} disabled={pending} onClick={() => setResetting(true)}>Reset password</button>
      )}
    </div>
  );
}

function NewUserForm() {
  const queryClient = useQueryClient();
  const [form, setForm] = useState<HTMLFormElement | null>(null);
  const create = useMutation({
    mutationFn: (body: Record<string, string>) => fetchJson<UserRow>('/api/users', { method: 'POST', body: JSON.stringify(body) }),
    onSuccess: () => {
      form?.reset();
      return queryClient.invalidateQueries({ queryKey: ['users'] });
    },
  });
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setForm(event.currentTarget);
    create.mutate(Object.fromEntries(new FormData(event.currentTarget)) as Record<string, string>);
  }
  return (
    <form onSubmit={onSubmit} className="flex flex-wrap items-end gap-3 rounded-lg border border-slate-200 bg-white p-4 text-sm">
      <h2 className="w-full font-medium">Add a user</h2>
      <label className="flex flex-col">Email<input name="email" type="email" required className="rounded border border-slate-300 px-2 py-1" /></label>
      <label className="flex flex-col">Name<input name="name" className="rounded border border-slate-300 px-2 py-1" /></label>
      <label className="flex flex-col">Password<input name="password" type="password" required minLength={8} maxLength={256} className="rounded border border-slate-300 px-2 py-1" /></label>
      <label className="flex flex-col">Role
        <select name="role" defaultValue="ANNOTATOR" className="rounded border border-slate-300 px-2 py-1">
          {ROLES.map((r) => <option key={r} value={r}>{r.toLowerCase()}</option>)}
        </select>
      </label>
      <button type="submit" disabled={create.isPending} className="rounded bg-blue-600 px-3 py-1.5 font-medium text-white hover:bg-blue-700 disabled:opacity-60">Add user</button>
      {create.error && <p role="alert" className="w-full text-red-700">{create.error.message}</p>}
      {create.isSuccess && <p className="w-full text-green-700">Added {create.data.email}.</p>}
    </form>
  );
}
