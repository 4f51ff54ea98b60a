import crypto from 'node:crypto';

/** A secret for a link: 24 random bytes, URL-safe. Only its hash is stored. */
export function newToken(): string {
  return crypto.randomBytes(24).toString('base64url');
}

export function hashToken(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}

/** Tokens are 32 URL-safe characters; anything else is refused before it reaches the database. */
export function isTokenShaped(token: string): boolean {
  return /^[A-Za-z0-9_-]{32}$/.test(token);
}
