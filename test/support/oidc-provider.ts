import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type KoaContextWithOIDC } from 'oidc-provider';

/**
 * A real OpenID Connect provider for tests: panva's certified oidc-provider with its development sign-in pages
 * (any login and password sign in; the login is the subject). Faults can be switched on to see how the app takes
 * a provider that is down or an ID token that fails a check: the provider's own token, changed and signed again
 * with its own key (or, for a bad signature, with a key it never published).
 */
export type OidcFault = 'none' | 'down' | 'bad-signature' | 'wrong-audience' | 'expired' | 'wrong-nonce';
export const OIDC_FAULTS: readonly OidcFault[] = ['none', 'down', 'bad-signature', 'wrong-audience', 'expired', 'wrong-nonce'];

export interface TestAccount {
  email?: string;
  emailVerified?: boolean;
  name?: string;
  groups?: string[];
}

export interface LocalOidcProviderOptions {
  /** 0 picks a free port. */
  port: number;
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
  /** By login; other logins sign in as `<login>@example.org`, verified, in no group. */
  accounts: Record<string, TestAccount>;
}

export interface LocalOidcProvider {
  issuer: string;
  /** The faults also switch over HTTP: `POST <issuer>/test/fault/<fault>` (for a provider in another process). */
  setFault(fault: OidcFault): void;
  close(): Promise<void>;
}

const KEY_ID = 'test-signing-key';

function signJwt(header: object, payload: object, key: crypto.KeyObject): string {
  const input = `${Buffer.from(JSON.stringify(header)).toString('base64url')}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}`;
  return `${input}.${crypto.sign('sha256', Buffer.from(input), key).toString('base64url')}`;
}

/** The provider's ID token with one check made to fail. */
function tamper(idToken: string, fault: OidcFault, signingKey: crypto.KeyObject, strangerKey: crypto.KeyObject): string {
  const [header, payload] = idToken.split('.').slice(0, 2).map((part) => JSON.parse(Buffer.from(part!, 'base64url').toString()) as Record<string, unknown>);
  const now = Math.floor(Date.now() / 1000);
  switch (fault) {
    case 'bad-signature': return signJwt(header!, payload!, strangerKey);
    case 'wrong-audience': return signJwt(header!, { ...payload, aud: 'another-app' }, signingKey);
    case 'expired': return signJwt(header!, { ...payload, iat: now - 7200, exp: now - 3600 }, signingKey);
    case 'wrong-nonce': return signJwt(header!, { ...payload, nonce: 'not-the-nonce-the-app-sent' }, signingKey);
    default: return idToken;
  }
}

export async function startOidcProvider(options: LocalOidcProviderOptions): Promise<LocalOidcProvider> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(options.port, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { privateKey: signingKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  const { privateKey: strangerKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  let fault: OidcFault = 'none';

  const provider = new Provider(issuer, {
    clients: [{
      client_id: options.clientId,
      client_secret: options.clientSecret,
      redirect_uris: options.redirectUris,
      response_types: ['code'],
      grant_types: ['authorization_code'],
    }],
    jwks: { keys: [{ ...signingKey.export({ format: 'jwk' }), kid: KEY_ID, alg: 'RS256', use: 'sig' }] },
    cookies: { keys: [crypto.randomBytes(32).toString('hex')] },
    scopes: ['openid', 'email', 'profile', 'groups'],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'], groups: ['groups'] },
    findAccount(_ctx, login) {
      const account = options.accounts[login] ?? { email: `${login}@example.org` };
      return {
        accountId: login,
        claims: () => ({
          sub: login,
          ...(account.email ? { email: account.email } : {}),
          email_verified: account.emailVerified ?? true,
          name: account.name ?? login,
          ...(account.groups ? { groups: account.groups } : {}),
        }),
      };
    },
  });
  // A provider that is down: connections are cut before anything is answered.
  provider.use(async (ctx: KoaContextWithOIDC, next: () => Promise<void>) => {
    if (fault === 'down') {
      ctx.respond = false;
      ctx.req.socket.destroy();
      return;
    }
    await next();
    const body = ctx.body as { id_token?: string } | undefined;
    if (ctx.path === '/token' && body?.id_token) ctx.body = { ...body, id_token: tamper(body.id_token, fault, signingKey, strangerKey) };
  });

  const handle = provider.callback();
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    const control = /^\/test\/fault\/([\w-]+)$/.exec(req.url ?? '');
    if (control && req.method === 'POST') {
      const wanted = control[1] as OidcFault;
      res.statusCode = OIDC_FAULTS.includes(wanted) ? 204 : 400;
      if (res.statusCode === 204) fault = wanted;
      res.end();
      return;
    }
    void handle(req, res);
  });

  return {
    issuer,
    setFault(next) {
      fault = next;
    },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
