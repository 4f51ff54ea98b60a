import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { currentUser } from '@/lib/auth/session';
import { LoginForm } from '@/components/login-form';
import { safeReturnPath } from '@/lib/http/return-path';

export const metadata: Metadata = { title: 'Sign in' };

export default async function LoginPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const returnTo = safeReturnPath((await searchParams).callbackUrl);
  if (await currentUser()) redirect(returnTo);
  return (
    <div className="mx-auto mt-16 max-w-sm rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
      <h1 className="mb-4 text-xl font-semibold">Sign in to SKB Studio</h1>
      <LoginForm returnTo={returnTo} />
    </div>
  );
}
