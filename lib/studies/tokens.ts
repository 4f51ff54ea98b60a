import crypto from 'node:crypto';

/** A secret for a link: 24 random bytes, URL-safe. Only its hash is stored. */
export function newToken(): string {
  return crypto.randomBytes(24).toString('base64url');
}

export function hashToken(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}

/**
 * The stored key a token from a URL is looked up by. Tokens are 32 URL-safe characters; anything else gets a
 * key no row has, so it is refused before any hashing of arbitrary input.
 */
export function lookupKey(token: string): string {
  return /^[A-Za-z0-9_-]{32}$/.test(token) ? hashToken(token) : '';
}
