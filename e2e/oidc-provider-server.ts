import { startOidcProvider } from '../test/support/oidc-provider';
import { OIDC_ACCOUNTS, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, OIDC_PORT } from './oidc-setup';

/**
 * The OpenID Connect provider the end-to-end app signs in with (a Playwright web server): the app is started with
 * OIDC_ISSUER pointing here, and e2e/auth-oidc.spec.ts switches its faults over HTTP.
 * Run: `node --import tsx e2e/oidc-provider-server.ts <app address>`.
 */
const appUrl = process.argv[2];
if (!appUrl) throw new Error('Usage: oidc-provider-server.ts <app address>');
const provider = await startOidcProvider({
  port: OIDC_PORT,
  clientId: OIDC_CLIENT_ID,
  clientSecret: OIDC_CLIENT_SECRET,
  redirectUris: [`${appUrl}/api/auth/callback/oidc`],
  accounts: OIDC_ACCOUNTS,
});
console.log(`OpenID Connect provider at ${provider.issuer}`);
const stop = () => void provider.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
