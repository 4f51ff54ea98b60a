import crypto from 'node:crypto';

/**
 * A crowd participant's token, derived from the study's secret and their id: the same id always reaches the same
 * participation (a return visit, two first visits at once), and only the server can work it out. 32 URL-safe
 * characters, as every participant token.
 */
export function crowdToken(crowdKey: string, externalId: string): string {
  return crypto.createHmac('sha256', crowdKey).update(externalId).digest('base64url').slice(0, 32);
}

export const newCrowdKey = () => crypto.randomBytes(32).toString('base64url');
