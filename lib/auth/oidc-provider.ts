import type { OAuthConfig } from 'next-auth/providers/oauth';
import type { TokenSet } from 'openid-client';
import type { OidcSettings } from './oidc-settings';

export const OIDC_PROVIDER_ID = 'oidc';

type Claims = Record<string, unknown> & { iss: string; sub: string };

/**
 * next-auth's OAuth provider for the configured issuer. The authorization code flow with PKCE, state and nonce;
 * openid-client (inside next-auth) checks the ID token's signature against the provider's keys, its issuer,
 * audience, expiry and nonce, and refuses the sign-in otherwise.
 */
export function oidcProvider(settings: OidcSettings): OAuthConfig<Claims> {
  return {
    id: OIDC_PROVIDER_ID,
    name: settings.name,
    type: 'oauth',
    wellKnown: `${settings.issuer}/.well-known/openid-configuration`,
    clientId: settings.clientId,
    clientSecret: settings.clientSecret,
    authorization: { params: { scope: settings.scopes } },
    idToken: true,
    checks: ['pkce', 'state', 'nonce'],
    userinfo: {
      // Providers put email and group claims in the ID token, in the userinfo answer, or both: take both.
      // The ID token's issuer and subject win; openid-client refuses userinfo of another subject.
      async request({ client, tokens }) {
        // next-auth passes openid-client's TokenSet, though its type names only the fields.
        const set = tokens as TokenSet;
        const idClaims = set.claims();
        const info = client.issuer.metadata.userinfo_endpoint && set.access_token ? await client.userinfo(set) : {};
        return { ...idClaims, ...info, iss: idClaims.iss, sub: idClaims.sub };
      },
    },
    profile(claims) {
      // The app's user and session version are found by issuer and subject when the session token is made
      // (lib/auth/options.ts); next-auth's user type wants a number here meanwhile.
      return { id: claims.sub, email: typeof claims.email === 'string' ? claims.email : null, sessionVersion: 0 };
    },
  };
}
