import { z } from 'zod';
import { can, type Permission } from '../auth/roles';
import { currentUser, type SessionUser } from '../auth/session';
import { isConnectionError } from '../db/client';
import { AppError, badRequest, forbidden, payloadTooLarge, unauthorized } from '../errors';
import { idTextSchema, textProblem, textProblems, type TextProblem } from '../input';
import { problemsText, zodProblems } from './issues';

type RouteContext<P> = { params: Promise<P> };
type Handler<P> = (ctx: { req: Request; user: SessionUser; params: P }) => Promise<unknown>;

export interface RouteOptions {
  /**
   * The largest request body the route takes, in bytes; `defaultBodyLimit()` unless given. A larger
   * Content-Length is refused before anything else runs, and `readJson` / `readText` stop reading there.
   * 'streamed': the handler streams the body itself under its own limit (uploads).
   */
  bodyLimit?: number | 'streamed';
}

/**
 * Wraps a route handler: body limit, path and query checks, CSRF check on mutations, session and
 * permission checks, error mapping (AppError -> its status, a lost database -> 503, anything else -> 500),
 * one retry of a read that lost its database connection, and JSON encoding of the result.
 */
export function apiRoute<P = Record<string, never>>(permission: Permission, handler: Handler<P>, options: RouteOptions = {}) {
  return (req: Request, context: RouteContext<P>): Promise<Response> =>
    serve(req, context, options, async (params) => {
      const user = await currentUser();
      if (!user) throw unauthorized();
      if (!can(user.role, permission)) throw forbidden();
      return handler({ req, user, params });
    });
}

type PublicHandler<P> = (ctx: { req: Request; params: P }) => Promise<unknown>;

/**
 * A route for people without an account (study participants, who hold a secret link instead): the same
 * checks, error mapping and JSON encoding as `apiRoute`, and no session. The handler checks the secret.
 */
export function publicRoute<P = Record<string, never>>(handler: PublicHandler<P>, options: RouteOptions = {}) {
  return (req: Request, context: RouteContext<P>): Promise<Response> => serve(req, context, options, (params) => handler({ req, params }));
}

/** Reads may run twice: GET handlers do not write. */
const RETRIED_METHODS = new Set(['GET', 'HEAD']);

async function serve<P>(req: Request, context: RouteContext<P>, options: RouteOptions, run: (params: P) => Promise<unknown>): Promise<Response> {
  try {
    limitBody(req, options.bodyLimit ?? defaultBodyLimit());
    checkSameOrigin(req);
    checkQuery(req);
    const params = checkParams(await context.params);
    let result: unknown;
    try {
      result = await run(params);
    } catch (err) {
      if (!RETRIED_METHODS.has(req.method) || !isConnectionError(err)) throw err;
      // The pool has dropped the dead connection by now; the second attempt gets a new one.
      result = await run(params);
    }
    return result instanceof Response ? result : json(result);
  } catch (err) {
    return errorResponse(err);
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Browsers always send Origin on cross-site mutations; one that is not ours is a forged request. */
function checkSameOrigin(req: Request): void {
  if (SAFE_METHODS.has(req.method)) return;
  const origin = req.headers.get('origin');
  if (!origin) return;
  const host = req.headers.get('x-forwarded-host') ?? req.headers.get('host');
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    throw forbidden('Cross-site request refused');
  }
  if (originHost !== host) throw forbidden('Cross-site request refused');
}

export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body, (_k, v: unknown) => (typeof v === 'bigint' ? bigintToJson(v) : v)), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8' },
  });
}

function bigintToJson(v: bigint): number | string {
  return v <= BigInt(Number.MAX_SAFE_INTEGER) && v >= BigInt(Number.MIN_SAFE_INTEGER) ? Number(v) : v.toString();
}

/** Seconds a client is asked to wait when the database is unreachable. */
const RETRY_AFTER_SECONDS = 5;

export function errorResponse(err: unknown): Response {
  if (err instanceof AppError) {
    return json({ error: err.message, ...(err.details === undefined ? {} : { details: err.details }) }, err.status);
  }
  if (isConnectionError(err)) {
    console.warn(`Database unavailable: ${(err as Error).message}`);
    const res = json({ error: 'The database is unavailable; try again in a few seconds' }, 503);
    res.headers.set('retry-after', String(RETRY_AFTER_SECONDS));
    return res;
  }
  console.error(err);
  return json({ error: 'Internal error' }, 500);
}

export const KIB = 1024;
export const MIB = 1024 * KIB;

/** The body limit of routes that declare none: JSON bodies of forms and editors. SKB_JSON_BODY_LIMIT_KB, default 64. */
export function defaultBodyLimit(): number {
  const kb = Number(process.env.SKB_JSON_BODY_LIMIT_KB);
  return (Number.isFinite(kb) && kb > 0 ? kb : 64) * KIB;
}

export function formatBytes(bytes: number): string {
  return bytes >= MIB ? `${+(bytes / MIB).toFixed(1)} MiB` : `${+(bytes / KIB).toFixed(1)} KiB`;
}

const tooLarge = (limit: number) => payloadTooLarge(`The request body is larger than this route's limit of ${formatBytes(limit)}`);

/** The limit `serve` settled for each request, for the body readers. */
const bodyLimits = new WeakMap<Request, number>();

function limitBody(req: Request, limit: number | 'streamed'): void {
  if (limit === 'streamed') return;
  if (Number(req.headers.get('content-length')) > limit) throw tooLarge(limit);
  bodyLimits.set(req, limit);
}

/**
 * The body as text, read in chunks up to the route's limit: a body without Content-Length (chunked) that
 * runs past it is cut off there with a 413, so nothing larger is ever held in memory.
 */
export async function readText(req: Request): Promise<string> {
  const limit = bodyLimits.get(req) ?? defaultBodyLimit();
  if (Number(req.headers.get('content-length')) > limit) throw tooLarge(limit);
  if (!req.body) return '';
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

/** Parses a JSON body against a schema; malformed JSON and invalid fields are 400s naming the problem. */
export async function readJson<S extends z.ZodType>(req: Request, schema: S): Promise<z.output<S>> {
  return parseWith(schema, parseJsonBody(await readText(req)), 'body');
}

/** A request body's JSON; 400 when it is not JSON. */
export function parseJsonBody(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw badRequest(`Malformed JSON body: ${(err as Error).message}`);
  }
}

/** Parses a value against a schema; text PostgreSQL cannot store (NUL, lone surrogates) is refused first. */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown, where: string): z.output<S> {
  const bad = textProblems(value, where);
  if (bad.length) throw invalid(where, bad);
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw invalid(where, zodProblems(parsed.error, where));
  return parsed.data;
}

/** At most this many problems are reported: a body full of bad values must not make an answer larger still. */
const MAX_REPORTED = 20;

function invalid(where: string, issues: TextProblem[]): AppError {
  const shown = issues.slice(0, MAX_REPORTED);
  return badRequest(problemsText(where, shown, issues.length - shown.length), shown);
}

/** Parses a path parameter that must be a positive integer id (the database's ids are int4). */
export function idParam(value: string, name: string): number {
  return parseWith(idTextSchema, value, name);
}

/** Longest path segment and query-string value any route takes (slugs, names, tokens, cursors are shorter). */
const MAX_PATH_PARAM = 1000;
const MAX_QUERY_VALUE = 2000;

function stringProblems(entries: Iterable<[string, string]>, maxLength: number): TextProblem[] {
  const problems: TextProblem[] = [];
  for (const [field, value] of entries) {
    const message = textProblem(field) ?? textProblem(value) ?? (value.length > maxLength ? `must be at most ${maxLength} characters` : null);
    if (message) problems.push({ field, message });
  }
  return problems;
}

/** Every path parameter of every route, before the handler sees it. */
function checkParams<P>(params: P): P {
  const entries = Object.entries((params ?? {}) as Record<string, string | string[] | undefined>)
    .flatMap(([name, v]): [string, string][] => (v === undefined ? [] : (Array.isArray(v) ? v : [v]).map((s) => [name, s])));
  const bad = stringProblems(entries, MAX_PATH_PARAM);
  if (bad.length) throw invalid('path', bad);
  return params;
}

/** Every query-string value (URL decoding never yields lone surrogates, but %00 is a NUL). */
function checkQuery(req: Request): void {
  const bad = stringProblems(new URL(req.url).searchParams, MAX_QUERY_VALUE);
  if (bad.length) throw invalid('query', bad);
}
