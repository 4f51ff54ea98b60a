import type { MetapathStep } from '../kb/metapath';

/** One path of a relational template: from a seed of `startType` along `steps` to the answer type. */
export interface TemplateBranch {
  startType: string;
  steps: MetapathStep[];
}

/**
 * A relational template (STaRK's relational requirement): one path, or two paths meeting at the answer type.
 * `key` is stable and readable, e.g. "disease -[indication]<- drug -[target]-> gene" per branch, branches
 * joined by " & "; it is what the API, the CLI and stored provenance name a template by.
 */
export interface SynthesisTemplate {
  key: string;
  branches: TemplateBranch[];
  answerType: string;
  /** Steps over all branches (1-3). */
  steps: number;
  /** The template in words, e.g. "a gene targeted by a drug indicated for <disease>". */
  words: string;
}

/** The answer-set sizes a template gives on a seeded sample of seeds. */
export interface TemplateSize {
  key: string;
  sampled: number;
  nonEmpty: number;
  mean: number;
  median: number;
  max: number;
}

/** The n-th attempt of a job: a template and its seed entities (one per branch), chosen reproducibly. */
export interface Candidate {
  position: number;
  template: SynthesisTemplate;
  /** Internal entity ids, one per branch. */
  seeds: number[];
}

/** A textual property of an answer's document, with where it came from. */
export interface TextProperty {
  text: string;
  /** The document field (dotted path, e.g. "details.indication") it was read from; null when not found verbatim. */
  field: string | null;
  /** UTF-16 offsets into that field's text; null when not found verbatim. */
  start: number | null;
  end: number | null;
  source: 'extractor' | 'llm';
}

/** One judge's verdict on one candidate: "term-evidence" or an LLM's model name. */
export interface FilterVote {
  entity: string;
  judge: string;
  keep: boolean;
  reason: string;
  callId?: number;
}

export type SynthesisStage = 'relational' | 'properties' | 'compose' | 'leak' | 'filter';

/** What a synthesized query records of how it was made (query.metadata.synthesis); entity ids are external. */
export interface Provenance {
  jobId: number;
  position: number;
  template: { key: string; words: string };
  seeds: { id: string; name: string }[];
  /** The answer whose document the properties come from. */
  propertySource: { id: string; name: string } | null;
  properties: TextProperty[];
  relationalAnswers: string[];
  kept: string[];
  removed: { id: string; reason: string }[];
  votes: FilterVote[];
  llmCallIds: number[];
  /** "extractor", "realiser", "term-evidence", or model names, per stage. */
  methods: { properties: string; compose: string; filter: string[] };
  prompts: { id: string; version: number }[];
}

export type ItemOutcome =
  | { status: 'kept'; text: string; answerIds: string[]; seedIds: string[]; provenance: Provenance }
  | { status: 'dropped' | 'failed'; stage: SynthesisStage; reason: string; provenance: Partial<Provenance> };

/** Per-job counts, shown in its progress and recorded in the dataset card. */
export interface SynthesisSummary {
  attempted: number;
  kept: number;
  dropped: Record<SynthesisStage, number>;
  failed: Record<SynthesisStage, number>;
  llmCalls: number;
  llmFailures: number;
  tokens: number;
}
