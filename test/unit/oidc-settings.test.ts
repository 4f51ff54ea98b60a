import { describe, expect, it } from 'vitest';
import { parseOidcSettings } from '../../lib/auth/oidc-settings';
import { Role } from '../../lib/auth/roles';

const base = { OIDC_ISSUER: 'https://id.example.org/realms/lab/', OIDC_CLIENT_ID: 'skb', OIDC_CLIENT_SECRET: 's3cret' };

describe('OpenID Connect settings', () => {
  it('is off without any OIDC_ variable, empty ones included', () => {
    expect(parseOidcSettings({})).toBeNull();
    expect(parseOidcSettings({ OIDC_ISSUER: '', OIDC_NAME: '  ', PATH: '/bin' })).toBeNull();
  });

  it('reads the issuer, client, role map and defaults', () => {
    const settings = parseOidcSettings({
      ...base,
      OIDC_NAME: 'Example Lab',
      OIDC_ROLE_CLAIM: 'groups',
      OIDC_ROLE_MAP: 'skb-admins:admin, skb-curators:Curator,urn:example:raters:rater',
    })!;
    expect(settings).toMatchObject({
      issuer: 'https://id.example.org/realms/lab',
      clientId: 'skb',
      clientSecret: 's3cret',
      name: 'Example Lab',
      scopes: 'openid email profile',
      roleClaim: 'groups',
      defaultRole: Role.RATER,
      linkExisting: 'never',
    });
    // A value may hold colons (URNs): the role is after the last one.
    expect([...settings.roleMap]).toEqual([['skb-admins', Role.ADMIN], ['skb-curators', Role.CURATOR], ['urn:example:raters', Role.RATER]]);
  });

  it.each([
    [{ OIDC_CLIENT_ID: 'skb' }, 'OIDC_ISSUER is required when OIDC_CLIENT_ID is set'],
    [{ ...base, OIDC_ISSUER: 'id.example.org' }, 'OIDC_ISSUER must be'],
    [{ ...base, OIDC_ISSUER: 'ftp://id.example.org' }, 'OIDC_ISSUER must be'],
    [{ OIDC_ISSUER: base.OIDC_ISSUER, OIDC_CLIENT_SECRET: 'x' }, 'OIDC_CLIENT_ID is required with OIDC_ISSUER'],
    [{ OIDC_ISSUER: base.OIDC_ISSUER, OIDC_CLIENT_ID: 'x' }, 'OIDC_CLIENT_SECRET is required with OIDC_ISSUER'],
    [{ ...base, OIDC_DEFAULT_ROLE: 'owner' }, 'OIDC_DEFAULT_ROLE must be one of admin, curator, annotator, rater'],
    [{ ...base, OIDC_ROLE_CLAIM: 'groups', OIDC_ROLE_MAP: 'skb-admins=admin' }, 'OIDC_ROLE_MAP entry "skb-admins=admin" is not value:role'],
    [{ ...base, OIDC_ROLE_CLAIM: 'groups', OIDC_ROLE_MAP: 'skb-admins:owner' }, 'OIDC_ROLE_MAP entry "skb-admins:owner"'],
    [{ ...base, OIDC_ROLE_MAP: 'skb-admins:admin' }, 'OIDC_ROLE_MAP needs OIDC_ROLE_CLAIM'],
    [{ ...base, OIDC_ROLE_CLAIM: 'group s' }, 'OIDC_ROLE_CLAIM must be a claim name'],
    [{ ...base, OIDC_SCOPES: 'email profile' }, 'OIDC_SCOPES must include openid'],
    [{ ...base, OIDC_LINK_EXISTING: 'always' }, 'OIDC_LINK_EXISTING must be never or verified-email'],
  ])('refuses %j, naming the variable', (env, message) => {
    expect(() => parseOidcSettings(env)).toThrow(message);
  });
});
