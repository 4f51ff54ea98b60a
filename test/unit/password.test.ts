import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from '../../lib/auth/password';

describe('password hashing (scrypt)', () => {
  it('verifies the right password and rejects others', async () => {
    const hash = await hashPassword('correct horse battery');
    expect(await verifyPassword('correct horse battery', hash)).toBe(true);
    expect(await verifyPassword('correct horse batterY', hash)).toBe(false);
    expect(await verifyPassword('', hash)).toBe(false);
  });

  it('salts every hash and records its parameters', async () => {
    const [a, b] = await Promise.all([hashPassword('same'), hashPassword('same')]);
    expect(a).not.toBe(b);
    expect(a.split('$').slice(0, 4)).toEqual(['scrypt', '32768', '8', '1']);
  });

  it('rejects malformed or tampered hashes instead of throwing', async () => {
    const hash = await hashPassword('pw-123456');
    const parts = hash.split('$');
    const tampered = [...parts.slice(0, 5), Buffer.from('x'.repeat(32)).toString('base64')].join('$');
    expect(await verifyPassword('pw-123456', tampered)).toBe(false);
    expect(await verifyPassword('pw-123456', 'plain-text')).toBe(false);
    expect(await verifyPassword('pw-123456', `bcrypt$${parts.slice(1).join('$')}`)).toBe(false);
  });
});
