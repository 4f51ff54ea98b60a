import { getServerSession } from 'next-auth';
import { db } from '../db/client';
import { authOptions } from './options';
import { findSessionUser, isSessionClaims } from './sessions';
import type { PublicUser } from './users';

export type SessionUser = PublicUser;

/** The signed-in user, checked against the database (a disabled user or an ended session is nobody). */
export async function currentUser(): Promise<SessionUser | null> {
  const session = await getServerSession(authOptions);
  // Tokens from before sessions carried an id cannot be signed out one by one, so they count as signed out.
  if (!session || !isSessionClaims(session)) return null;
  return findSessionUser(db(), session);
}
