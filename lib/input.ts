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

/** Why a string cannot be stored as PostgreSQL text (NUL is refused there outright), or null when it can. */
export function textProblem(s: string): string | null {
  if (s.includes('\u0000')) return 'must not contain the NUL character (U+0000)';
  if (LONE_SURROGATE.test(s)) return 'must be valid Unicode (it has an unpaired surrogate)';
  return null;
}

/**
 * Every string (and object key) in a parsed JSON value or query that PostgreSQL could not store, by field
 * path as zod names them (`items.3.text`). Checked before the schema, so fields a schema passes through
 * unchecked (JSON metadata) are covered too.
 */
export function textProblems(value: unknown, where: string): TextProblem[] {
  const problems: TextProblem[] = [];
  const visit = (v: unknown, path: string[]): void => {
    if (typeof v === 'string') {
      const message = textProblem(v);
      if (message) problems.push({ field: path.join('.') || where, message });
    } else if (Array.isArray(v)) {
      v.forEach((item, i) => visit(item, [...path, String(i)]));
    } else if (v !== null && typeof v === 'object') {
      for (const [key, item] of Object.entries(v)) {
        const message = textProblem(key);
        if (message) problems.push({ field: path.join('.') || where, message: `a key ${message}` });
        else visit(item, [...path, key]);
      }
    }
  };
  visit(value, []);
  return problems;
}
