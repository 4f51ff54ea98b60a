import crypto from 'node:crypto';
import type { NextAuthOptions } from 'next-auth';
import Credentials from 'next-auth/providers/credentials';
import { db } from '../db/client';
import { AppError } from '../errors';
import { clientAddress } from '../http/client-address';
import { safeRedirectUrl } from '../http/return-path';
import { OIDC_PROVIDER_ID, oidcProvider } from './oidc-provider';
import { oidcSettings } from './oidc-settings';
import { findOidcUser, signInWithOidc, type OidcRefusal } from './oidc-users';
import { isSessionClaims, revokeSession, SESSION_MAX_AGE_SECONDS } from './sessions';
import { authenticate } from './users';

const oidc = oidcSettings();

/** Where a refused OpenID Connect sign-in lands: the sign-in page, which says why (lib/auth/sign-in-errors.ts). */
const REFUSAL_CODES: Record<OidcRefusal, string> = { disabled: 'OidcDisabled', 'email-taken': 'OidcEmailTaken', 'no-email': 'OidcNoEmail' };

export const authOptions: NextAuthOptions = {
  session: { strategy: 'jwt', maxAge: SESSION_MAX_AGE_SECONDS },
  jwt: { maxAge: SESSION_MAX_AGE_SECONDS },
  // Errors (a provider that is down, a token that fails its checks) come back to the sign-in page, which says which.
  pages: { signIn: '/login', error: '/login' },
  secret: process.env.NEXTAUTH_SECRET,
  providers: [
    Credentials({
      name: 'Email and password',
      credentials: { email: { label: 'Email', type: 'email' }, password: { label: 'Password', type: 'password' } },
      async authorize(credentials, req) {
        try {
          const user = await authenticate(db(), credentials?.email ?? '', credentials?.password ?? '', clientAddress(req.headers));
          return { id: String(user.id), email: user.email, name: user.name, sessionVersion: user.sessionVersion };
        } catch (err) {
          // next-auth passes the message of a thrown error to the sign-in form as `error`.
          if (err instanceof AppError) throw new Error(err.message);
          throw err;
        }
      },
    }),
    ...(oidc ? [oidcProvider(oidc)] : []),
  ],
  callbacks: {
    async signIn({ account, profile }) {
      if (account?.provider !== OIDC_PROVIDER_ID || !oidc) return true;
      const result = await signInWithOidc(db(), oidc, profile);
      return result.ok || `/login?error=${REFUSAL_CODES[result.reason]}`;
    },
    async jwt({ token, user, account, profile }) {
      if (user) {
        // An OpenID Connect user is the app user its identity was linked to in the signIn callback above.
        const signedIn = account?.provider === OIDC_PROVIDER_ID ? await findOidcUser(db(), profile) : { id: Number(user.id), sessionVersion: user.sessionVersion };
        if (!signedIn) throw new Error('The identity signed in with has no active user');
        token.uid = signedIn.id;
        token.sv = signedIn.sessionVersion;
        token.sid = crypto.randomUUID();
        token.auth = Math.floor(Date.now() / 1000);
      }
      return token;
    },
    session({ session, token }) {
      session.uid = token.uid;
      session.sv = token.sv;
      session.sid = token.sid;
      session.auth = token.auth;
      return session;
    },
    redirect({ url, baseUrl }) {
      return safeRedirectUrl(url, baseUrl);
    },
  },
  events: {
    // Signing out ends the session on the server too: a copy of the cookie is refused from now on.
    async signOut({ token }) {
      if (token && isSessionClaims(token)) await revokeSession(db(), token);
    },
  },
};
