import { analyse, tokenise } from '../retrieval/tokenise';
import type { FilterVote, TextProperty } from './types';

/** A candidate answer as the filters see it. */
export interface FilterCandidate {
  id: number;
  externalId: string;
  name: string;
  /** The document flattened to text (entity.text). */
  text: string;
}

export const TERM_EVIDENCE = 'term-evidence';

/** A property's content words: analysed as the BM25 baseline reads text, stop words dropped. */
export function contentWords(text: string): string[] {
  return [...new Set(analyse(text, { stopWords: true, stemming: false }))];
}

/**
 * Term evidence: a candidate supports a property when every content word of the property occurs in its
 * document text; it is kept when it supports every property. The vote's reason names the missing words.
 */
export function termEvidenceVote(candidate: FilterCandidate, properties: TextProperty[]): FilterVote {
  const words = new Set(tokenise(candidate.text));
  const missing = properties
    .map((p) => ({ p, absent: contentWords(p.text).filter((w) => !words.has(w)) }))
    .filter((m) => m.absent.length);
  return {
    entity: candidate.externalId,
    judge: TERM_EVIDENCE,
    keep: missing.length === 0,
    reason: missing.length === 0
      ? 'its document has every word of every property'
      : missing.map((m) => `“${m.p.text}”: its document lacks ${m.absent.map((w) => `“${w}”`).join(', ')}`).join('; '),
  };
}

/** Whether the votes on one candidate keep it: every judge ('all') or more than half of them ('majority'). */
export function agreed(votes: FilterVote[], agreement: 'all' | 'majority'): boolean {
  const yes = votes.filter((v) => v.keep).length;
  return votes.length > 0 && (agreement === 'all' ? yes === votes.length : yes * 2 > votes.length);
}

/** Why a candidate was removed: the judges that voted it out, with their reasons. */
export function removalReason(votes: FilterVote[]): string {
  return votes.filter((v) => !v.keep).map((v) => (v.judge === TERM_EVIDENCE ? v.reason : `${v.judge}: ${v.reason}`)).join(' | ');
}
