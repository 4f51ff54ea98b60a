import type { PrismaClient } from '../db/generated/client';

/**
 * Sign-in rate limit, kept in the database so it holds across app processes and restarts: at most 5 failures
 * per account from one client address, and 30 per address over all accounts, in a 15-minute window. There is
 * no limit per account alone: it would let anyone lock anyone out by failing on purpose. Guessing one account's
 * password from many addresses is held back by the password policy and the cost of scrypt instead.
 */
export const THROTTLE = { windowMs: 15 * 60_000, perPair: 5, perIp: 30 } as const;

export interface ThrottleVerdict {
  allowed: boolean;
  retryAfterSeconds: number;
}

export async function checkLoginThrottle(db: PrismaClient, email: string, ip: string, now = new Date()): Promise<ThrottleVerdict> {
  const since = new Date(now.getTime() - THROTTLE.windowMs);
  // Signing in from this address wipes the slate of this account here, so typos before a success do not add up.
  const lastSuccess = await db.loginAttempt.findFirst({
    where: { email, ip, succeeded: true, at: { gte: since } },
    orderBy: { at: 'desc' },
    select: { at: true },
  });
  const pairFailures = await db.loginAttempt.findMany({
    where: { email, ip, succeeded: false, at: { gte: lastSuccess?.at ?? since } },
    orderBy: { at: 'asc' },
    select: { at: true },
  });
  const ipFailures = await db.loginAttempt.findMany({
    where: { ip, succeeded: false, at: { gte: since } },
    orderBy: { at: 'asc' },
    select: { at: true },
  });
  const blockedBy = [
    pairFailures.length >= THROTTLE.perPair ? pairFailures[pairFailures.length - THROTTLE.perPair] : undefined,
    ipFailures.length >= THROTTLE.perIp ? ipFailures[ipFailures.length - THROTTLE.perIp] : undefined,
  ].filter((a): a is { at: Date } => a !== undefined);
  if (blockedBy.length === 0) return { allowed: true, retryAfterSeconds: 0 };
  // The window frees up when the oldest failure that counts towards the limit leaves it.
  const freeAt = Math.max(...blockedBy.map((a) => a.at.getTime() + THROTTLE.windowMs));
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((freeAt - now.getTime()) / 1000)) };
}

/** The refusal people see, in whole minutes. */
export function throttleMessage(verdict: ThrottleVerdict): string {
  const minutes = Math.ceil(verdict.retryAfterSeconds / 60);
  return `Too many failed sign-ins. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
}

export async function recordLoginAttempt(db: PrismaClient, email: string, ip: string, succeeded: boolean): Promise<void> {
  await db.loginAttempt.create({ data: { email, ip, succeeded } });
  // Old attempts no longer count for anything; prune now and then rather than on every sign-in.
  if (Math.random() < 0.02) {
    await db.loginAttempt.deleteMany({ where: { at: { lt: new Date(Date.now() - 24 * 3600_000) } } });
  }
}
