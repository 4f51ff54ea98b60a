import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticate, createUser, endUserSessions, findActiveUser, resetPassword, setUserDisabled, setUserRole, userIdByEmail } from '../../lib/auth/users';
import { findSessionUser, revokeSession, SESSION_MAX_AGE_SECONDS } from '../../lib/auth/sessions';
import { THROTTLE } from '../../lib/auth/login-throttle';
import { verifyPassword } from '../../lib/auth/password';
import { Role } from '../../lib/auth/roles';
import { AppError } from '../../lib/errors';
import { db, openAppDatabase } from '../support/app-database';
import type { TestDatabase } from '../support/test-database';

async function statusOf(promise: Promise<unknown>): Promise<number> {
  try {
    await promise;
    return 200;
  } catch (err) {
    if (err instanceof AppError) return err.status;
    throw err;
  }
}

describe('users and sign-in', () => {
  let testDb: TestDatabase;
  beforeAll(async () => {
    testDb = await openAppDatabase();
  });
  afterAll(async () => {
    await testDb.drop();
  });

  it('creates a user with a scrypt hash, a normalised email and an audit entry', async () => {
    const user = await createUser(db(), { email: '  Ada@Example.ORG ', password: 'correct horse', role: Role.CURATOR, name: 'Ada' });
    expect(user).toMatchObject({ email: 'ada@example.org', role: Role.CURATOR, name: 'Ada', disabled: false });
    const stored = await db().user.findUniqueOrThrow({ where: { id: user.id } });
    expect(stored.passwordHash).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(stored.passwordHash).not.toContain('correct horse');
    expect(await verifyPassword('correct horse', stored.passwordHash!)).toBe(true);
    const log = await db().auditLog.findMany({ where: { action: 'user.create', targetId: String(user.id) } });
    expect(log).toHaveLength(1);
  });

  it('rejects bad input and duplicates without writing anything', async () => {
    const before = await db().user.count();
    await expect(createUser(db(), { email: 'not-an-email', password: 'long enough', role: Role.RATER })).rejects.toMatchObject({
      status: 400,
      details: { email: ['not a valid email address'] },
    });
    await expect(createUser(db(), { email: 'short@example.org', password: 'short', role: Role.RATER })).rejects.toMatchObject({
      status: 400,
      details: { password: ['must be at least 8 characters'] },
    });
    await expect(createUser(db(), { email: 'ADA@example.org', password: 'another strong one', role: Role.RATER })).rejects.toMatchObject({ status: 409 });
    expect(await db().user.count()).toBe(before);
  });

  it('authenticates the right password only, with one answer for unknown email and wrong password', async () => {
    await createUser(db(), { email: 'bob@example.org', password: 'bob-Sign-in-9', role: Role.ANNOTATOR });
    const user = await authenticate(db(), 'BOB@example.org', 'bob-Sign-in-9', '10.0.0.1');
    expect(user.email).toBe('bob@example.org');
    await expect(authenticate(db(), 'bob@example.org', 'wrong password', '10.0.0.1')).rejects.toMatchObject({ status: 401, message: 'Wrong email or password' });
    await expect(authenticate(db(), 'nobody@example.org', 'bob-Sign-in-9', '10.0.0.1')).rejects.toMatchObject({ status: 401, message: 'Wrong email or password' });
    await expect(authenticate(db(), 'garbage', '', '10.0.0.1')).rejects.toMatchObject({ status: 401 });
  });

  it('limits failures per account and address: the right password from elsewhere still signs in', async () => {
    await createUser(db(), { email: 'carol@example.org', password: 'carol-Sign-in-9', role: Role.RATER });
    for (let i = 0; i < THROTTLE.perPair; i++) {
      expect(await statusOf(authenticate(db(), 'carol@example.org', `wrong ${i}`, '10.0.0.2'))).toBe(401);
    }
    await expect(authenticate(db(), 'carol@example.org', 'carol-Sign-in-9', '10.0.0.2')).rejects.toMatchObject({
      status: 429,
      message: expect.stringMatching(/Too many failed sign-ins\. Try again in 1[45] minutes\./),
    });
    // A stranger failing on purpose does not lock carol out: from her own address the right password works.
    expect(await statusOf(authenticate(db(), 'carol@example.org', 'carol-Sign-in-9', '10.0.0.3'))).toBe(200);
    // Nor is another account at the failing address affected.
    expect(await statusOf(authenticate(db(), 'bob@example.org', 'bob-Sign-in-9', '10.0.0.2'))).toBe(200);
  });

  it('refuses a 1 MB email as a 400 naming the field, and as a plain failure on sign-in', async () => {
    const huge = `${'x'.repeat(1_000_000)}@example.org`;
    await expect(createUser(db(), { email: huge, password: 'a strong password', role: Role.RATER })).rejects.toMatchObject({
      status: 400,
      details: { email: ['must be at most 254 characters'] },
    });
    expect(await statusOf(authenticate(db(), huge, 'a strong password', '10.0.0.6'))).toBe(401);
  });

  it('refuses common passwords and overlong ones when creating or resetting', async () => {
    await expect(createUser(db(), { email: 'weak@example.org', password: 'password123', role: Role.RATER })).rejects.toMatchObject({
      status: 400,
      details: { password: [expect.stringMatching(/too common/)] },
    });
    await expect(createUser(db(), { email: 'weak@example.org', password: 'x'.repeat(257), role: Role.RATER })).rejects.toMatchObject({ status: 400 });
    const bob = await userIdByEmail(db(), 'BOB@example.org');
    await expect(resetPassword(db(), null, bob, 'qwertyuiop')).rejects.toMatchObject({ status: 400, message: expect.stringMatching(/password/) });
  });

  it('limits failures per client address across emails', async () => {
    const ip = '10.9.9.9';
    for (let i = 0; i < THROTTLE.perIp; i++) {
      expect(await statusOf(authenticate(db(), `guess${i}@example.org`, 'nope nope', ip))).toBe(401);
    }
    expect(await statusOf(authenticate(db(), 'bob@example.org', 'bob-Sign-in-9', ip))).toBe(429);
    expect(await statusOf(authenticate(db(), 'bob@example.org', 'bob-Sign-in-9', '10.0.0.4'))).toBe(200);
  });

  it('refuses sign-in to a disabled user and ends sessions whose version was bumped', async () => {
    const dave = await createUser(db(), { email: 'dave@example.org', password: 'dave-Sign-in-9', role: Role.RATER });
    expect(await findActiveUser(db(), dave.id, 0)).toMatchObject({ email: 'dave@example.org' });
    await db().user.update({ where: { id: dave.id }, data: { sessionVersion: { increment: 1 } } });
    expect(await findActiveUser(db(), dave.id, 0)).toBeNull();
    expect(await findActiveUser(db(), dave.id, 1)).not.toBeNull();
    await db().user.update({ where: { id: dave.id }, data: { disabled: true } });
    expect(await findActiveUser(db(), dave.id, 1)).toBeNull();
    expect(await statusOf(authenticate(db(), 'dave@example.org', 'dave-Sign-in-9', '10.0.0.5'))).toBe(401);
  });

  it('disabling, a password reset and signing out everywhere end the sessions a user has', async () => {
    const frank = await createUser(db(), { email: 'frank@example.org', password: 'frank-Sign-in-9', role: Role.CURATOR });
    const signIn = async () => (await authenticate(db(), 'frank@example.org', 'frank-Sign-in-9', '10.0.1.1')).sessionVersion;

    let sv = await signIn();
    await endUserSessions(db(), null, frank.id);
    expect(await findActiveUser(db(), frank.id, sv)).toBeNull();

    sv = await signIn();
    await resetPassword(db(), null, frank.id, 'frank-New-pass-7');
    expect(await findActiveUser(db(), frank.id, sv)).toBeNull();
    expect(await statusOf(authenticate(db(), 'frank@example.org', 'frank-Sign-in-9', '10.0.1.1'))).toBe(401);
    sv = (await authenticate(db(), 'frank@example.org', 'frank-New-pass-7', '10.0.1.1')).sessionVersion;

    expect(await setUserDisabled(db(), null, frank.id, true)).toMatchObject({ disabled: true });
    expect(await findActiveUser(db(), frank.id, sv)).toBeNull();
    expect(await statusOf(authenticate(db(), 'frank@example.org', 'frank-New-pass-7', '10.0.1.1'))).toBe(401);
    await setUserDisabled(db(), null, frank.id, false);
    expect(await statusOf(authenticate(db(), 'frank@example.org', 'frank-New-pass-7', '10.0.1.1'))).toBe(200);

    const actions = (await db().auditLog.findMany({ where: { targetId: String(frank.id) }, orderBy: { id: 'asc' } })).map((a) => a.action);
    expect(actions).toEqual(['user.create', 'user.sessions.end', 'user.password', 'user.disable', 'user.enable']);
  });

  it('refuses a signed-out session, and any session older than the session lifetime', async () => {
    const gina = await createUser(db(), { email: 'gina@example.org', password: 'gina-Sign-in-9', role: Role.RATER });
    const now = Math.floor(Date.now() / 1000);
    const first = { uid: gina.id, sv: 0, sid: crypto.randomUUID(), auth: now };
    const second = { ...first, sid: crypto.randomUUID() };
    expect(await findSessionUser(db(), first)).toMatchObject({ email: 'gina@example.org' });
    await revokeSession(db(), first);
    expect(await findSessionUser(db(), first)).toBeNull();
    // Only that session ended: the same user signed in elsewhere stays signed in.
    expect(await findSessionUser(db(), second)).toMatchObject({ email: 'gina@example.org' });
    expect(await findSessionUser(db(), { ...second, auth: now - SESSION_MAX_AGE_SECONDS - 1 })).toBeNull();
    // Revoked ids are kept only while a token could still be used.
    await revokeSession(db(), { sid: crypto.randomUUID(), auth: now - SESSION_MAX_AGE_SECONDS - 60 });
    expect(await db().revokedSession.count({ where: { expiresAt: { lt: new Date() } } })).toBe(0);
  });

  it('changes roles with an audit entry and never demotes the last admin', async () => {
    const admin = await createUser(db(), { email: 'root@example.org', password: 'root-Sign-in-9', role: Role.ADMIN });
    const erin = await createUser(db(), { email: 'erin@example.org', password: 'erin-Sign-in-9', role: Role.RATER });
    expect(await setUserRole(db(), admin.id, erin.id, Role.ANNOTATOR)).toMatchObject({ role: Role.ANNOTATOR });
    const entry = await db().auditLog.findFirstOrThrow({ where: { action: 'user.role', targetId: String(erin.id) } });
    expect(entry).toMatchObject({ userId: admin.id, details: { from: 'RATER', to: 'ANNOTATOR' } });
    await expect(setUserRole(db(), admin.id, admin.id, Role.RATER)).rejects.toMatchObject({ status: 409 });
    await expect(setUserRole(db(), admin.id, 999_999, Role.RATER)).rejects.toMatchObject({ status: 404 });
    await setUserRole(db(), admin.id, erin.id, Role.ADMIN);
    expect(await setUserRole(db(), erin.id, admin.id, Role.CURATOR)).toMatchObject({ role: Role.CURATOR });
  });

  it('never disables the last active admin', async () => {
    const admins = await db().user.findMany({ where: { role: Role.ADMIN, disabled: false } });
    expect(admins).toHaveLength(1);
    await expect(setUserDisabled(db(), null, admins[0]!.id, true)).rejects.toMatchObject({ status: 409 });
    const other = await userIdByEmail(db(), 'root@example.org');
    await setUserRole(db(), admins[0]!.id, other, Role.ADMIN);
    expect(await setUserDisabled(db(), other, admins[0]!.id, true)).toMatchObject({ disabled: true });
    await expect(setUserDisabled(db(), null, other, true)).rejects.toMatchObject({ status: 409 });
  });
});
