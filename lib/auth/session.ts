import { getServerSession } from 'next-auth';
import { db } from '../db/client';
import { authOptions } from './options';
import { findActiveUser, type PublicUser } from './users';

export type SessionUser = PublicUser;

/** The signed-in user, checked against the database (a disabled user or revoked session is nobody). */
export async function currentUser(): Promise<SessionUser | null> {
  const session = await getServerSession(authOptions);
  if (!session || typeof session.uid !== 'number') return null;
  return findActiveUser(db(), session.uid, session.sv);
}
