import crypto from 'node:crypto';
import type { NextAuthOptions } from 'next-auth';
import Credentials from 'next-auth/providers/credentials';
import { db } from '../db/client';
import { AppError } from '../errors';
import { clientAddress } from '../http/client-address';
import { safeRedirectUrl } from '../http/return-path';
import { isSessionClaims, revokeSession, SESSION_MAX_AGE_SECONDS } from './sessions';
import { authenticate } from './users';

export const authOptions: NextAuthOptions = {
  session: { strategy: 'jwt', maxAge: SESSION_MAX_AGE_SECONDS },
  jwt: { maxAge: SESSION_MAX_AGE_SECONDS },
  pages: { signIn: '/login' },
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
  ],
  callbacks: {
    jwt({ token, user }) {
      if (user) {
        token.uid = Number(user.id);
        token.sv = user.sessionVersion;
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
