/** The moments the participant table shows, as the API gives them (ISO text, or null when not reached). */
export interface ParticipantMoments {
  consentedAt: string | null;
  startedAt: string | null;
  finishedAt: string | null;
}

/**
 * What a cell of the participant table says: words alone, or a moment (ISO text, which the page writes in the
 * reader's locale and time zone) between words.
 */
export type ProgressWords = { text: string } | { before: string; at: string; after: string };

/**
 * What is known of a participant's consent: when they agreed; "not asked" for one who started without agreeing
 * (starting needs consent when the study has a consent text, so theirs has none); else "not yet".
 */
export function consentWords(p: ParticipantMoments): ProgressWords {
  if (p.consentedAt) return { before: '', at: p.consentedAt, after: '' };
  return p.startedAt ? { before: 'not asked (started ', at: p.startedAt, after: ')' } : { text: 'not yet' };
}

/** When the participant finished; "not yet" once started; nothing to say before. */
export function finishedWords(p: ParticipantMoments): ProgressWords {
  if (p.finishedAt) return { before: '', at: p.finishedAt, after: '' };
  return { text: p.startedAt ? 'not yet' : '—' };
}
