import type { NextAuthOptions } from 'next-auth';
import Credentials from 'next-auth/providers/credentials';
import { db } from '../db/client';
import { AppError } from '../errors';
import { authenticate } from './users';

export const SESSION_MAX_AGE_SECONDS = Number(process.env.SKB_SESSION_HOURS ?? 12) * 3600;

function clientIp(headers: Record<string, unknown> | undefined): string {
  const forwarded = headers?.['x-forwarded-for'];
  const first = typeof forwarded === 'string' ? forwarded.split(',')[0]?.trim() : undefined;
  return first || 'unknown';
}

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
          const user = await authenticate(db(), credentials?.email ?? '', credentials?.password ?? '', clientIp(req.headers));
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
      }
      return token;
    },
    session({ session, token }) {
      session.uid = token.uid;
      session.sv = token.sv;
      return session;
    },
  },
};
