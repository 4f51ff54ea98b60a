import type { Metadata } from 'next';
import Link from 'next/link';
import type { ReactNode } from 'react';
import { currentUser } from '@/lib/auth/session';
import { can } from '@/lib/auth/roles';
import { SignOutButton } from '@/components/sign-out-button';
import { Providers } from './providers';
import './globals.css';

export const metadata: Metadata = {
  title: { default: 'SKB Studio', template: '%s · SKB Studio' },
  description: 'Explore semi-structured knowledge bases and build retrieval benchmarks on them.',
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  const user = await currentUser();
  return (
    <html lang="en">
      <body className="min-h-screen">
        <header className="border-b border-slate-200 bg-white">
          <nav className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-6 gap-y-2 px-4 py-3 text-sm">
            <Link href="/" className="font-semibold tracking-tight text-slate-900">SKB Studio</Link>
            {user && <Link href="/" className="text-slate-600 hover:text-slate-900">Knowledge bases</Link>}
            {user && can(user.role, 'kb:manage') && (
              <Link href="/admin/import" className="text-slate-600 hover:text-slate-900">Import</Link>
            )}
            {user && can(user.role, 'users:manage') && (
              <Link href="/admin/users" className="text-slate-600 hover:text-slate-900">Users</Link>
            )}
            <div className="ml-auto flex min-w-0 items-center gap-3">
              {user ? (
                <>
                  {/* On a phone a long address is cut short rather than pushing the page sideways. */}
                  <span className="min-w-0 truncate text-slate-600" title={`${user.email} · ${user.role.toLowerCase()}`} data-testid="current-user">
                    {user.email} · <span className="lowercase">{user.role}</span>
                  </span>
                  <SignOutButton />
                </>
              ) : (
                <Link href="/login" className="text-slate-600 hover:text-slate-900">Sign in</Link>
              )}
            </div>
          </nav>
        </header>
        <Providers>
          <main className="mx-auto max-w-6xl px-4 py-6">{children}</main>
        </Providers>
      </body>
    </html>
  );
}
