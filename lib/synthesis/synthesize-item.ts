import crypto from 'node:crypto';
import { findLeaks } from '../authoring/leak';
import type { Database, Queryable } from '../db/transaction';
import { evaluateMetapaths } from '../kb/metapath';
import type { LlmEndpoint } from '../llm/types';
import { ensureIndex } from '../retrieval/bm25-index';
import { llmCompose, realiseQuery } from './compose';
import { agreed, llmVotes, removalReason, TERM_EVIDENCE, termEvidenceVote, type FilterCandidate } from './filter';
import { ItemCalls, type LlmCaller } from './llm-stage';
import { documentFrequencies, documentWords, extractProperties, fieldsOf, fieldTerms, llmProperties, type ExtractedProperty } from './properties';
import type { Candidate, FilterVote, ItemOutcome, Provenance, SynthesisStage, TextProperty } from './types';

export interface ItemLlm {
  client: LlmCaller;
  properties: LlmEndpoint;
  compose: LlmEndpoint;
  /** The models that judge each candidate; their votes are combined by ItemOptions.agreement. */
  filters: LlmEndpoint[];
}

export interface ItemOptions {
  llm: ItemLlm | null;
  /** The job the item belongs to (null for a preview); recorded in provenance (0 without one). */
  jobId: number | null;
  minAnswers: number;
  maxAnswers: number;
  /** Relational answer sets larger than this are dropped before any property is read. */
  maxCandidates: number;
  propertyCount: number;
  agreement: 'all' | 'majority';
}

async function readEntities(db: Queryable, kbId: number, ids: number[]): Promise<Map<number, FilterCandidate>> {
  const { rows } = await db.query<FilterCandidate>(
    `SELECT id, external_id AS "externalId", name, aliases, document, text FROM entity WHERE kb_id = $1 AND id = ANY($2::int[])`, [kbId, ids]);
  return new Map(rows.map((r) => [r.id, r]));
}

/** The answer whose document gives the properties: one of the set, fixed by the candidate. */
function pickAnswer(candidate: Candidate, seedIds: string[], answers: FilterCandidate[]): FilterCandidate {
  const sorted = [...answers].sort((a, b) => (a.externalId < b.externalId ? -1 : a.externalId > b.externalId ? 1 : 0));
  const hash = crypto.createHash('md5').update(`${candidate.position}:${candidate.template.key}:${seedIds.join(',')}`).digest();
  return sorted[hash.readUInt32BE(0) % sorted.length]!;
}

const namesOf = (entities: FilterCandidate[]) => entities.flatMap((e) => [e.name, ...(e.aliases ?? [])]);

/** The deterministic extractor on the answer's document, term rarity read from the knowledge base's BM25 index. */
async function extractorProperties(db: Database, kbId: number, answer: FilterCandidate, answers: FilterCandidate[], avoid: string[], count: number): Promise<ExtractedProperty[]> {
  const index = await ensureIndex(db, kbId, false);
  const fields = fieldsOf(answer.document);
  const df = await documentFrequencies(db, index.id, fieldTerms(fields));
  const others = answers.filter((a) => a !== answer).map(documentWords);
  return extractProperties({ fields, count, avoid, docs: index.docs, df, others });
}

/**
 * One candidate through the pipeline: its exact relational answers, one answer's properties, the query,
 * the leak check and the filter. Every outcome carries what was learnt up to where it stopped; LLM faults
 * become a 'failed' outcome, never an exception.
 */
export async function synthesizeItem(db: Database, kbId: number, candidate: Candidate, opts: ItemOptions): Promise<ItemOutcome> {
  const { template } = candidate;
  const seedRows = await readEntities(db, kbId, candidate.seeds);
  const seeds = candidate.seeds.map((id) => seedRows.get(id)!);
  const prov: Partial<Provenance> = {
    jobId: opts.jobId ?? 0,
    position: candidate.position,
    template: { key: template.key, words: template.words },
    seeds: seeds.map((s) => ({ id: s.externalId, name: s.name })),
    llmCallIds: [],
    prompts: [],
  };
  const llm = opts.llm ? { ...opts.llm, calls: new ItemCalls(opts.llm.client, kbId, opts.jobId, candidate.position) } : null;
  const finish = (outcome: ItemOutcome): ItemOutcome => {
    if (llm) {
      outcome.provenance.llmCallIds = [...llm.calls.callIds].sort((a, b) => a - b);
      outcome.provenance.prompts = [...llm.calls.prompts];
    }
    return outcome;
  };
  const stop = (status: 'dropped' | 'failed', stage: SynthesisStage, reason: string) => finish({ status, stage, reason, provenance: prov });

  const paths = template.branches.map((b, i) => ({ start: { entity: candidate.seeds[i]! }, steps: b.steps }));
  const reached = await evaluateMetapaths(db, kbId, paths, { limit: opts.maxCandidates + 1, offset: 0 }, '');
  if (reached.total === 0) return stop('dropped', 'relational', 'no entity satisfies the template from these seeds');
  if (reached.total > opts.maxCandidates) return stop('dropped', 'relational', `${reached.total} entities satisfy the template, over the maximum of ${opts.maxCandidates} candidates`);
  const answerRows = await readEntities(db, kbId, reached.items.map((i) => i.id));
  const answers = reached.items.map((i) => answerRows.get(i.id)!).sort((a, b) => a.id - b.id);
  prov.relationalAnswers = answers.map((a) => a.externalId);
  const avoid = namesOf(answers);

  const source = pickAnswer(candidate, prov.seeds!.map((s) => s.id), answers);
  prov.propertySource = { id: source.externalId, name: source.name };
  prov.methods = llm
    ? { properties: llm.properties.model, compose: llm.compose.model, filter: llm.filters.map((f) => f.model) }
    : { properties: 'extractor', compose: 'realiser', filter: [TERM_EVIDENCE] };

  let properties: TextProperty[];
  let phrases: ExtractedProperty[] = [];
  if (llm) {
    const got = await llmProperties(llm.calls, llm.properties, { type: template.answerType, name: source.name, text: source.text, document: source.document }, opts.propertyCount);
    if (!got.ok) return stop('failed', 'properties', `the properties call failed (${got.reason})`);
    properties = got.properties;
  } else {
    phrases = await extractorProperties(db, kbId, source, answers, avoid, opts.propertyCount);
    properties = phrases.map(({ whole: _whole, ...p }) => p);
  }
  prov.properties = properties;
  if (!properties.length) return stop('dropped', 'properties', `the document of ${source.name} gives no property that does not name an answer`);

  let text: string;
  if (llm) {
    const composed = await llmCompose(llm.calls, llm.compose, template, seeds.map((s, i) => ({ name: s.name, type: template.branches[i]!.startType })), properties);
    if (!composed.ok) return stop('failed', 'compose', `the compose call failed (${composed.reason})`);
    text = composed.text;
  } else {
    text = realiseQuery(template, seeds.map((s) => s.name), phrases);
  }
  const leaks = findLeaks(text, avoid);
  if (leaks.length) return stop('dropped', 'leak', `the query names ${[...new Set(leaks.map((l) => `“${l.name}”`))].join(', ')}: ${text}`);

  let votes: FilterVote[];
  if (llm) {
    const judged = await llmVotes(llm.calls, llm.filters, text, properties, template.answerType, answers);
    prov.votes = judged.votes;
    if (judged.failures.length) {
      return stop('failed', 'filter', `${judged.failures.length} of ${answers.length * llm.filters.length} filter calls failed; first: ${judged.failures[0]}`);
    }
    votes = judged.votes;
  } else {
    votes = answers.map((a) => termEvidenceVote(a, properties));
    prov.votes = votes;
  }
  const kept = answers.filter((a) => agreed(votes.filter((v) => v.entity === a.externalId), opts.agreement));
  // The extractor's properties are read from the source's own document, so term evidence must find them there.
  if (!llm && !kept.includes(source)) throw new Error(`Term evidence removed ${source.externalId}, the document its properties come from`);
  prov.kept = kept.map((a) => a.externalId);
  prov.removed = answers.filter((a) => !kept.includes(a)).map((a) => ({ id: a.externalId, reason: removalReason(votes.filter((v) => v.entity === a.externalId)) }));
  if (!kept.length) return stop('dropped', 'filter', 'no candidate passed the filter');
  if (kept.length > opts.maxAnswers) return stop('dropped', 'filter', `${kept.length} answers kept, over the maximum of ${opts.maxAnswers}`);
  if (kept.length < opts.minAnswers) return stop('dropped', 'filter', `${kept.length} answer${kept.length === 1 ? '' : 's'} kept, under the minimum of ${opts.minAnswers}`);
  return finish({ status: 'kept', text, answerIds: prov.kept, seedIds: prov.seeds!.map((s) => s.id), provenance: prov as Provenance });
}
