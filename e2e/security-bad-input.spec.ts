import http from 'node:http';
import { expect } from '@playwright/test';
import { ADMIN, BASE_URL, submitLogin, test, TEST_PASSWORD } from './fixtures';
import { fillPattern, loadRouteTable, paramKind, type ApiRoute, type Method, type RouteMethod } from './route-table';
import {
  caseKey, disposeSecurityFixtures, ID_PARAM_KINDS, KB_SLUG, MUTATIONS, paramValues, setUpSecurityFixtures, type SecurityFixtures,
} from './security-setup';

/**
 * Hostile input to every route and method, as a caller who may call it: NUL bytes, ids past the database's int4,
 * lone surrogates, malformed, oversized and NUL-laden bodies. The contract: a 4xx that fits (400 naming the
 * field, 404, 413, 415), never a 5xx, never a hang. Then control characters in the sign-in return address, and
 * a 100 MB body to the anonymous rating route.
 */

const ROUTES = loadRouteTable();

/** Query strings the routes take, by method and route, with ordinary values; each is spoilt one parameter at a time. */
const QUERY: Record<string, Record<string, string>> = {
  'GET /api/imports': { limit: '5' },
  'PUT /api/uploads': { name: 'security.txt' },
  'GET /api/kbs/[slug]/search': { q: 'tent', type: 'product', limit: '5', offset: '0' },
  'GET /api/kbs/[slug]/autocomplete': { q: 'te', limit: '5' },
  'GET /api/kbs/[slug]/lookup': { id: '1' },
  'GET /api/kbs/[slug]/graph': { entity: '1', hops: '1', dir: 'both', budget: '50' },
  'GET /api/kbs/[slug]/paths': { from: '1', to: '2', hops: '2' },
  'GET /api/kbs/[slug]/entities/[id]/neighbours': { limit: '10' },
  'GET /api/kbs/[slug]/entities/[id]/neighbours/list': { relation: 'x', direction: 'out', sort: 'name', limit: '5' },
  'GET /api/kbs/[slug]/entities/[id]/retriever-text': { max: '5' },
  'GET /api/kbs/[slug]/query-sets/[name]/queries': { split: 'test', q: 'x', limit: '5', offset: '0' },
  'GET /api/kbs/[slug]/query-sets/[name]/stats': { release: '1' },
  'GET /api/kbs/[slug]/query-sets/[name]/export': { format: 'jsonl' },
  'GET /api/kbs/[slug]/query-sets/[name]/compare': { a: '1', b: '2', groupBy: 'origin' },
  'GET /api/kbs/[slug]/query-sets/[name]/diff': { from: '1', to: '2', limit: '5' },
  'POST /api/kbs/[slug]/query-sets/[name]/runs': { file: 'run.jsonl', format: 'jsonl', release: '1' },
  'GET /api/kbs/[slug]/query-sets/[name]/runs/[id]': { groupBy: 'origin' },
  'GET /api/kbs/[slug]/query-sets/[name]/runs/[id]/queries': { split: 'test', sort: 'position', limit: '5' },
  'GET /api/kbs/[slug]/query-sets/[name]/releases/[number]/download': { formats: 'jsonl' },
  'GET /api/kbs/[slug]/synthesis/templates': { seedType: 'product', answerType: 'product', steps: '1', measure: '1', limit: '5', offset: '0', seed: '1' },
  'GET /api/studies/[id]/export': { format: 'ratings-csv', excludeFailed: '1' },
  'GET /api/studies/[id]/results': { excludeFailed: '1' },
  'DELETE /api/studies/[id]/model-raters': { model: 'no-such-model' },
};
/** Query parameters that are ids or counts the database compares with integers. */
const QUERY_NUMBERS = new Set(['limit', 'offset', 'id', 'entity', 'budget', 'hops', 'from', 'to', 'release', 'a', 'b', 'max']);

const NUL = 'a\u0000b';
const BIG_IDS = ['2147483648', '99999999999999999999'];
const LONE_SURROGATES = ['%ED%A0%80', '%uD800'];
const BODY_KEYS = ['name', 'text', 'note', 'reason', 'email', 'q', 'guidelines', 'instructions', 'description', 'status', 'visibility', 'role'];
const MB = 1 << 20;

interface Answer {
  status: number;
  text: string;
  ms: number;
}

/** A raw HTTP call (a declared length, a streamed body, an early answer), with a deadline: no answer is a hang. */
function raw(method: string, url: string, opts: { cookie?: string; body?: Buffer; declaredLength?: number; streamBytes?: number; timeoutMs?: number }): Promise<Answer> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { 'content-type': 'application/json' };
    if (opts.cookie) headers.cookie = opts.cookie;
    if (opts.declaredLength !== undefined) headers['content-length'] = opts.declaredLength;
    else if (opts.body) headers['content-length'] = opts.body.length;
    const req = http.request(new URL(url, BASE_URL), { method, headers });
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error(`${method} ${url}: no answer within ${opts.timeoutMs ?? 15_000} ms`));
    }, opts.timeoutMs ?? 15_000);
    let answered = false;
    req.on('response', (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8'), ms: Date.now() - started });
        req.destroy();
      });
    });
    // The server may answer and close before the body is through; that is the point, not an error.
    req.on('error', (err) => {
      if (!answered) {
        clearTimeout(timer);
        reject(err);
      }
    });
    if (opts.body) {
      req.end(opts.body);
    } else if (opts.streamBytes !== undefined) {
      const chunk = Buffer.alloc(MB, 'a');
      let sent = 0;
      const pump = (): void => {
        while (!answered && !req.destroyed && sent < opts.streamBytes!) {
          sent += chunk.length;
          if (!req.write(chunk)) {
            req.once('drain', pump);
            return;
          }
        }
        if (sent >= opts.streamBytes! && !req.destroyed) req.end();
      };
      pump();
    } else if (opts.declaredLength !== undefined) {
      // Declared but never sent: the server must not wait for it.
      req.write(Buffer.alloc(1024, 'a'));
    } else {
      req.end();
    }
  });
}

function withQuery(url: string, query: Record<string, string>): string {
  const qs = new URLSearchParams(query).toString();
  return qs ? `${url}?${qs}` : url;
}

/** A 400 must say which field was wrong: in `details` or in the message. */
function namesField(text: string, fields: string[]): boolean {
  try {
    const body = JSON.parse(text) as { error?: string; details?: { field?: string }[] };
    // "entity id" names [entityId] too.
    const plain = (t: string) => t.toLowerCase().replace(/[^a-z0-9]/g, '');
    const said = plain([body.error ?? '', ...(body.details ?? []).map((d) => d.field ?? '')].join(' '));
    return fields.some((f) => said.includes(plain(f)));
  } catch {
    return false;
  }
}

interface Case {
  label: string;
  method: Method;
  url: string;
  body?: Buffer;
  declaredLength?: number;
  streamBytes?: number;
  timeoutMs?: number;
  /** The field a 400 must name (none for input without one, like malformed JSON). */
  fields?: string[];
}

/** The cases of a route and method, with `values` in its path (the real ones, or placeholders to count them). */
function casesFor(route: ApiRoute, rm: RouteMethod, realValues: Record<string, string>): Case[] {
  const { method } = rm;
  const rule = method === 'GET' ? undefined : MUTATIONS[caseKey(method, route)];
  const values = { ...realValues, ...(typeof rule === 'object' ? rule.params : {}) };
  const query = QUERY[caseKey(method, route)] ?? {};
  const base = withQuery(fillPattern(route.pattern, values), query);
  const cases: Case[] = [];

  for (const param of route.params) {
    const kind = paramKind(route.pattern, param);
    const at = (rawValue: string) => withQuery(fillPattern(route.pattern, values, { [param]: rawValue }), query);
    const fields = [param, kind.replace('/', ' ')];
    if (ID_PARAM_KINDS.has(kind)) for (const id of BIG_IDS) cases.push({ label: `[${param}]=${id}`, method, url: at(id), fields });
    else cases.push({ label: `[${param}] with NUL`, method, url: at(encodeURIComponent(NUL)), fields });
    for (const s of LONE_SURROGATES) cases.push({ label: `[${param}]=${s}`, method, url: at(s), fields: [...fields, 'path'] });
  }

  const path = fillPattern(route.pattern, values);
  for (const key of Object.keys(query)) {
    cases.push({ label: `?${key} with NUL`, method, url: withQuery(path, { ...query, [key]: NUL }), fields: [key] });
    if (QUERY_NUMBERS.has(key)) for (const id of BIG_IDS) cases.push({ label: `?${key}=${id}`, method, url: withQuery(path, { ...query, [key]: id }), fields: [key] });
  }

  if (rule === 'body') {
    // Over every limit, file uploads' included; refused by the header alone, so it must answer at once.
    cases.push({ label: 'Content-Length of 4 GiB', method, url: base, declaredLength: 4 * 1024 * MB, timeoutMs: 5_000 });
    // Routes that take a file as the body (uploads, run files) take large and non-JSON bodies by design.
    if (route.readsJson) {
      cases.push({ label: 'malformed JSON', method, url: base, body: Buffer.from('{"name": "x", ') });
      cases.push({ label: '20 MB body', method, url: base, streamBytes: 20 * MB, declaredLength: 20 * MB });
      const nul = Object.fromEntries(BODY_KEYS.map((k) => [k, NUL]));
      cases.push({ label: 'NUL in string fields', method, url: base, body: Buffer.from(JSON.stringify({ ...nul, items: [{ text: NUL }] })), fields: [...BODY_KEYS, 'items'] });
      const big = Object.fromEntries(BODY_KEYS.map((k) => [k, 'x'.repeat(MB)]));
      cases.push({ label: '1 MB string fields', method, url: base, body: Buffer.from(JSON.stringify(big)), fields: BODY_KEYS });
    }
  }
  return cases;
}

const CASES = ROUTES.reduce((n, route) => n + route.methods.reduce(
  (m, rm) => m + casesFor(route, rm, Object.fromEntries(route.params.map((p) => [p, '1']))).length, 0), 0);

let f: SecurityFixtures;

test.describe('bad input', () => {
  test.beforeAll(async ({ playwright }) => {
    test.setTimeout(120_000);
    f = await setUpSecurityFixtures(playwright);
  });
  test.afterAll(async () => disposeSecurityFixtures(f));

  test('every route that reads its query string has ordinary values to spoil', () => {
    console.log(`bad input: ${CASES} cases over ${ROUTES.length} route files`);
    test.info().annotations.push({ type: 'cases', description: String(CASES) });
    const covered = (r: ApiRoute) => r.methods.some((m) => QUERY[caseKey(m.method, r)]);
    expect(ROUTES.filter((r) => r.readsQuery && !covered(r)).map((r) => r.file)).toEqual([]);
    expect(Object.keys(QUERY).filter((key) => !ROUTES.some((r) => r.methods.some((m) => caseKey(m.method, r) === key)))).toEqual([]);
  });

  for (const route of ROUTES) {
    for (const rm of route.methods) {
      test(`${caseKey(rm.method, route)}`, async () => {
        // The annotator's own work needs its annotator; everything else the admin (token routes ignore sessions).
        const cookie = rm.guard.kind === 'session' && rm.guard.permission === 'campaigns:annotate'
          ? (await f.owner.storageState()).cookies.map((c) => `${c.name}=${c.value}`).join('; ')
          : f.cookies.admin;
        const list = casesFor(route, rm, paramValues(f, route, 'public'));
        const problems: string[] = [];
        // Bounded concurrency: a few at a time, the big bodies one by one.
        const small = list.filter((c) => !c.streamBytes);
        for (let i = 0; i < small.length; i += 6) {
          await Promise.all(small.slice(i, i + 6).map(async (c) => problems.push(...check(c, await attempt(c, cookie)))));
        }
        for (const c of list.filter((x) => x.streamBytes)) problems.push(...check(c, await attempt(c, cookie)));
        expect(problems, caseKey(rm.method, route)).toEqual([]);
      });
    }
  }

  test('a return address with control characters or another origin stays on the app', async ({ page }) => {
    const origin = new URL(BASE_URL).origin;
    for (const callbackUrl of ['%2F%09%2Fevil.example%2Fphish', '%2F%0A%2Fevil', '%2F%5Cevil.example', encodeURIComponent('https://evil.example')]) {
      await page.context().clearCookies();
      const res = await page.goto(`/login?callbackUrl=${callbackUrl}`);
      expect(res?.status(), callbackUrl).toBeLessThan(500);
      await submitLogin(page, ADMIN, TEST_PASSWORD);
      await page.waitForURL((url) => !url.pathname.startsWith('/login') || url.origin !== origin, { timeout: 15_000 }).catch(() => undefined);
      expect(new URL(page.url()).origin, `after signing in with callbackUrl=${callbackUrl}`).toBe(origin);
      await expect(page.getByTestId('current-user')).toContainText(ADMIN);
    }
  });

  test('a saved graph view refuses a state over its limits, naming the field', async () => {
    const url = `/api/kbs/${KB_SLUG.public}/views`;
    const state = { entity: f.perKb.public.entityId, hops: 1, layout: 'cose' };
    const positions = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [String(i + 1), { x: i, y: -i }]));
    const cases: [string, unknown, string][] = [
      ['5,001 positions', { name: 'v', state: { ...state, positions: positions(5001) } }, 'state.positions'],
      ['a coordinate out of range', { name: 'v', state: { ...state, positions: { 1: { x: 1e12, y: 0 } } } }, 'state.positions.1.x'],
      ['a position key that names no node', { name: 'v', state: { ...state, positions: { '../x': { x: 1, y: 0 } } } }, 'state.positions'],
      ['a name of 101 characters', { name: 'x'.repeat(101), state }, 'name'],
      ['4 hops', { name: 'v', state: { ...state, hops: 4 } }, 'state.hops'],
      ['an unknown field', { name: 'v', state: { ...state, script: 'x' } }, 'state'],
    ];
    const problems: string[] = [];
    for (const [label, body, field] of cases) {
      const got = await raw('POST', url, { cookie: f.cookies.admin, body: Buffer.from(JSON.stringify(body)) });
      problems.push(...check({ label, method: 'POST', url, fields: [field] }, got));
      if (got.status !== 400) problems.push(`${label}: expected 400, got ${got.status}`);
    }
    // Nearly a megabyte of positions is over the route's 512 KiB limit.
    const big = await raw('POST', url, { cookie: f.cookies.admin, body: Buffer.from(JSON.stringify({ name: 'v', state: { ...state, positions: positions(30_000) } })) });
    if (big.status !== 413) problems.push(`a 30,000-node body: expected 413, got ${big.status}`);
    expect(problems).toEqual([]);
  });

  test('the anonymous rating route refuses 100 MB with a bogus token at once', async () => {
    const url = '/api/participate/bogus-token/ratings';
    const declared = await raw('PUT', url, { streamBytes: 100 * MB, declaredLength: 100 * MB, timeoutMs: 30_000 });
    expect(declared.status, declared.text).toBe(413);
    expect(declared.ms).toBeLessThan(5_000);
    // Without a Content-Length (chunked) the server must stop reading at its limit.
    const chunked = await raw('PUT', url, { streamBytes: 100 * MB, timeoutMs: 30_000 });
    expect(chunked.status, chunked.text).toBe(413);
    expect(chunked.ms).toBeLessThan(5_000);
  });
});

async function attempt(c: Case, cookie: string): Promise<Answer | Error> {
  try {
    return await raw(c.method, c.url, { cookie, body: c.body, declaredLength: c.declaredLength, streamBytes: c.streamBytes, timeoutMs: c.timeoutMs });
  } catch (err) {
    return err as Error;
  }
}

function check(c: Case, got: Answer | Error): string[] {
  const where = `${c.label} (${c.url.slice(0, 140)})`;
  if (got instanceof Error) return [`${where}: ${got.message}`];
  if (got.status >= 500) return [`${where}: ${got.status} ${got.text.slice(0, 160)}`];
  if (got.status < 400 || got.status === 401 || got.status === 403) return [`${where}: expected a 4xx refusal, got ${got.status} ${got.text.slice(0, 160)}`];
  if (got.status === 400 && c.fields && !namesField(got.text, c.fields)) return [`${where}: the 400 does not name ${c.fields.join('/')}: ${got.text.slice(0, 160)}`];
  return [];
}
