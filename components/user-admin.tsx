'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { ROLES, type Role } from '@/lib/auth/roles';
import type { PublicUser } from '@/lib/auth/users';
import { fetchJson } from '@/lib/client/fetch-json';

type UserRow = Omit<PublicUser, 'createdAt'> & { createdAt: string };

export function UserAdmin({ currentUserId }: { currentUserId: number }) {
  const queryClient = useQueryClient();
  const users = useQuery({ queryKey: ['users'], queryFn: () => fetchJson<{ users: UserRow[] }>('/api/users') });
  const changeRole = useMutation({
    mutationFn: ({ id, role }: { id: number; role: Role }) =>
      fetchJson<UserRow>(`/api/users/${id}`, { method: 'PATCH', body: JSON.stringify({ role }) }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['users'] }),
  });

  if (users.error) return <p role="alert" className="text-red-700">{users.error.message}</p>;
  return (
    <div className="space-y-6">
      {changeRole.error && <p role="alert" className="rounded bg-red-50 px-3 py-2 text-sm text-red-700">{changeRole.error.message}</p>}
      <table className="w-full rounded-lg border border-slate-200 bg-white text-sm" data-testid="user-table">
        <thead className="bg-slate-50 text-left text-slate-600">
          <tr><th className="px-3 py-2">Email</th><th className="px-3 py-2">Name</th><th className="px-3 py-2">Role</th><th className="px-3 py-2">Created</th></tr>
        </thead>
        <tbody>
          {users.data?.users.map((u) => (
            <tr key={u.id} className="border-t border-slate-100">
              <td className="px-3 py-2">{u.email}{u.id === currentUserId && <span className="ml-1 text-xs text-slate-500">(you)</span>}</td>
              <td className="px-3 py-2">{u.name ?? '—'}</td>
              <td className="px-3 py-2">
                <select
                  aria-label={`Role of ${u.email}`}
                  value={u.role}
                  disabled={changeRole.isPending}
                  onChange={(e) => changeRole.mutate({ id: u.id, role: e.target.value as Role })}
                  className="rounded border border-slate-300 px-2 py-1"
                >
                  {ROLES.map((r) => <option key={r} value={r}>{r.toLowerCase()}</option>)}
                </select>
              </td>
              <td className="px-3 py-2 text-slate-500">{new Date(u.createdAt).toLocaleDateString('en')}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <NewUserForm />
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
      <label className="flex flex-col">Password<input name="password" type="password" required minLength={8} className="rounded border border-slate-300 px-2 py-1" /></label>
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
