import type { z } from 'zod';

/**
 * The first JSON object in a model's answer text: code fences (```json … ```) and any prose around the object
 * are skipped. Null when there is no complete, parseable object.
 */
export function extractJsonObject(text: string): unknown {
  const unfenced = text.replace(/```[a-zA-Z]*\s*\n?/g, '');
  for (let start = unfenced.indexOf('{'); start !== -1; start = unfenced.indexOf('{', start + 1)) {
    const end = matchingBrace(unfenced, start);
    if (end === -1) continue;
    try {
      return JSON.parse(unfenced.slice(start, end + 1));
    } catch {
      // A brace inside prose ("{x}"): try the next one.
    }
  }
  return null;
}

/** Index of the brace closing the object opened at `start` (braces inside strings do not count); -1 when none. */
function matchingBrace(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return i;
  }
  return -1;
}

export type ParsedAnswer<T> = { ok: true; value: T } | { ok: false; message: string };

/** The answer's JSON object checked against the request's schema, or what is wrong with it. */
export function parseAnswer<T>(content: string, schema: z.ZodType<T>): ParsedAnswer<T> {
  const json = extractJsonObject(content);
  if (json === null) return { ok: false, message: 'The answer holds no JSON object' };
  const checked = schema.safeParse(json);
  if (checked.success) return { ok: true, value: checked.data };
  const problems = checked.error.issues.slice(0, 5).map((i) => `${i.path.length ? i.path.join('.') : '(answer)'}: ${i.message}`);
  return { ok: false, message: `The answer does not match what was asked: ${problems.join('; ')}` };
}
