import { z } from 'zod';
import type { LlmEndpoint } from '../llm/types';
import { propertyLines } from './compose';
import { contentWords, documentWords } from './properties';
import { failureText, promptDocument, type ItemCalls } from './llm-stage';
import { typeWords } from './template-words';
import type { FilterVote, TextProperty } from './types';

/** A candidate answer as the filters see it. */
export interface FilterCandidate {
  id: number;
  externalId: string;
  name: string;
  aliases: string[];
  document: unknown;
  /** The document flattened to text (entity.text), as a model is shown it. */
  text: string;
}

export const TERM_EVIDENCE = 'term-evidence';

/**
 * Term evidence: a candidate supports a property when every content word of the property occurs in its
 * document (its name, aliases and field values; not the field names); it is kept when it supports every
 * property. The vote's reason names the missing words.
 */
export function termEvidenceVote(candidate: FilterCandidate, properties: TextProperty[]): FilterVote {
  const words = documentWords(candidate);
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

const FilterAnswer = z.object({ satisfies: z.boolean(), reason: z.string().max(2000) });

/**
 * Every filter model's verdict on every candidate (the client keeps its concurrency limit). All calls are
 * awaited, so each is recorded; when any fails, the item fails, with the votes that did come back.
 */
export async function llmVotes(calls: ItemCalls, endpoints: LlmEndpoint[], query: string, properties: { text: string }[], type: string, candidates: FilterCandidate[]): Promise<{ votes: FilterVote[]; failures: string[] }> {
  const jobs = candidates.flatMap((c) => endpoints.map((endpoint) => ({ c, endpoint })));
  const results = await Promise.all(jobs.map(({ c, endpoint }) => calls.call(endpoint, 'synthesis.filter', {
    query, properties: propertyLines(properties), type: typeWords(type), name: c.name, document: promptDocument(c.text),
  }, FilterAnswer, `filter / ${endpoint.model} / ${c.externalId}`, 300)));
  const votes: FilterVote[] = [];
  const failures: string[] = [];
  results.forEach((r, i) => {
    const { c, endpoint } = jobs[i]!;
    if (r.ok) votes.push({ entity: c.externalId, judge: endpoint.model, keep: r.value.satisfies, reason: r.value.reason, callId: r.callId });
    else failures.push(`${endpoint.model} on ${c.externalId}: ${failureText(r)}`);
  });
  return { votes, failures };
}
