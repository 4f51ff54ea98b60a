import type { TestAccount } from '../test/support/oidc-provider';

/** The local OpenID Connect provider of the end-to-end run (e2e/oidc-provider-server.ts) and the app's settings for it. */
export const OIDC_PORT = 3297;
export const OIDC_ISSUER = `http://127.0.0.1:${OIDC_PORT}`;
export const OIDC_NAME = 'Example Lab';
export const OIDC_CLIENT_ID = 'skb-studio-e2e';
export const OIDC_CLIENT_SECRET = 'e2e-oidc-client-secret-not-for-production';

/** Logins at the provider. Other logins sign in as `<login>@example.org`, in no group. */
export const OIDC_ACCOUNTS: Record<string, TestAccount> = {
  // Mapped to curator by her group.
  'ada-oidc': { email: 'ada.oidc@example.org', name: 'Ada Oidc', groups: ['skb-curators', 'staff'] },
  // Claims the demo admin's email, verified or not: must not become that account.
  'admin-lookalike': { email: 'admin@demo.local', emailVerified: true, groups: ['skb-admins'] },
};

/** The app server's environment for OpenID Connect (playwright.config.ts). */
export const OIDC_APP_ENV = {
  OIDC_ISSUER,
  OIDC_CLIENT_ID,
  OIDC_CLIENT_SECRET,
  OIDC_NAME,
  OIDC_SCOPES: 'openid email profile groups',
  OIDC_ROLE_CLAIM: 'groups',
  OIDC_ROLE_MAP: 'skb-admins:admin,skb-curators:curator,skb-annotators:annotator',
  OIDC_DEFAULT_ROLE: 'annotator',
};
