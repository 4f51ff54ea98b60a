import { z } from 'zod';

/** The largest id the database holds: ids are int4. Anything above cannot name a row and would fail in SQL. */
export const MAX_DB_ID = 2_147_483_647;

const NOT_AN_ID = 'must be a positive integer';
const TOO_BIG = `must be at most ${MAX_DB_ID}`;

/** An id (or release number) in a JSON body. */
export const idSchema = z.number({ error: NOT_AN_ID }).int(NOT_AN_ID).min(1, NOT_AN_ID).max(MAX_DB_ID, TOO_BIG);

/** The same for a query-string or path value, which arrives as text. */
export const idTextSchema = z.coerce.number({ error: NOT_AN_ID }).int(NOT_AN_ID).min(1, NOT_AN_ID).max(MAX_DB_ID, TOO_BIG);

export interface TextProblem {
  field: string;
  message: string;
}

/** Surrogate halves without their partner: not Unicode text, and PostgreSQL cannot store them faithfully. */
export const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** What in a string PostgreSQL text cannot hold: NUL (refused outright) or an unpaired surrogate; null when it can. */
export function unstorableChar(s: string): 'nul' | 'surrogate' | null {
  if (s.includes('\u0000')) return 'nul';
  return LONE_SURROGATE.test(s) ? 'surrogate' : null;
}

/** Values nested deeper than this are refused: no real body or document comes close, and deeper ones exhaust stacks. */
export const MAX_NESTING = 100;

export interface Unstorable {
  /** Field path as zod names it (`items.3.text`). */
  path: string[];
  kind: 'nul' | 'surrogate' | 'nesting';
  /** The problem is in an object key at `path`, not in a value. */
  inKey: boolean;
}

/**
 * Every place in a JSON-like value that PostgreSQL could not store: strings and object keys with NUL or an
 * unpaired surrogate, and nesting past MAX_NESTING. Iterative, so no input can exhaust the stack; `first`
 * stops at the first place found.
 */
export function findUnstorable(value: unknown, opts: { first?: boolean } = {}): Unstorable[] {
  const found: Unstorable[] = [];
  const pending: [unknown, string[]][] = [[value, []]];
  while (pending.length && !(opts.first && found.length)) {
    const [v, path] = pending.pop()!;
    if (typeof v === 'string') {
      const kind = unstorableChar(v);
      if (kind) found.push({ path, kind, inKey: false });
    } else if (v !== null && typeof v === 'object') {
      if (path.length >= MAX_NESTING) {
        found.push({ path, kind: 'nesting', inKey: false });
        continue;
      }
      const isArray = Array.isArray(v);
      const children: [unknown, string[]][] = [];
      for (const [key, child] of Object.entries(v)) {
        const kind = isArray ? null : unstorableChar(key);
        if (kind) found.push({ path, kind, inKey: true });
        else children.push([child, [...path, key]]);
      }
      // Reversed onto the stack, so places come out in document order.
      for (let i = children.length - 1; i >= 0; i--) pending.push(children[i]!);
    }
  }
  return found;
}

const FIELD_MESSAGES = {
  nul: 'must not contain the NUL character (U+0000)',
  surrogate: 'must be valid Unicode (it has an unpaired surrogate)',
  nesting: `must not be nested more than ${MAX_NESTING} levels deep`,
} as const;

/** Why a string cannot be stored as PostgreSQL text, or null when it can. */
export function textProblem(s: string): string | null {
  const kind = unstorableChar(s);
  return kind && FIELD_MESSAGES[kind];
}

/**
 * Every string (and object key) in a parsed JSON value or query that PostgreSQL could not store, by field
 * path as zod names them (`items.3.text`). Checked before the schema, so fields a schema passes through
 * unchecked (JSON metadata) are covered too.
 */
export function textProblems(value: unknown, where: string): TextProblem[] {
  return findUnstorable(value).map(({ path, kind, inKey }) => ({
    field: path.join('.') || where,
    message: inKey ? `a key ${FIELD_MESSAGES[kind]}` : FIELD_MESSAGES[kind],
  }));
}
