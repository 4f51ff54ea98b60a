import fs from 'node:fs';
import path from 'node:path';
import type { Permission } from '../lib/auth/roles';

/**
 * The JSON API as its route files declare it, read from the source so the security suite covers every route
 * there is, including routes added after the suite was written.
 */

export const METHODS = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'] as const;
export type Method = (typeof METHODS)[number];

/** How a route decides who may call it: a signed-in role with a permission, or a secret token in the path. */
export type Guard = { kind: 'session'; permission: Permission } | { kind: 'token' };

export interface RouteMethod {
  method: Method;
  guard: Guard;
}

export interface ApiRoute {
  /** The file, relative to the project root. */
  file: string;
  /** The URL with Next.js's dynamic segments: `/api/kbs/[slug]/entities/[id]`. */
  pattern: string;
  /** The names of the dynamic segments, in path order. */
  params: string[];
  methods: RouteMethod[];
  /** Reads its query string, or parses a JSON body with `readJson` (some method of the file does). */
  readsQuery: boolean;
  readsJson: boolean;
}

/** next-auth's own handlers: the sign-in flow, tested by the sign-in specs. */
const SKIPPED = ['app/api/auth/[...nextauth]/route.ts'];

const EXPORTED = new RegExp(`export\\s+(?:const|async\\s+function|function)\\s+(${METHODS.join('|')})\\b([^\\n]*)`, 'g');
// `apiRoute<{ id: string }>('kb:browse', ...)`, also with the permission in an options object first.
const SESSION_GUARD = /^\s*=\s*apiRoute\s*(?:<[^(]*>)?\(\s*(?:\{[^}]*?permission:\s*)?'([a-z]+:[a-z]+)'/;
const TOKEN_GUARD = /^\s*=\s*publicRoute\s*(?:<[^(]*>)?\(/;

/**
 * The methods a route file exports and their guards. A method whose guard cannot be read is an error: a route
 * that does not go through `apiRoute` or `publicRoute` skips the session, permission and CSRF checks.
 */
export function parseRouteSource(source: string, file = 'route.ts'): RouteMethod[] {
  const methods: RouteMethod[] = [];
  for (const [, method, rest] of source.matchAll(EXPORTED)) {
    const session = SESSION_GUARD.exec(rest!);
    if (session) methods.push({ method: method as Method, guard: { kind: 'session', permission: session[1] as Permission } });
    else if (TOKEN_GUARD.test(rest!)) methods.push({ method: method as Method, guard: { kind: 'token' } });
    else throw new Error(`${file}: ${method} is not wrapped in apiRoute('permission', ...) or publicRoute(...)`);
  }
  return methods;
}

/** `app/api/kbs/[slug]/route.ts` -> `/api/kbs/[slug]`. */
export function routePattern(file: string): string {
  return '/' + path.posix.dirname(file.split(path.sep).join('/')).replace(/^app\//, '');
}

export function routeParams(pattern: string): string[] {
  return [...pattern.matchAll(/\[([^\]/]+)\]/g)].map((m) => m[1]!);
}

/** Every API route file under `app/api` (next-auth's excepted), sorted by path. */
export function loadRouteTable(root: string = process.cwd()): ApiRoute[] {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = path.posix.join(dir, entry.name);
      if (entry.isDirectory()) walk(rel);
      else if (entry.name === 'route.ts' && !SKIPPED.includes(rel)) files.push(rel);
    }
  };
  walk('app/api');
  return files.sort().map((file) => {
    const pattern = routePattern(file);
    const source = fs.readFileSync(path.join(root, file), 'utf8');
    return {
      file, pattern, params: routeParams(pattern), methods: parseRouteSource(source, file),
      readsQuery: source.includes('searchParams'), readsJson: source.includes('readJson('),
    };
  });
}

/** `/api/kbs/[slug]/entities/[id]` with `{ slug: 'a b', id: '7' }` -> `/api/kbs/a%20b/entities/7`; values are encoded. */
export function fillPattern(pattern: string, values: Record<string, string>, raw: Record<string, string> = {}): string {
  return pattern.replace(/\[([^\]/]+)\]/g, (_m, name: string) => {
    if (name in raw) return raw[name]!;
    const value = values[name];
    if (value === undefined) throw new Error(`${pattern}: no value for [${name}]`);
    return encodeURIComponent(value);
  });
}

/**
 * What a path parameter names, from its name and the segment before it: `[id]` after `entities` is an entity,
 * after `runs` a run. The fill tables of the security specs are keyed by this.
 */
export function paramKind(pattern: string, param: string): string {
  const segments = pattern.split('/');
  const at = segments.indexOf(`[${param}]`);
  return param === 'id' ? `${segments[at - 1]}/id` : param;
}
