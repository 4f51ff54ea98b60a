import crypto from 'node:crypto';
import { z } from 'zod';

/** A secret for a link: 24 random bytes, URL-safe. Only its hash is stored. */
export function newToken(): string {
  return crypto.randomBytes(24).toString('base64url');
}

/** A link's token as it appears in a URL: 32 URL-safe characters. */
export const tokenTextSchema = z.string().regex(/^[A-Za-z0-9_-]{32}$/, 'must be 32 letters, digits, “-” or “_”');

export function hashToken(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}

/**
 * The stored key a token from a URL is looked up by. Tokens are 32 URL-safe characters; anything else gets a
 * key no row has, so it is refused before any hashing of arbitrary input.
 */
export function lookupKey(token: string): string {
  return tokenTextSchema.safeParse(token).success ? hashToken(token) : '';
}
