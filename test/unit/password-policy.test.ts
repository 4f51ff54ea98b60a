import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MAX_PASSWORD_LENGTH, newPasswordSchema } from '../../lib/auth/password-policy';

const problem = (password: string) => {
  const parsed = newPasswordSchema.safeParse(password);
  return parsed.success ? null : parsed.error.issues.map((i) => i.message);
};

describe('password policy', () => {
  it('refuses common and trivial passwords, even long enough ones', () => {
    for (const password of ['password123', 'Passw0rd!', 'qwertyuiop', '12345678', 'iloveyou1', 'aaaaaaaaaaaa', 'abcdefgh1234', 'root password']) {
      expect(problem(password), password).toEqual([expect.stringMatching(/too common or too easy to guess/)]);
    }
  });

  it('accepts passphrases, the demo passwords and generated ones', () => {
    const generated = crypto.randomBytes(9).toString('base64url'); // what the demo creates
    for (const password of ['e2e-demo-Passw0rd!', 'correct horse battery', 'a strong password', generated]) {
      expect(problem(password), password).toBeNull();
    }
  });

  it('bounds the length, with one message each', () => {
    expect(problem('short')).toEqual(['must be at least 8 characters']);
    expect(problem('x'.repeat(MAX_PASSWORD_LENGTH + 1))).toEqual([`must be at most ${MAX_PASSWORD_LENGTH} characters`]);
    expect(problem(crypto.randomBytes(MAX_PASSWORD_LENGTH).toString('base64url').slice(0, MAX_PASSWORD_LENGTH))).toBeNull();
  });
});
