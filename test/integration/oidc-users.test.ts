import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseOidcSettings, type OidcSettings } from '../../lib/auth/oidc-settings';
import { findOidcUser, mappedRole, signInWithOidc, type OidcSignIn } from '../../lib/auth/oidc-users';
import { Role } from '../../lib/auth/roles';
import { findSessionUser } from '../../lib/auth/sessions';
import { authenticate, createUser, setUserDisabled, setUserRole } from '../../lib/auth/users';
import { db, openAppDatabase } from '../support/app-database';
import type { TestDatabase } from '../support/test-database';

const ISSUER = 'https://id.example.org';
const base = { OIDC_ISSUER: ISSUER, OIDC_CLIENT_ID: 'skb', OIDC_CLIENT_SECRET: 'secret' };
const mapped = parseOidcSettings({
  ...base,
  OIDC_ROLE_CLAIM: 'groups',
  OIDC_ROLE_MAP: 'skb-admins:admin,skb-curators:curator,skb-annotators:annotator',
  OIDC_DEFAULT_ROLE: 'rater',
})!;
const unmapped = parseOidcSettings({ ...base, OIDC_DEFAULT_ROLE: 'annotator' })!;
const linking = parseOidcSettings({ ...base, OIDC_LINK_EXISTING: 'verified-email' })!;

function claims(sub: string, extra: Record<string, unknown> = {}) {
  return { iss: ISSUER, sub, email: `${sub}@example.org`, email_verified: true, name: sub, ...extra };
}

async function signedIn(settings: OidcSettings, raw: unknown) {
  const result: OidcSignIn = await signInWithOidc(db(), settings, raw);
  if (!result.ok) throw new Error(`refused: ${result.reason}`);
  return result.user;
}

/** Everything a refused sign-in could have written. */
async function counts() {
  const [users, identities, audits] = await Promise.all([db().user.count(), db().userIdentity.count(), db().auditLog.count()]);
  return { users, identities, audits };
}

describe('OpenID Connect users', () => {
  let testDb: TestDatabase;
  beforeAll(async () => {
    testDb = await openAppDatabase();
    // Someone must stay admin, as on any real installation.
    await createUser(db(), { email: 'root@example.org', password: 'root-Sign-in-42', role: Role.ADMIN });
  });
  afterAll(async () => {
    await testDb.drop();
  });

  it('maps the most capable role of a list, a nested claim, and the default when nothing maps', () => {
    expect(mappedRole(mapped, claims('a', { groups: ['staff', 'skb-annotators', 'skb-curators'] }))).toBe(Role.CURATOR);
    expect(mappedRole(mapped, claims('a', { groups: 'skb-admins' }))).toBe(Role.ADMIN);
    expect(mappedRole(mapped, claims('a', { groups: ['staff'] }))).toBe(Role.RATER);
    expect(mappedRole(mapped, claims('a'))).toBe(Role.RATER);
    const nested = parseOidcSettings({ ...base, OIDC_ROLE_CLAIM: 'realm_access.roles', OIDC_ROLE_MAP: 'skb-curators:curator' })!;
    expect(mappedRole(nested, claims('a', { realm_access: { roles: ['skb-curators'] } }))).toBe(Role.CURATOR);
    expect(mappedRole(unmapped, claims('a', { groups: ['skb-admins'] }))).toBeNull();
  });

  it('creates a user with the mapped role, no password and an audit entry on the first sign-in', async () => {
    const user = await signedIn(mapped, claims('ada', { email: 'Ada@Example.org', name: 'Ada L.', groups: ['skb-curators'] }));
    expect(user).toMatchObject({ email: 'ada@example.org', name: 'Ada L.', role: Role.CURATOR, disabled: false });
    const stored = await db().user.findUniqueOrThrow({ where: { id: user.id }, include: { identities: true } });
    expect(stored.passwordHash).toBeNull();
    expect(stored.identities).toMatchObject([{ issuer: ISSUER, subject: 'ada' }]);
    expect(await db().auditLog.count({ where: { action: 'user.create', targetId: String(user.id) } })).toBe(1);
    // No password signs in as an account that has none.
    await expect(authenticate(db(), 'ada@example.org', '', '10.9.0.1')).rejects.toMatchObject({ status: 401 });
    await expect(authenticate(db(), 'ada@example.org', 'anything at all', '10.9.0.1')).rejects.toMatchObject({ status: 401 });
    expect(await findOidcUser(db(), claims('ada'))).toEqual({ id: user.id, sessionVersion: 0 });
  });

  it('signs the same identity in as the same user and maps the role again each time', async () => {
    const first = await signedIn(mapped, claims('ben', { groups: ['skb-annotators'] }));
    expect(first.role).toBe(Role.ANNOTATOR);
    const promoted = await signedIn(mapped, claims('ben', { groups: ['skb-annotators', 'skb-admins'] }));
    expect(promoted).toMatchObject({ id: first.id, role: Role.ADMIN });
    const dropped = await signedIn(mapped, claims('ben', { groups: [] }));
    expect(dropped).toMatchObject({ id: first.id, role: Role.RATER });
    expect((await db().user.findUniqueOrThrow({ where: { id: first.id } })).role).toBe(Role.RATER);
    const changes = await db().auditLog.findMany({ where: { action: 'user.role', targetId: String(first.id) }, orderBy: { id: 'asc' } });
    expect(changes.map((c) => c.details)).toEqual([
      { from: Role.ANNOTATOR, to: Role.ADMIN, via: 'oidc' },
      { from: Role.ADMIN, to: Role.RATER, via: 'oidc' },
    ]);
    // A changed email at the provider does not make another user: the identity is the issuer and subject.
    expect((await signedIn(mapped, claims('ben', { email: 'ben.new@example.org' }))).id).toBe(first.id);
  });

  it('without a role claim gives new users the default role and leaves roles to the app afterwards', async () => {
    const user = await signedIn(unmapped, claims('cleo', { groups: ['skb-admins'] }));
    expect(user.role).toBe(Role.ANNOTATOR);
    await setUserRole(db(), user.id, user.id, Role.CURATOR);
    expect((await signedIn(unmapped, claims('cleo'))).role).toBe(Role.CURATOR);
  });

  it('never joins a local account by email unless linking is allowed and the provider verified the email', async () => {
    const local = await createUser(db(), { email: 'dora@example.org', password: 'dora-Sign-in-77', role: Role.CURATOR });
    const before = await counts();
    for (const [settings, verified] of [[mapped, true], [unmapped, true], [linking, false], [linking, 'true']] as const) {
      expect(await signInWithOidc(db(), settings, claims('mallory', { email: 'DORA@example.org', email_verified: verified }))).toEqual({ ok: false, reason: 'email-taken' });
    }
    expect(await counts()).toEqual(before);
    expect(await findOidcUser(db(), claims('mallory'))).toBeNull();

    const linked = await signedIn(linking, claims('dora-sso', { email: 'dora@example.org', email_verified: true }));
    expect(linked).toMatchObject({ id: local.id, role: Role.CURATOR });
    expect(await db().auditLog.count({ where: { action: 'user.link', targetId: String(local.id) } })).toBe(1);
    // The local password keeps working beside the provider.
    expect((await authenticate(db(), 'dora@example.org', 'dora-Sign-in-77', '10.9.0.2')).id).toBe(local.id);
    // Once linked, the identity signs in whatever the linking rule says now.
    expect((await signedIn(mapped, claims('dora-sso', { groups: ['skb-curators'] }))).id).toBe(local.id);
  });

  it('keeps the same subject at another issuer apart', async () => {
    const here = await signedIn(mapped, claims('eve'));
    const elsewhere = await signedIn(mapped, { ...claims('eve'), iss: 'https://other.example.net', email: 'eve@other.example.net' });
    expect(elsewhere.id).not.toBe(here.id);
  });

  it('keeps disabled users out, and their sessions stay ended', async () => {
    const user = await signedIn(mapped, claims('finn'));
    const session = { uid: user.id, sv: user.sessionVersion, sid: 'finn-session', auth: Math.floor(Date.now() / 1000) };
    expect(await findSessionUser(db(), session)).toMatchObject({ id: user.id });
    await setUserDisabled(db(), null, user.id, true);
    const before = await counts();
    expect(await signInWithOidc(db(), mapped, claims('finn'))).toEqual({ ok: false, reason: 'disabled' });
    expect(await findOidcUser(db(), claims('finn'))).toBeNull();
    expect(await findSessionUser(db(), session)).toBeNull();
    expect(await counts()).toEqual(before);

    const local = await createUser(db(), { email: 'gus@example.org', password: 'gus-Sign-in-55', role: Role.RATER });
    await setUserDisabled(db(), null, local.id, true);
    expect(await signInWithOidc(db(), linking, claims('gus-sso', { email: 'gus@example.org' }))).toEqual({ ok: false, reason: 'disabled' });
    expect(await db().userIdentity.count({ where: { userId: local.id } })).toBe(0);
  });

  it('refuses an identity without a usable email and writes nothing', async () => {
    const before = await counts();
    for (const email of [undefined, '', 'not-an-email', `${'x'.repeat(250)}@example.org`, 42]) {
      expect(await signInWithOidc(db(), mapped, claims('hal', { email }))).toEqual({ ok: false, reason: 'no-email' });
    }
    expect(await counts()).toEqual(before);
    await expect(signInWithOidc(db(), mapped, { iss: ISSUER, sub: '' })).rejects.toThrow();
  });

  it('does not demote the last active admin', async () => {
    const root = await db().user.findUniqueOrThrow({ where: { email: 'root@example.org' } });
    await db().user.updateMany({ where: { role: Role.ADMIN, id: { not: root.id } }, data: { role: Role.RATER } });
    await signedIn(linking, claims('root-sso', { email: 'root@example.org' }));
    expect((await signedIn(mapped, claims('root-sso', { groups: [] }))).role).toBe(Role.ADMIN);
    const other = await signedIn(mapped, claims('ivy', { groups: ['skb-admins'] }));
    expect(other.role).toBe(Role.ADMIN);
    expect((await signedIn(mapped, claims('root-sso', { groups: [] }))).role).toBe(Role.RATER);
  });

  it('makes one user when the same person signs in several times at once', async () => {
    const results = await Promise.all(Array.from({ length: 8 }, () => signedIn(mapped, claims('jo', { groups: ['skb-curators'] }))));
    expect(new Set(results.map((u) => u.id)).size).toBe(1);
    expect(await db().user.count({ where: { email: 'jo@example.org' } })).toBe(1);
    expect(await db().userIdentity.count({ where: { subject: 'jo' } })).toBe(1);
  });
});
