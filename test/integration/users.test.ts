import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticate, createUser, findActiveUser, setUserRole } from '../../lib/auth/users';
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
    expect(await verifyPassword('correct horse', stored.passwordHash)).toBe(true);
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
    await expect(createUser(db(), { email: 'ADA@example.org', password: 'another one', role: Role.RATER })).rejects.toMatchObject({ status: 409 });
    expect(await db().user.count()).toBe(before);
  });

  it('authenticates the right password only, with one answer for unknown email and wrong password', async () => {
    await createUser(db(), { email: 'bob@example.org', password: 'bob password', role: Role.ANNOTATOR });
    const user = await authenticate(db(), 'BOB@example.org', 'bob password', '10.0.0.1');
    expect(user.email).toBe('bob@example.org');
    await expect(authenticate(db(), 'bob@example.org', 'wrong password', '10.0.0.1')).rejects.toMatchObject({ status: 401, message: 'Wrong email or password' });
    await expect(authenticate(db(), 'nobody@example.org', 'bob password', '10.0.0.1')).rejects.toMatchObject({ status: 401, message: 'Wrong email or password' });
    await expect(authenticate(db(), 'garbage', '', '10.0.0.1')).rejects.toMatchObject({ status: 401 });
  });

  it('locks an email after repeated failures, even for the right password, and says when to retry', async () => {
    await createUser(db(), { email: 'carol@example.org', password: 'carol password', role: Role.RATER });
    for (let i = 0; i < THROTTLE.perEmail; i++) {
      expect(await statusOf(authenticate(db(), 'carol@example.org', `wrong ${i}`, '10.0.0.2'))).toBe(401);
    }
    await expect(authenticate(db(), 'carol@example.org', 'carol password', '10.0.0.3')).rejects.toMatchObject({
      status: 429,
      message: expect.stringMatching(/Too many failed sign-ins\. Try again in 1[45] minutes\./),
    });
    // Another account is not affected by carol's lock.
    expect(await statusOf(authenticate(db(), 'bob@example.org', 'bob password', '10.0.0.3'))).toBe(200);
  });

  it('limits failures per client address across emails', async () => {
    const ip = '10.9.9.9';
    for (let i = 0; i < THROTTLE.perIp; i++) {
      expect(await statusOf(authenticate(db(), `guess${i}@example.org`, 'nope nope', ip))).toBe(401);
    }
    expect(await statusOf(authenticate(db(), 'bob@example.org', 'bob password', ip))).toBe(429);
    expect(await statusOf(authenticate(db(), 'bob@example.org', 'bob password', '10.0.0.4'))).toBe(200);
  });

  it('refuses sign-in to a disabled user and ends sessions whose version was bumped', async () => {
    const dave = await createUser(db(), { email: 'dave@example.org', password: 'dave password', role: Role.RATER });
    expect(await findActiveUser(db(), dave.id, 0)).toMatchObject({ email: 'dave@example.org' });
    await db().user.update({ where: { id: dave.id }, data: { sessionVersion: { increment: 1 } } });
    expect(await findActiveUser(db(), dave.id, 0)).toBeNull();
    expect(await findActiveUser(db(), dave.id, 1)).not.toBeNull();
    await db().user.update({ where: { id: dave.id }, data: { disabled: true } });
    expect(await findActiveUser(db(), dave.id, 1)).toBeNull();
    expect(await statusOf(authenticate(db(), 'dave@example.org', 'dave password', '10.0.0.5'))).toBe(401);
  });

  it('changes roles with an audit entry and never demotes the last admin', async () => {
    const admin = await createUser(db(), { email: 'root@example.org', password: 'root password', role: Role.ADMIN });
    const erin = await createUser(db(), { email: 'erin@example.org', password: 'erin password', role: Role.RATER });
    expect(await setUserRole(db(), admin.id, erin.id, Role.ANNOTATOR)).toMatchObject({ role: Role.ANNOTATOR });
    const entry = await db().auditLog.findFirstOrThrow({ where: { action: 'user.role', targetId: String(erin.id) } });
    expect(entry).toMatchObject({ userId: admin.id, details: { from: 'RATER', to: 'ANNOTATOR' } });
    await expect(setUserRole(db(), admin.id, admin.id, Role.RATER)).rejects.toMatchObject({ status: 409 });
    await expect(setUserRole(db(), admin.id, 999_999, Role.RATER)).rejects.toMatchObject({ status: 404 });
    await setUserRole(db(), admin.id, erin.id, Role.ADMIN);
    expect(await setUserRole(db(), erin.id, admin.id, Role.CURATOR)).toMatchObject({ role: Role.CURATOR });
  });
});
