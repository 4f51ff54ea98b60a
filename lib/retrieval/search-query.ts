import { tokenise } from './tokenise';

/** Words that must occur in this order, next to each other; a single word is a clause of one. */
export type Clause = string[];

/** What explorer search, the metapath filter and candidate ranking look for. */
export interface SearchQuery {
  /** The distinct words looked for, in order of first appearance: BM25 ranks by these and coverage counts them. */
  words: string[];
  /** Null for a plain query, where any of the words may match. */
  strict: StrictQuery | null;
}

/** A query typed with operators: every group must match and no excluded clause may. */
export interface StrictQuery {
  /** A group matches when any of its clauses does (clauses joined by OR). */
  required: Clause[][];
  excluded: Clause[];
}

/** A quote, a word starting with "-", or AND/OR in capitals between words make a query strict. */
const STRICT = /"|(^|\s)-[^\s-]|(^|\s)(AND|OR)(\s|$)/u;

type Item = { op: 'AND' | 'OR' } | { negated: boolean; clause: Clause };

/**
 * Reads a search box's text. A plain query ("waterproof hiking boots for rain") looks for any of its words.
 * With operators it reads like web search syntax, strictly: every word and "quoted phrase" must occur, OR
 * between two of them accepts either, -word or -"phrase" excludes, AND is allowed but changes nothing
 * (everything is required already). A word that the tokeniser splits ("TNF-alpha") is a phrase of its parts.
 */
export function parseSearchQuery(text: string): SearchQuery {
  if (!STRICT.test(text)) return plainQuery(text);
  const required: Clause[][] = [];
  const excluded: Clause[] = [];
  let joinNext = false;
  for (const item of scan(text)) {
    if ('op' in item) {
      joinNext = item.op === 'OR' && required.length > 0;
      continue;
    }
    if (item.negated) excluded.push(item.clause);
    else if (joinNext) required.at(-1)!.push(item.clause);
    else required.push([item.clause]);
    joinNext = false;
  }
  return { words: [...new Set(required.flat(2))], strict: { required, excluded } };
}

/** Any of the text's words, whatever operators it holds: how a text is ranked when it was not typed as a search. */
export function plainQuery(text: string): SearchQuery {
  return { words: [...new Set(tokenise(text))], strict: null };
}

/** The text as operators and clauses; clauses without a word (punctuation) are dropped. */
function scan(text: string): Item[] {
  const items: Item[] = [];
  let i = 0;
  while (i < text.length) {
    if (/\s/u.test(text[i]!)) {
      i++;
      continue;
    }
    const negated = text[i] === '-' && i + 1 < text.length && !/\s/u.test(text[i + 1]!);
    if (negated) i++;
    let chunk: string;
    let quoted = false;
    if (text[i] === '"') {
      const end = text.indexOf('"', i + 1);
      chunk = text.slice(i + 1, end < 0 ? text.length : end);
      i = end < 0 ? text.length : end + 1;
      quoted = true;
    } else {
      const start = i;
      while (i < text.length && !/\s/u.test(text[i]!) && text[i] !== '"') i++;
      chunk = text.slice(start, i);
    }
    if (!negated && !quoted && (chunk === 'AND' || chunk === 'OR')) {
      items.push({ op: chunk });
      continue;
    }
    const clause = tokenise(chunk);
    if (clause.length) items.push({ negated, clause });
  }
  return items;
}
