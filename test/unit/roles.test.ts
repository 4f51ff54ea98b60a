import { describe, expect, it } from 'vitest';
import { can, parseRole, Role } from '../../lib/auth/roles';

describe('roles', () => {
  it('gives user management to admins only', () => {
    expect(can(Role.ADMIN, 'users:manage')).toBe(true);
    for (const r of [Role.CURATOR, Role.ANNOTATOR, Role.RATER]) expect(can(r, 'users:manage')).toBe(false);
  });

  it('lets curators and admins manage knowledge bases, everyone browse', () => {
    expect([Role.ADMIN, Role.CURATOR, Role.ANNOTATOR, Role.RATER].map((r) => can(r, 'kb:manage'))).toEqual([true, true, false, false]);
    expect([Role.ADMIN, Role.CURATOR, Role.ANNOTATOR, Role.RATER].every((r) => can(r, 'kb:browse'))).toBe(true);
  });

  it('parses role names in any case and rejects unknown ones', () => {
    expect(parseRole(' Curator ')).toBe(Role.CURATOR);
    expect(parseRole('rater')).toBe(Role.RATER);
    expect(() => parseRole('owner')).toThrow('Unknown role "owner"; expected one of admin, curator, annotator, rater');
  });
});
