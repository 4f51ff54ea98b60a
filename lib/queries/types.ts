/** Where a query set's queries came from. */
export const QUERY_ORIGINS = ['human', 'synthesized', 'imported'] as const;
export type QueryOrigin = (typeof QUERY_ORIGINS)[number];

/** The file formats query sets are imported from and exported to. */
export const QUERY_FORMATS = ['stark', 'trec', 'jsonl'] as const;
export type QueryFormat = (typeof QUERY_FORMATS)[number];

/**
 * One query as the formats read and write it. Query and entity ids are kept as the text they have in the
 * files (STaRK: decimal integers; TREC: any token), so exports reproduce them exactly; entity ids are the
 * knowledge base's external ids.
 */
export interface QueryRecord {
  id: string;
  text: string;
  /** The ground-truth answer entities, in file order (STaRK `answer_ids`). */
  answers: string[];
  /** The seed entities the query was written from (STaRK `answer_ids_source`); empty when unknown. */
  seeds: string[];
  /** train / val / test, or another split name; null when the query is in no split. */
  split: string | null;
  /** Template, role, generator, author, evidence, graded judgments ... as the source gave them. */
  metadata: Record<string, unknown>;
}

/** Where in which file a record was read, for error messages. */
export interface SourceLine {
  file: string;
  line: number;
}

export type SourcedQuery = QueryRecord & { at: SourceLine };

/** One split file's content: query ids in file order. */
export interface SplitList {
  split: string;
  ids: string[];
  at: SourceLine[];
}
