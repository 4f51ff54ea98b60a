import { z } from 'zod';
import { can, type Permission } from '../auth/roles';
import { currentUser, type SessionUser } from '../auth/session';
import { AppError, badRequest, forbidden, unauthorized } from '../errors';

type RouteContext<P> = { params: Promise<P> };
type Handler<P> = (ctx: { req: Request; user: SessionUser; params: P }) => Promise<unknown>;

/**
 * Wraps a route handler: session and permission checks, CSRF check on mutations, error mapping
 * (AppError -> its status, anything else -> 500) and JSON encoding of the result.
 */
export function apiRoute<P = Record<string, never>>(permission: Permission, handler: Handler<P>) {
  return async (req: Request, context: RouteContext<P>): Promise<Response> => {
    try {
      checkSameOrigin(req);
      const user = await currentUser();
      if (!user) throw unauthorized();
      if (!can(user.role, permission)) throw forbidden();
      const result = await handler({ req, user, params: await context.params });
      return result instanceof Response ? result : json(result);
    } catch (err) {
      return errorResponse(err);
    }
  };
}

type PublicHandler<P> = (ctx: { req: Request; params: P }) => Promise<unknown>;

/**
 * A route for people without an account (study participants, who hold a secret link instead): the same
 * CSRF check, error mapping and JSON encoding as `apiRoute`, and no session. The handler checks the secret.
 */
export function publicRoute<P = Record<string, never>>(handler: PublicHandler<P>) {
  return async (req: Request, context: RouteContext<P>): Promise<Response> => {
    try {
      checkSameOrigin(req);
      const result = await handler({ req, params: await context.params });
      return result instanceof Response ? result : json(result);
    } catch (err) {
      return errorResponse(err);
    }
  };
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

export function errorResponse(err: unknown): Response {
  if (err instanceof AppError) {
    return json({ error: err.message, ...(err.details === undefined ? {} : { details: err.details }) }, err.status);
  }
  console.error(err);
  return json({ error: 'Internal error' }, 500);
}

/** Parses a JSON body against a schema; malformed JSON and invalid fields are 400s naming the problem. */
export async function readJson<S extends z.ZodType>(req: Request, schema: S): Promise<z.output<S>> {
  let body: unknown;
  try {
    body = await req.json();
  } catch (err) {
    throw badRequest(`Malformed JSON body: ${(err as Error).message}`);
  }
  return parseWith(schema, body, 'body');
}

export function parseWith<S extends z.ZodType>(schema: S, value: unknown, where: string): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => ({ field: i.path.join('.') || where, message: i.message }));
    throw badRequest(`Invalid ${where}: ${issues.map((i) => `${i.field}: ${i.message}`).join('; ')}`, issues);
  }
  return parsed.data;
}

/** Parses a path parameter that must be a positive integer id. */
export function idParam(value: string, name: string): number {
  return parseWith(z.coerce.number().int().positive(), value, `${name} (must be a positive integer)`);
}
