import type { z } from 'zod';
import type { TextProblem } from '../input';
import { plural } from '../format/plural';

/** Zod's own wording (its defaults start so); a schema's custom message ("must be a positive integer") is kept. */
const ZOD_DEFAULT = /^(Invalid|Too (big|small)|Unrecognized key|Expected|Required)/;

const TYPE_WORDS: Record<string, string> = {
  number: 'a number', int: 'a whole number', string: 'text', boolean: 'true or false', array: 'a list', object: 'an object',
  bigint: 'a whole number', date: 'a date',
};

/** A zod issue in plain words: "must be at most 3", "must be one of both, out, in", "is required". */
function wording(issue: z.core.$ZodIssue): string {
  if (!ZOD_DEFAULT.test(issue.message)) return issue.message;
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? 'is required' : `must be ${TYPE_WORDS[issue.expected] ?? issue.expected}`;
    case 'too_big': {
      const max = Number(issue.maximum);
      const bound = issue.inclusive === false ? 'less than' : 'at most';
      if (issue.origin === 'string') return `must be ${bound} ${plural(max, 'character')}`;
      if (issue.origin === 'array' || issue.origin === 'set') return `must have ${bound} ${plural(max, 'value')}`;
      return `must be ${bound} ${max}`;
    }
    case 'too_small': {
      const min = Number(issue.minimum);
      const bound = issue.inclusive === false ? 'more than' : 'at least';
      if (issue.origin === 'string') return min === 1 ? 'must not be empty' : `must be ${bound} ${plural(min, 'character')}`;
      if (issue.origin === 'array' || issue.origin === 'set') return `must have ${bound} ${plural(min, 'value')}`;
      return `must be ${bound} ${min}`;
    }
    case 'invalid_value':
      return issue.values.length === 1 ? `must be ${String(issue.values[0])}` : `must be one of ${issue.values.map(String).join(', ')}`;
    case 'invalid_format':
      return issue.format === 'regex' ? 'is not in the expected form' : `must be a valid ${issue.format}`;
    case 'not_multiple_of':
      return `must be a multiple of ${String(issue.divisor)}`;
    case 'unrecognized_keys':
      return `has unknown ${issue.keys.length === 1 ? 'field' : 'fields'} ${issue.keys.join(', ')}`;
    default:
      return 'is not valid';
  }
}

/**
 * A zod error as problems by field, each said once: the field named by its path (`items.3.text`), or by
 * `where` when the whole value is wrong; the same problem reported twice (a union's branches) is kept once.
 */
export function zodProblems(error: z.ZodError, where: string): TextProblem[] {
  const seen = new Set<string>();
  return error.issues.flatMap((issue) => {
    const problem = { field: issue.path.map(String).join('.') || where, message: wording(issue) };
    const key = `${problem.field}\u0000${problem.message}`;
    if (seen.has(key)) return [];
    seen.add(key);
    return [problem];
  });
}

/**
 * One sentence for a list of problems: "Invalid query: hops: must be at most 3; dir: must be one of …".
 * A problem with the whole value (its field is `where` itself) is not named twice: "Invalid entity id: must be …".
 */
export function problemsText(where: string, problems: TextProblem[], more = 0): string {
  const parts = problems.map((p) => (p.field === where ? p.message : `${p.field}: ${p.message}`));
  return `Invalid ${where}: ${parts.join('; ')}${more > 0 ? `; and ${more} more` : ''}`;
}
