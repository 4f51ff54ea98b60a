import { LONE_SURROGATE } from '../input';

/**
 * What every importer reads: a knowledge source yields entities in a first pass and edges in a second,
 * each record or problem carrying the file and line it came from. Readers stream; they never hold a
 * file in memory.
 */
export interface SourcePosition {
  file: string;
  line: number;
}

export interface EntityRecord {
  externalId: string;
  type: string;
  name: string;
  aliases: string[];
  document: Record<string, unknown>;
  at: SourcePosition;
}

export interface EdgeRecord {
  source: string;
  relation: string;
  target: string;
  properties: Record<string, unknown> | null;
  at: SourcePosition;
}

const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'g');

/** Text with NUL characters and lone surrogates written out as `\u0000`, `\ud800`: storable, and visible. */
function writtenOut(text: string): string {
  return text.replace(/\u0000/g, '\\u0000').replace(LONE_SURROGATES, (c) => `\\u${c.charCodeAt(0).toString(16)}`);
}

/** A row that cannot be imported: where it is and why. */
export class IngestIssue {
  readonly file: string;
  readonly reason: string;

  constructor(
    file: string,
    readonly line: number,
    reason: string,
  ) {
    // Reasons quote the input, and the job keeps them in the database.
    this.file = writtenOut(file);
    this.reason = writtenOut(reason);
  }

  toString(): string {
    return `${this.file}:${this.line}: ${this.reason}`;
  }
}

export interface KnowledgeSource {
  /** Pass 1. Every entity once; a repeated id is the importer's to report. */
  entities(): AsyncIterable<EntityRecord | IngestIssue>;
  /** Pass 2, after all entities. Endpoints are external ids. */
  edges(): AsyncIterable<EdgeRecord | IngestIssue>;
  /**
   * The same records as `edges()`, in batches: readers of files with millions of edges offer it, since an
   * await per record costs about as much as parsing it.
   */
  edgeBatches?(): AsyncIterable<(EdgeRecord | IngestIssue)[]>;
  /** Bytes read so far over the bytes both passes will read, for progress bars. */
  progress(): { done: number; total: number };
}
