import { formatDateTime } from '../format/date';

/** The moments the participant table shows, as the API gives them (ISO text, or null when not reached). */
export interface ParticipantMoments {
  consentedAt: string | null;
  startedAt: string | null;
  finishedAt: string | null;
}

/**
 * What is known of a participant's consent: when they agreed; "not asked" for one who started without agreeing
 * (starting needs consent when the study has a consent text, so theirs has none); else "not yet".
 */
export function consentText(p: ParticipantMoments): string {
  if (p.consentedAt) return formatDateTime(p.consentedAt);
  return p.startedAt ? `not asked (started ${formatDateTime(p.startedAt)})` : 'not yet';
}

/** When the participant finished; "not yet" once started; nothing to say before. */
export function finishedText(p: ParticipantMoments): string {
  if (p.finishedAt) return formatDateTime(p.finishedAt);
  return p.startedAt ? 'not yet' : '—';
}
