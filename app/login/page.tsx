import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { currentUser } from '@/lib/auth/session';
import { oidcSettings } from '@/lib/auth/oidc-settings';
import { signInErrorMessage } from '@/lib/auth/sign-in-errors';
import { LoginForm } from '@/components/login-form';
import { safeReturnPath } from '@/lib/http/return-path';

export const metadata: Metadata = { title: 'Sign in' };

export default async function LoginPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const returnTo = safeReturnPath(params.callbackUrl);
  if (await currentUser()) redirect(returnTo);
  const oidc = oidcSettings();
  const error = signInErrorMessage(typeof params.error === 'string' ? params.error : undefined, oidc?.name ?? 'The sign-in provider');
  return (
    <div className="mx-auto mt-16 max-w-sm rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
      <h1 className="mb-4 text-xl font-semibold">Sign in to SKB Studio</h1>
      <LoginForm returnTo={returnTo} providerName={oidc?.name ?? null} initialError={error} />
    </div>
  );
}
