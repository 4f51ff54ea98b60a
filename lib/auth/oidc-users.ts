import { z } from 'zod';
import type { Prisma, PrismaClient } from '../db/generated/client';
import { audit } from '../audit';
import type { OidcSettings } from './oidc-settings';
import { Role, ROLES } from './roles';
import { emailSchema, type PublicUser } from './users';

/**
 * Who an OpenID Connect sign-in is, and which user it signs in as. The provider's identity is its issuer and
 * subject; a user is found by those alone, never by email, so a provider (or a person who can set any email
 * at it) cannot sign in as a local account by claiming its address. The rule for a first sign-in:
 *
 * - no user has the email: a new user is made with the mapped (or default) role and no password;
 * - a user has it: refused, unless OIDC_LINK_EXISTING=verified-email and the provider says the email is
 *   verified (`email_verified: true`), when the identity is joined to that user.
 *
 * Disabled users stay out. With a role claim configured the role is mapped again at every sign-in.
 */
export const oidcClaimsSchema = z.looseObject({
  iss: z.string().min(1).max(2000),
  sub: z.string().min(1).max(255),
});
export type OidcClaims = z.infer<typeof oidcClaimsSchema>;

export type OidcRefusal = 'disabled' | 'email-taken' | 'no-email';
export type OidcSignIn = { ok: true; user: PublicUser & { sessionVersion: number } } | { ok: false; reason: OidcRefusal };

const userFields = { id: true, email: true, name: true, role: true, disabled: true, createdAt: true, sessionVersion: true } as const;
type Tx = Prisma.TransactionClient;

/** A claim by its name, or by a dotted path into nested claims (`realm_access.roles`) when no claim has the whole name. */
function claimAt(claims: OidcClaims, name: string): unknown {
  if (name in claims) return claims[name];
  return name.split('.').reduce<unknown>((at, key) => (at && typeof at === 'object' ? (at as Record<string, unknown>)[key] : undefined), claims);
}

/**
 * The role the claim maps to (the most capable when several values map), the default role when none does, or
 * null when no role claim is configured (the role is then managed in the app).
 */
export function mappedRole(settings: OidcSettings, claims: OidcClaims): Role | null {
  if (!settings.roleClaim) return null;
  const value = claimAt(claims, settings.roleClaim);
  const values = (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === 'string');
  const roles = new Set(values.map((v) => settings.roleMap.get(v)));
  return ROLES.find((role) => roles.has(role)) ?? settings.defaultRole;
}

function nameOf(claims: OidcClaims): string | null {
  const name = [claims.name, claims.preferred_username].find((v): v is string => typeof v === 'string' && v.trim() !== '');
  return name ? name.trim().slice(0, 200) : null;
}

/** Signs an identity in, linking or creating its user as the rule above says, all in one transaction. */
export async function signInWithOidc(db: PrismaClient, settings: OidcSettings, rawClaims: unknown): Promise<OidcSignIn> {
  const claims = oidcClaimsSchema.parse(rawClaims);
  const attempt = () => db.$transaction((tx) => signInTx(tx, settings, claims));
  try {
    return await attempt();
  } catch (err) {
    // Two first sign-ins with one email by different identities at once: the loser finds the user the winner made.
    if ((err as { code?: string }).code === 'P2002') return attempt();
    throw err;
  }
}

async function signInTx(tx: Tx, settings: OidcSettings, claims: OidcClaims): Promise<OidcSignIn> {
  const key = { issuer: claims.iss, subject: claims.sub };
  const role = mappedRole(settings, claims);
  // One sign-in of an identity at a time: without it a second one could read "no identity" just before the first
  // committed and then "email taken" just after, refusing a person who is signing in twice at once.
  await tx.$queryRaw`SELECT 1 FROM (SELECT pg_advisory_xact_lock(hashtext(${`oidc_identity:${claims.iss}\n${claims.sub}`}))) AS locked`;
  const identity = await tx.userIdentity.findUnique({ where: { issuer_subject: key }, select: { user: { select: userFields } } });
  if (identity) {
    if (identity.user.disabled) return { ok: false, reason: 'disabled' };
    await tx.userIdentity.update({ where: { issuer_subject: key }, data: { lastSignInAt: new Date() } });
    return { ok: true, user: await applyRole(tx, identity.user, role) };
  }

  const email = emailSchema.safeParse(claims.email);
  if (!email.success) return { ok: false, reason: 'no-email' };
  const existing = await tx.user.findUnique({ where: { email: email.data }, select: userFields });
  if (existing) {
    if (settings.linkExisting !== 'verified-email' || claims.email_verified !== true) return { ok: false, reason: 'email-taken' };
    if (existing.disabled) return { ok: false, reason: 'disabled' };
    await tx.userIdentity.create({ data: { ...key, userId: existing.id } });
    await audit(tx, { userId: null, action: 'user.link', targetType: 'user', targetId: existing.id, details: { email: existing.email, ...key } });
    return { ok: true, user: await applyRole(tx, existing, role) };
  }

  const user = await tx.user.create({
    data: { email: email.data, name: nameOf(claims), role: role ?? settings.defaultRole, passwordHash: null },
    select: userFields,
  });
  await tx.userIdentity.create({ data: { ...key, userId: user.id } });
  await audit(tx, { userId: null, action: 'user.create', targetType: 'user', targetId: user.id, details: { email: user.email, role: user.role, ...key } });
  return { ok: true, user };
}

/** Sets the mapped role; the last active admin keeps theirs, as in the app, or nobody could manage users again. */
async function applyRole<U extends PublicUser>(tx: Tx, user: U, role: Role | null): Promise<U> {
  if (!role || role === user.role) return user;
  if (user.role === Role.ADMIN && (await tx.user.count({ where: { role: Role.ADMIN, disabled: false } })) <= 1) return user;
  await tx.user.update({ where: { id: user.id }, data: { role } });
  await audit(tx, { userId: null, action: 'user.role', targetType: 'user', targetId: user.id, details: { from: user.role, to: role, via: 'oidc' } });
  return { ...user, role };
}

/** The user an identity signs in as (for the session token), or null if it has none or is disabled. */
export async function findOidcUser(db: PrismaClient, rawClaims: unknown): Promise<{ id: number; sessionVersion: number } | null> {
  const claims = oidcClaimsSchema.safeParse(rawClaims);
  if (!claims.success) return null;
  const identity = await db.userIdentity.findUnique({
    where: { issuer_subject: { issuer: claims.data.iss, subject: claims.data.sub } },
    select: { user: { select: { id: true, sessionVersion: true, disabled: true } } },
  });
  if (!identity || identity.user.disabled) return null;
  return { id: identity.user.id, sessionVersion: identity.user.sessionVersion };
}
