import { findUnstorable, MAX_NESTING, unstorableChar } from '../../input';
import { IngestIssue, type EdgeRecord, type EntityRecord } from '../source';

/** An id as text: strings are trimmed, integers accepted; anything else is not an id. */
export function idText(value: unknown): string | null {
  if (typeof value === 'string' && value.trim() !== '') return value.trim();
  if (typeof value === 'number' && Number.isInteger(value)) return String(value);
  return null;
}

export function stringList(value: unknown): string[] | null {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) return null;
  return value as string[];
}

/** Properties given as a JSON object in a text column; empty means none. */
export function propertiesColumn(text: string | undefined, file: string, line: number): Record<string, unknown> | null | IngestIssue {
  if (text === undefined || text.trim() === '') return null;
  try {
    const value: unknown = JSON.parse(text);
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // reported below
  }
  return new IngestIssue(file, line, 'properties must be a JSON object');
}

/** A value as an error message shows it: JSON, cut short; one too deeply nested to write out is named as such. */
export function preview(value: unknown, max = 80): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    return 'a value nested too deeply to show';
  }
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

const WHY = {
  nul: 'contains a NUL character (U+0000), which PostgreSQL text cannot store',
  surrogate: 'contains an unpaired surrogate (half of a UTF-16 pair, such as \\ud800), which PostgreSQL text cannot store',
  nesting: `is nested more than ${MAX_NESTING} levels deep`,
} as const;

/** Why PostgreSQL could not store this value (text, keys or nesting), or null. */
function unstorable(value: unknown): string | null {
  const [problem] = findUnstorable(value, { first: true });
  return problem ? WHY[problem.kind] : null;
}

function firstProblem(fields: [label: string, value: unknown][]): string | null {
  for (const [label, value] of fields) {
    const why = unstorable(value);
    if (why) return `${label} ${why}`;
  }
  return null;
}

/**
 * Why an entity, as any reader produced it, cannot be stored, or null. Checked on the row path every
 * format shares, so each reader's rows become bad rows with file and line instead of failing the load.
 */
export function unstorableEntity(e: EntityRecord): string | null {
  return firstProblem([['the id', e.externalId], ['the type', e.type], ['the name', e.name], ['an alias', e.aliases], ['the document', e.document]]);
}

export function unstorableEdge(e: EdgeRecord): string | null {
  // The common case without building the field list: millions of edges, each three short strings.
  if (e.properties === null && !unstorableChar(e.source) && !unstorableChar(e.relation) && !unstorableChar(e.target)) return null;
  return firstProblem([['the source', e.source], ['the relation', e.relation], ['the target', e.target], ['the properties', e.properties]]);
}
