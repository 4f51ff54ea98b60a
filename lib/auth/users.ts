import { z } from 'zod';
import type { PrismaClient } from '../db/generated/client';
import { audit } from '../audit';
import { badRequest, conflict, notFound, tooManyRequests, unauthorized } from '../errors';
import { dummyPasswordHash, hashPassword, verifyPassword } from './password';
import { newPasswordSchema } from './password-policy';
import { checkLoginThrottle, recordLoginAttempt, throttleMessage } from './login-throttle';
import { Role, ROLES } from './roles';

// The longest address SMTP can carry; also keeps a megabyte of "email" out of the parser and the database.
export const MAX_EMAIL_LENGTH = 254;

export const emailSchema = z
  .string()
  .trim()
  .max(MAX_EMAIL_LENGTH, { message: `must be at most ${MAX_EMAIL_LENGTH} characters`, abort: true })
  .toLowerCase()
  .pipe(z.email({ message: 'not a valid email address' }));

export const newUserSchema = z.object({
  email: emailSchema,
  password: newPasswordSchema,
  role: z.enum(ROLES),
  name: z.string().trim().max(200).optional(),
});
export type NewUser = z.input<typeof newUserSchema>;

export interface PublicUser {
  id: number;
  email: string;
  name: string | null;
  role: Role;
  disabled: boolean;
  createdAt: Date;
}

const publicFields = { id: true, email: true, name: true, role: true, disabled: true, createdAt: true } as const;

export async function createUser(db: PrismaClient, input: NewUser, actorId: number | null = null): Promise<PublicUser> {
  const parsed = newUserSchema.safeParse(input);
  if (!parsed.success) throw badRequest('Invalid user', z.flattenError(parsed.error).fieldErrors);
  const { email, password, role, name } = parsed.data;
  const passwordHash = await hashPassword(password);
  return db.$transaction(async (tx) => {
    if (await tx.user.findUnique({ where: { email }, select: { id: true } })) {
      throw conflict(`A user with email ${email} already exists`);
    }
    const user = await tx.user.create({ data: { email, passwordHash, role, name: name || null }, select: publicFields });
    await audit(tx, { userId: actorId, action: 'user.create', targetType: 'user', targetId: user.id, details: { email, role } });
    return user;
  });
}

/**
 * Checks credentials under the sign-in rate limit. The same error for unknown email and wrong
 * password, so the answer does not reveal who has an account.
 */
export async function authenticate(db: PrismaClient, rawEmail: string, password: string, ip: string): Promise<PublicUser & { sessionVersion: number }> {
  const email = emailSchema.safeParse(rawEmail);
  if (!email.success || !password) throw unauthorized('Wrong email or password');
  const verdict = await checkLoginThrottle(db, email.data, ip);
  if (!verdict.allowed) throw tooManyRequests(throttleMessage(verdict));
  const user = await db.user.findUnique({ where: { email: email.data }, select: { ...publicFields, passwordHash: true, sessionVersion: true } });
  const ok = await verifyPassword(password, user?.passwordHash ?? (await dummyPasswordHash()));
  const succeeded = ok && !!user && !user.disabled;
  await recordLoginAttempt(db, email.data, ip, succeeded);
  if (!succeeded || !user) throw unauthorized('Wrong email or password');
  const { passwordHash: _omit, ...rest } = user;
  return rest;
}

export async function listUsers(db: PrismaClient): Promise<PublicUser[]> {
  return db.user.findMany({ select: publicFields, orderBy: { email: 'asc' } });
}

/** Changes a role; the last active admin cannot be demoted, or nobody could manage users again. */
export async function setUserRole(db: PrismaClient, actorId: number, userId: number, role: Role): Promise<PublicUser> {
  return db.$transaction(async (tx) => {
    const user = await tx.user.findUnique({ where: { id: userId }, select: publicFields });
    if (!user) throw notFound(`No user with id ${userId}`);
    if (user.role === role) return user;
    if (user.role === Role.ADMIN) {
      const admins = await tx.user.count({ where: { role: Role.ADMIN, disabled: false } });
      if (admins <= 1) throw conflict('This is the last admin; make another user admin first');
    }
    const updated = await tx.user.update({ where: { id: userId }, data: { role }, select: publicFields });
    await audit(tx, { userId: actorId, action: 'user.role', targetType: 'user', targetId: userId, details: { from: user.role, to: role } });
    return updated;
  });
}

/** Finds a user by sign-in email (for the command line, which names users that way). */
export async function userIdByEmail(db: PrismaClient, rawEmail: string): Promise<number> {
  const email = emailSchema.safeParse(rawEmail);
  const user = email.success ? await db.user.findUnique({ where: { email: email.data }, select: { id: true } }) : null;
  if (!user) throw notFound(`No user with email ${rawEmail}`);
  return user.id;
}

/**
 * Disables (or enables again) an account. Disabling ends the user's sessions at once and refuses sign-in;
 * the last active admin cannot be disabled, or nobody could manage users again.
 */
export async function setUserDisabled(db: PrismaClient, actorId: number | null, userId: number, disabled: boolean): Promise<PublicUser> {
  return db.$transaction(async (tx) => {
    const user = await tx.user.findUnique({ where: { id: userId }, select: publicFields });
    if (!user) throw notFound(`No user with id ${userId}`);
    if (user.disabled === disabled) return user;
    if (disabled && user.role === Role.ADMIN) {
      const admins = await tx.user.count({ where: { role: Role.ADMIN, disabled: false } });
      if (admins <= 1) throw conflict('This is the last active admin; make another user admin first');
    }
    const updated = await tx.user.update({
      where: { id: userId },
      data: { disabled, ...(disabled ? { sessionVersion: { increment: 1 } } : {}) },
      select: publicFields,
    });
    await audit(tx, { userId: actorId, action: disabled ? 'user.disable' : 'user.enable', targetType: 'user', targetId: userId, details: { email: user.email } });
    return updated;
  });
}

/** Sets a new password chosen by an admin, under the password policy, and ends the user's sessions. */
export async function resetPassword(db: PrismaClient, actorId: number | null, userId: number, password: string): Promise<PublicUser> {
  const parsed = newPasswordSchema.safeParse(password);
  if (!parsed.success) throw badRequest(`Invalid password: ${parsed.error.issues[0]!.message}`, { password: parsed.error.issues.map((i) => i.message) });
  return updateEndingSessions(db, actorId, userId, 'user.password', { passwordHash: await hashPassword(parsed.data) });
}

/** Signs a user out everywhere: every session issued so far is refused from now on. */
export function endUserSessions(db: PrismaClient, actorId: number | null, userId: number): Promise<PublicUser> {
  return updateEndingSessions(db, actorId, userId, 'user.sessions.end', {});
}

/** Changes a user and bumps the session version (which every token carries), with an audit entry, in one transaction. */
function updateEndingSessions(db: PrismaClient, actorId: number | null, userId: number, action: string, data: { passwordHash?: string }): Promise<PublicUser> {
  return db.$transaction(async (tx) => {
    const user = await tx.user.findUnique({ where: { id: userId }, select: { email: true } });
    if (!user) throw notFound(`No user with id ${userId}`);
    const updated = await tx.user.update({ where: { id: userId }, data: { ...data, sessionVersion: { increment: 1 } }, select: publicFields });
    await audit(tx, { userId: actorId, action, targetType: 'user', targetId: userId, details: { email: user.email } });
    return updated;
  });
}

/** The live state of a signed-in user, read on every request so role changes and revocations apply at once. */
export async function findActiveUser(db: PrismaClient, id: number, sessionVersion: number): Promise<PublicUser | null> {
  const user = await db.user.findUnique({ where: { id }, select: { ...publicFields, sessionVersion: true } });
  if (!user || user.disabled || user.sessionVersion !== sessionVersion) return null;
  const { sessionVersion: _omit, ...rest } = user;
  return rest;
}
