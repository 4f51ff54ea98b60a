import { expect } from '@playwright/test';
import { test } from './fixtures';
import { can } from '../lib/auth/roles';
import { fillPattern, loadRouteTable, paramKind, type ApiRoute, type Method, type RouteMethod } from './route-table';
import {
  BOGUS_TOKEN, caseKey, CALLERS, disposeSecurityFixtures, harmlessUrl, KB_SLUG, KNOWN_PARAM_KINDS, MUTATIONS, send,
  setUpSecurityFixtures, type Caller, type KbKey, type SecurityFixtures,
} from './security-setup';

/**
 * Who may call what, for every route of the API: route files x methods x callers (anonymous, each role, and an
 * outsider curator who is no member of the private knowledge base) x the public and the private knowledge base.
 * The expected answer follows from the route's guard and the access rules, not from a list per route; the few
 * finer rules are the exceptions below, each with its reason. Mutations are sent so that they change nothing.
 */

const ROUTES = loadRouteTable();
const KB_HIDDEN = /^No knowledge base/;
const NO_SUCH_KB = 'no-such-kb-for-security-tests';

type Expectation = { status: number[]; error?: RegExp; why?: string } | 'allowed';

const ASSIGNMENT_WORK = ['GET /api/assignments/[id]', 'PUT /api/assignments/[id]/draft', 'POST /api/assignments/[id]/candidates',
  'POST /api/assignments/[id]/judgments', 'POST /api/assignments/[id]/lease', 'POST /api/assignments/[id]/skip', 'POST /api/assignments/[id]/submit'];
const KB_ACCESS = ['PATCH /api/kbs/[slug]', 'GET /api/kbs/[slug]/members', 'POST /api/kbs/[slug]/members', 'DELETE /api/kbs/[slug]/members/[userId]'];
const IMPORT_JOB = ['GET /api/imports/[id]', 'GET /api/imports/[id]/errors', 'POST /api/imports/[id]/cancel'];

/** Rules finer than role and visibility, for callers who pass both. */
function exception(key: string, method: Method, caller: Caller, kb: KbKey | null, f: SecurityFixtures): Expectation | undefined {
  if (ASSIGNMENT_WORK.includes(key)) {
    return { status: [404], error: /of yours/, why: "an assignment is its annotator's alone; to anyone else it does not exist" };
  }
  if (key === 'GET /api/assignments/[id]/difficulty' && !can(caller.role!, 'queries:manage')) {
    return { status: [404], error: /of yours/, why: "an annotator sees only their own assignment's difficulty; reviewers see any they can review" };
  }
  if (key === 'POST /api/campaigns/[id]/claim') return { status: [403], error: /not an annotator/, why: 'only the campaign\'s annotators claim seeds' };
  if (KB_ACCESS.includes(key) && caller.role === 'CURATOR' && !f.members[kb!].has(caller.email!)) {
    // A mutation's invalid body may be refused first; either way nothing changes.
    return { status: method === 'GET' ? [403] : [400, 403], why: "curators manage only the knowledge bases they are members of" };
  }
  if (IMPORT_JOB.includes(key) && caller.role === 'CURATOR' && !(f.importKb && f.members[f.importKb].has(caller.email!))) {
    return { status: [404], error: /No import job/, why: 'an import job is seen by its creator, admins and its knowledge base\'s curators' };
  }
  return undefined;
}

function expectation(route: ApiRoute, rm: RouteMethod, caller: Caller, kb: KbKey | null, url: string, f: SecurityFixtures): Expectation {
  if (rm.guard.kind === 'token') {
    // The session plays no part: the token in the path is the only key.
    if (!url.includes(BOGUS_TOKEN)) return 'allowed';
    // A mutation's invalid body may be refused before the token is looked up; that tells nothing either.
    return { status: rm.method === 'GET' ? [404] : [400, 404], why: 'an unknown token' };
  }
  if (caller.role === null) return { status: [401] };
  if (!can(caller.role, rm.guard.permission)) return { status: [403] };
  if (kb === 'private' && !caller.seesPrivate) return { status: [404], error: KB_HIDDEN, why: 'the same as a knowledge base that does not exist' };
  return exception(caseKey(rm.method, route), rm.method, caller, kb, f) ?? 'allowed';
}

interface Answer {
  status: number;
  error: string;
}

async function call(caller: Caller, method: Method, url: string): Promise<Answer> {
  const res = await send(caller.request, method, url);
  const text = await res.text();
  let error = text.slice(0, 200);
  try {
    error = String((JSON.parse(text) as { error?: unknown }).error ?? error);
  } catch {
    // not JSON: keep the text
  }
  return { status: res.status(), error };
}

function judge(expected: Expectation, got: Answer): string | null {
  if (got.status >= 500) return `server error ${got.status}`;
  if (expected === 'allowed') {
    if (got.status === 401 || got.status === 403) return `refused with ${got.status}`;
    if (got.status === 404 && KB_HIDDEN.test(got.error)) return 'knowledge base hidden from a caller who sees it';
    return null;
  }
  if (!expected.status.includes(got.status)) return `expected ${expected.status.join('/')}${expected.why ? ` (${expected.why})` : ''}, got ${got.status}`;
  if (expected.error && !expected.error.test(got.error)) return `expected an error matching ${expected.error}, got "${got.error}"`;
  return null;
}

/** The knowledge bases and tokens a route x method is called with; each with every caller is one case. */
function variants(route: ApiRoute, rm: RouteMethod): { kb: KbKey | null; bogusToken: boolean }[] {
  const kbs: (KbKey | null)[] = route.params.includes('slug') ? ['public', 'private'] : [null];
  const rule = MUTATIONS[caseKey(rm.method, route)];
  // Token routes: also an unknown token, unless the real one is already replaced (the route would act on it).
  const aimedElsewhere = typeof rule === 'object' && 'token' in rule.params;
  const tokens = rm.guard.kind === 'token' && !aimedElsewhere ? [false, true] : [false];
  return kbs.flatMap((kb) => tokens.map((bogusToken) => ({ kb, bogusToken })));
}

const CASES = ROUTES.reduce((n, route) => n + route.methods.reduce((m, rm) => m + variants(route, rm).length * CALLERS.length, 0), 0);

let f: SecurityFixtures;

test.describe('authorization matrix', () => {
  test.beforeAll(async ({ playwright }) => {
    test.setTimeout(120_000);
    f = await setUpSecurityFixtures(playwright);
  });
  test.afterAll(async () => disposeSecurityFixtures(f));

  test('every route file is classified', () => {
    console.log(`authorization matrix: ${CASES} cases over ${ROUTES.length} route files`);
    test.info().annotations.push({ type: 'cases', description: String(CASES) });
    expect(CASES).toBeGreaterThan(300);
    const problems: string[] = [];
    const keys = new Set<string>();
    for (const route of ROUTES) {
      for (const param of route.params) {
        if (!KNOWN_PARAM_KINDS.includes(paramKind(route.pattern, param))) problems.push(`${route.file}: no fixture for [${param}]`);
      }
      for (const { method } of route.methods) {
        keys.add(caseKey(method, route));
        if (method !== 'GET' && !MUTATIONS[caseKey(method, route)]) {
          problems.push(`${route.file}: ${method} is not in MUTATIONS (say how a call is kept from changing anything)`);
        }
      }
    }
    for (const key of Object.keys(MUTATIONS)) if (!keys.has(key)) problems.push(`MUTATIONS names ${key}, which no route has`);
    expect(problems).toEqual([]);
  });

  for (const route of ROUTES) {
    for (const rm of route.methods) {
      const key = caseKey(rm.method, route);
      test(key, async () => {
        const runs: Promise<string | null>[] = [];
        for (const { kb, bogusToken } of variants(route, rm)) {
          const url = bogusToken ? fillPattern(route.pattern, { token: BOGUS_TOKEN }) : harmlessUrl(f, route, rm.method, kb ?? 'public');
          for (const name of CALLERS) {
            const caller = f.callers[name];
            const expected = expectation(route, rm, caller, kb, url, f);
            runs.push((async () => {
              const got = await call(caller, rm.method, url);
              let problem = judge(expected, got);
              if (!problem && expected !== 'allowed' && expected.error === KB_HIDDEN) {
                // A hidden knowledge base must answer exactly as one that does not exist.
                const missing = await call(caller, rm.method, url.replace(new RegExp(`/${KB_SLUG.private}(?=/|$)`), `/${NO_SUCH_KB}`));
                const same = (a: Answer, slug: string) => `${a.status} ${a.error.split(slug).join('<slug>')}`;
                if (same(got, KB_SLUG.private) !== same(missing, NO_SUCH_KB)) problem = `answers "${same(got, KB_SLUG.private)}" where a missing one answers "${same(missing, NO_SUCH_KB)}"`;
              }
              return problem && `${name}${kb ? `@${kb}` : ''} ${url}: ${problem} [${got.status} ${got.error.slice(0, 120)}]`;
            })());
          }
        }
        const problems = (await Promise.all(runs)).filter((p): p is string => p !== null);
        expect(problems, key).toEqual([]);
      });
    }
  }

  test('the assignment owner reaches their own assignment', async () => {
    const res = await f.owner.get(`/api/assignments/${f.assignmentId}`);
    expect(res.status(), await res.text()).toBe(200);
  });
});
