'use client';

import { signIn } from 'next-auth/react';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { OIDC_PROVIDER_ID } from '@/lib/auth/oidc-provider';

/**
 * Email and password, and, when OpenID Connect is configured, a button that signs in at the organisation's
 * provider. next-auth's client posts and then navigates to the provider, so the page's `form-action 'self'`
 * policy does not stand in the way.
 */
export function LoginForm({ returnTo, providerName, initialError }: { returnTo: string; providerName: string | null; initialError: string | null }) {
  const router = useRouter();
  // Why the last sign-in at the provider came back without signing in; the form's own error sits in the form.
  const [providerError, setProviderError] = useState<string | null>(initialError);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  function signInWithProvider() {
    setPending(true);
    setProviderError(null);
    void signIn(OIDC_PROVIDER_ID, { callbackUrl: returnTo });
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setPending(true);
    setProviderError(null);
    setError(null);
    const result = await signIn('credentials', {
      email: String(form.get('email') ?? ''),
      password: String(form.get('password') ?? ''),
      redirect: false,
    });
    setPending(false);
    if (!result || result.error) {
      setError(result?.error === 'CredentialsSignin' || !result?.error ? 'Wrong email or password' : result.error);
      return;
    }
    router.replace(returnTo);
    router.refresh();
  }

  return (
    <>
      {providerError && <p role="alert" className="mb-4 rounded bg-red-50 px-3 py-2 text-sm text-red-700">{providerError}</p>}
      {providerName && (
        <>
          <button type="button" onClick={signInWithProvider} disabled={pending}
            className="w-full rounded border border-slate-300 bg-white px-3 py-2 font-medium text-slate-800 hover:bg-slate-50 disabled:opacity-60">
            Sign in with {providerName}
          </button>
          <p className="my-4 text-center text-sm text-slate-500">or with email and password</p>
        </>
      )}
      <form onSubmit={onSubmit} className="space-y-4" noValidate>
        <label className="block text-sm">
          <span className="mb-1 block font-medium text-slate-700">Email</span>
          <input name="email" type="email" autoComplete="username" required
            className="w-full rounded border border-slate-300 px-3 py-2 focus:border-blue-500 focus:outline-none" />
        </label>
        <label className="block text-sm">
          <span className="mb-1 block font-medium text-slate-700">Password</span>
          <input name="password" type="password" autoComplete="current-password" required
            className="w-full rounded border border-slate-300 px-3 py-2 focus:border-blue-500 focus:outline-none" />
        </label>
        {error && <p role="alert" className="rounded bg-red-50 px-3 py-2 text-sm text-red-700">{error}</p>}
        <button type="submit" disabled={pending}
          className="w-full rounded bg-blue-600 px-3 py-2 font-medium text-white hover:bg-blue-700 disabled:opacity-60">
          {pending ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </>
  );
}
