import type { z } from 'zod';
import { AppError } from '../errors';
import { idTextSchema, textProblems, type TextProblem } from '../input';
import { problemsText, zodProblems } from './issues';

/** A page's search params as Next.js gives them. */
export type PageSearchParams = Record<string, string | string[] | undefined>;

/** Why a page cannot show what its address asks for, and the way back: the page without what was wrong. */
export interface PageProblem {
  /** One sentence, as the API would answer for the same values. */
  message: string;
  /** Each wrong parameter and what is wrong with it (empty when the message says it all). */
  problems: TextProblem[];
  back: { href: string; label: string };
}

export type Checked<T> = { ok: true; value: T } | { ok: false; problem: PageProblem };

const valuesOf = (v: string | string[] | undefined): string[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/** The search params as the API routes read a query string: one value per key, all of them for `arrayKeys`. */
export function queryObject(searchParams: PageSearchParams, arrayKeys: readonly string[]): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [key, value] of Object.entries(searchParams)) {
    const values = valuesOf(value);
    if (arrayKeys.includes(key)) out[key] = values;
    else if (values.length) out[key] = values[0]!;
  }
  for (const key of arrayKeys) out[key] ??= [];
  return out;
}

/** The page's address with the named parameters left out: the way back from a bad one. */
export function withoutParams(path: string, searchParams: PageSearchParams, drop: Iterable<string>): string {
  const dropped = new Set(drop);
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(searchParams)) {
    if (!dropped.has(key)) for (const v of valuesOf(value)) query.append(key, v);
  }
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}

/** The parameter a problem is about: the top of its field path (`rel.2` is about `rel`). */
const paramOf = (p: TextProblem) => p.field.split('.')[0]!;

/** The problem of a page whose parameters `problems` are wrong, with the way back to it without them. */
export function queryProblem(path: string, searchParams: PageSearchParams, problems: TextProblem[], backLabel: string): PageProblem {
  return {
    message: problemsText('query', problems),
    problems,
    back: { href: withoutParams(path, searchParams, problems.map(paramOf)), label: backLabel },
  };
}

/**
 * Reads a page's search params with the schema its API route uses, the same way (unstorable text first,
 * then the schema), so the page refuses what the API refuses, with the same words.
 */
export function checkPageQuery<S extends z.ZodType>(
  schema: S, path: string, searchParams: PageSearchParams, opts: { arrayKeys?: readonly string[]; backLabel: string },
): Checked<z.output<S>> {
  const value = queryObject(searchParams, opts.arrayKeys ?? []);
  const bad = textProblems(value, 'query');
  const parsed = bad.length ? null : schema.safeParse(value);
  if (parsed?.success) return { ok: true, value: parsed.data };
  const problems = parsed ? zodProblems(parsed.error, 'query') : bad;
  return { ok: false, problem: queryProblem(path, searchParams, problems, opts.backLabel) };
}

/** A path segment read with `schema`: its value, or what is wrong with it in the API's words. */
export function checkPageParam<S extends z.ZodType>(schema: S, value: string, name: string, back: PageProblem['back']): Checked<z.output<S>> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return { ok: true, value: parsed.data };
  const problems = zodProblems(parsed.error, name);
  return { ok: false, problem: { message: problemsText(name, problems), problems: [], back } };
}

/** A path segment that must be an id: the id, or what is wrong with it in the API's words. */
export const checkPageId = (value: string, name: string, back: PageProblem['back']): Checked<number> => checkPageParam(idTextSchema, value, name, back);

/** The lookup's value, or its 404 message ("No run 7 on this query set") as the page's problem. */
export async function foundOr<T>(lookup: Promise<T>, back: PageProblem['back']): Promise<Checked<T>> {
  try {
    return { ok: true, value: await lookup };
  } catch (err) {
    if (err instanceof AppError && err.status === 404) return { ok: false, problem: { message: err.message, problems: [], back } };
    throw err;
  }
}

/** The record a path's id names: its id checked first, then looked up; either problem as the page's. */
export async function findById<T>(value: string, name: string, back: PageProblem['back'], lookup: (id: number) => Promise<T>): Promise<Checked<T>> {
  const id = checkPageId(value, name, back);
  return id.ok ? foundOr(lookup(id.value), back) : id;
}
