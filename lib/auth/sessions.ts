import type { PrismaClient } from '../db/generated/client';
import { findActiveUser, type PublicUser } from './users';

export const SESSION_MAX_AGE_SECONDS = Number(process.env.SKB_SESSION_HOURS ?? 12) * 3600;

/** What a session token says about its sign-in (set when signing in, carried unchanged while it is renewed). */
export interface SessionClaims {
  uid: number;
  sv: number;
  sid: string;
  auth: number;
}

export function isSessionClaims(value: Partial<Record<keyof SessionClaims, unknown>>): value is SessionClaims {
  return typeof value.uid === 'number' && typeof value.sv === 'number' && typeof value.sid === 'string' && typeof value.auth === 'number';
}

/** When a sign-in ends at the latest: next-auth renews the token on use, so its own expiry keeps moving. */
export function sessionEnd(claims: Pick<SessionClaims, 'auth'>): Date {
  return new Date((claims.auth + SESSION_MAX_AGE_SECONDS) * 1000);
}

/**
 * The user of a session, or null when it is over: older than the session lifetime, signed out, or of a user
 * who is disabled or whose sessions were all ended (the session version moved on).
 */
export async function findSessionUser(db: PrismaClient, claims: SessionClaims, now = new Date()): Promise<PublicUser | null> {
  if (sessionEnd(claims) <= now) return null;
  const [user, revoked] = await Promise.all([
    findActiveUser(db, claims.uid, claims.sv),
    db.revokedSession.findUnique({ where: { sid: claims.sid }, select: { sid: true } }),
  ]);
  return revoked ? null : user;
}

/** Ends one session (signing out): its id is refused until the sign-in would have expired; expired ids are pruned. */
export async function revokeSession(db: PrismaClient, claims: Pick<SessionClaims, 'sid' | 'auth'>): Promise<void> {
  await db.revokedSession.createMany({ data: [{ sid: claims.sid, expiresAt: sessionEnd(claims) }], skipDuplicates: true });
  await db.revokedSession.deleteMany({ where: { expiresAt: { lt: new Date() } } });
}
