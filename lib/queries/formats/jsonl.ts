import { z } from 'zod';
import { IngestIssue } from '../../ingest/source';
import type { QueryRecord, SourcedQuery } from '../types';
import { isCanonicalInteger } from './integer-ids';
import { physicalLineBatches, withoutCr, type TextInput } from './text-lines';

const NOT_AN_ID = 'expected an integer or a string';

/** Integers beyond 2^53 - 1 lose digits in JSON.parse, so they are refused rather than misread. */
const Id = z.union(
  [
    z.string().min(1, { error: 'expected a non-empty string' }),
    z.number().int({ error: (issue) => (issue.code === 'invalid_type' ? NOT_AN_ID : 'integer too large to read exactly: write it as a string') }),
  ],
  { error: NOT_AN_ID },
);
const Ids = z.array(Id, { error: 'expected a list of ids' });

const Row = z.strictObject({
  id: Id,
  query: z.string({ error: 'expected a string' }).refine((t) => t.trim() !== '', { error: 'must not be empty' }),
  answer_ids: Ids,
  answer_ids_source: Ids.optional(),
  split: z.string({ error: 'expected a string or null' }).min(1, { error: 'must not be empty' }).nullable().optional(),
  metadata: z.record(z.string(), z.unknown(), { error: 'expected a JSON object' }).optional(),
});

/** `answer_ids[2]`, `metadata.template`: a zod path as it reads in the file. */
function fieldPath(path: PropertyKey[]): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`)).join('');
}

function problems(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      if (issue.code === 'unrecognized_keys') return `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}`;
      return issue.path.length > 0 ? `${fieldPath(issue.path)}: ${issue.message}` : issue.message;
    })
    .join('; ');
}

function toQuery(text: string, line: number, file: string): SourcedQuery | IngestIssue {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return new IngestIssue(file, line, `invalid JSON: ${(err as Error).message}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return new IngestIssue(file, line, 'expected a JSON object');
  const row = Row.safeParse(value);
  if (!row.success) return new IngestIssue(file, line, problems(row.error));
  const { id, query, answer_ids, answer_ids_source = [], split = null, metadata = {} } = row.data;
  return { id: String(id), text: query, answers: answer_ids.map(String), seeds: answer_ids_source.map(String), split, metadata, at: { file, line } };
}

/**
 * Queries from JSON Lines, streamed: one object a line,
 * `{"id", "query", "answer_ids", "answer_ids_source"?, "split"?, "metadata"?}` and no other field. Ids are
 * JSON integers or non-empty strings and are read as text (an integer as its decimal digits); `query` must not
 * be blank; `split` is a non-empty string or null; `metadata` a JSON object. Blank lines are skipped. Ids
 * repeated across lines are not checked here: the importer checks them across all the files of a query set.
 */
export async function* readJsonlQueries(input: TextInput, file: string): AsyncIterable<SourcedQuery | IngestIssue> {
  for await (const batch of physicalLineBatches(input)) {
    for (const { line, text, utf8 } of batch) {
      if (!utf8) yield new IngestIssue(file, line, 'not valid UTF-8 text');
      else if (text.trim() !== '') yield toQuery(withoutCr(text), line, file);
    }
  }
}

/** An id as JSON: a number when it is a non-negative integer JSON.parse reads back exactly, else a string. */
function jsonId(id: string): number | string {
  return isCanonicalInteger(id) && Number.isSafeInteger(Number(id)) ? Number(id) : id;
}

/**
 * One query as a JSON line, with its LF, keys in the order `id, query, answer_ids, answer_ids_source, split,
 * metadata`; `answer_ids_source` is left out when there are no seeds, `split` when null, `metadata` when empty.
 */
export function jsonlRow(q: QueryRecord): string {
  const row: Record<string, unknown> = { id: jsonId(q.id), query: q.text, answer_ids: q.answers.map(jsonId) };
  if (q.seeds.length > 0) row.answer_ids_source = q.seeds.map(jsonId);
  if (q.split !== null) row.split = q.split;
  if (Object.keys(q.metadata).length > 0) row.metadata = q.metadata;
  return `${JSON.stringify(row)}\n`;
}
