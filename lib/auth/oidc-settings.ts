import { z } from 'zod';
import { Role, ROLES } from './roles';

/**
 * OpenID Connect sign-in, configured by environment. Without OIDC_ISSUER (and no other OIDC_ variable) the app
 * signs in by email and password only. Read once when the app starts, so a mistake stops it with a message
 * naming the variable instead of surfacing at someone's first sign-in.
 */
export interface OidcSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The button says "Sign in with <name>". */
  name: string;
  scopes: string;
  /** The claim whose values map to roles (a string or a list of strings), re-read at every sign-in. */
  roleClaim: string | null;
  roleMap: ReadonlyMap<string, Role>;
  defaultRole: Role;
  /** `verified-email`: a first sign-in whose email the provider verified may take over the local account with that email. */
  linkExisting: 'never' | 'verified-email';
}

const VARIABLES = [
  'OIDC_ISSUER', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET', 'OIDC_NAME', 'OIDC_SCOPES',
  'OIDC_ROLE_CLAIM', 'OIDC_ROLE_MAP', 'OIDC_DEFAULT_ROLE', 'OIDC_LINK_EXISTING',
] as const;

const roleName = z.enum(ROLES.map((r) => r.toLowerCase()) as [string, ...string[]], {
  message: `must be one of ${ROLES.map((r) => r.toLowerCase()).join(', ')}`,
});
const toRole = (name: string) => name.toUpperCase() as Role;

const roleMap = z.string().max(10_000).transform((text, ctx) => {
  const map = new Map<string, Role>();
  for (const entry of text.split(',').map((e) => e.trim()).filter(Boolean)) {
    // The value may hold colons itself (URNs, LDAP names): the role is after the last one.
    const at = entry.lastIndexOf(':');
    const role = roleName.safeParse(entry.slice(at + 1).trim().toLowerCase());
    if (at < 1 || !role.success) {
      ctx.addIssue({ code: 'custom', message: `entry "${entry}" is not value:role with role one of ${ROLES.map((r) => r.toLowerCase()).join(', ')}` });
      return z.NEVER;
    }
    map.set(entry.slice(0, at).trim(), toRole(role.data));
  }
  return map;
});

const schema = z.object({
  OIDC_ISSUER: z.url({ protocol: /^https?$/, message: 'must be the provider\'s http(s) address (its issuer)' }).max(2000)
    .transform((url) => url.replace(/\/+$/, '')),
  OIDC_CLIENT_ID: z.string({ message: 'is required with OIDC_ISSUER' }).min(1).max(500),
  OIDC_CLIENT_SECRET: z.string({ message: 'is required with OIDC_ISSUER' }).min(1).max(2000),
  OIDC_NAME: z.string().max(60).default('single sign-on'),
  OIDC_SCOPES: z.string().max(1000).default('openid email profile')
    .refine((s) => s.split(/\s+/).includes('openid'), 'must include openid'),
  OIDC_ROLE_CLAIM: z.string().max(200).regex(/^[\w:./-]+$/, 'must be a claim name').optional(),
  OIDC_ROLE_MAP: roleMap.optional(),
  OIDC_DEFAULT_ROLE: roleName.default(Role.RATER.toLowerCase()),
  OIDC_LINK_EXISTING: z.enum(['never', 'verified-email'], { message: 'must be never or verified-email' }).default('never'),
}).refine((v) => !v.OIDC_ROLE_MAP || v.OIDC_ROLE_CLAIM, { path: ['OIDC_ROLE_MAP'], message: 'needs OIDC_ROLE_CLAIM, the claim its values come from' });

/** The settings from the environment, null when OpenID Connect is not configured; throws naming the bad variable. */
export function parseOidcSettings(env: Record<string, string | undefined>): OidcSettings | null {
  // Empty counts as unset, as for the app's other variables.
  const given = Object.fromEntries(VARIABLES.flatMap((key) => (env[key]?.trim() ? [[key, env[key]!.trim()]] : [])));
  if (Object.keys(given).length === 0) return null;
  if (!given.OIDC_ISSUER) throw new Error(`OpenID Connect sign-in: OIDC_ISSUER is required when ${Object.keys(given).join(', ')} is set`);
  const parsed = schema.safeParse(given);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`OpenID Connect sign-in: ${String(issue.path[0])} ${issue.message}`);
  }
  const v = parsed.data;
  return {
    issuer: v.OIDC_ISSUER,
    clientId: v.OIDC_CLIENT_ID,
    clientSecret: v.OIDC_CLIENT_SECRET,
    name: v.OIDC_NAME,
    scopes: v.OIDC_SCOPES,
    roleClaim: v.OIDC_ROLE_CLAIM ?? null,
    roleMap: v.OIDC_ROLE_MAP ?? new Map(),
    defaultRole: toRole(v.OIDC_DEFAULT_ROLE),
    linkExisting: v.OIDC_LINK_EXISTING,
  };
}

let cached: { settings: OidcSettings | null } | undefined;

/** The app's settings, read from process.env once. */
export function oidcSettings(): OidcSettings | null {
  cached ??= { settings: parseOidcSettings(process.env) };
  return cached.settings;
}
