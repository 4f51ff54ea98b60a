import { expect, type APIRequestContext, type PlaywrightWorkerArgs } from '@playwright/test';
import { ADMIN, ANNOTATOR, apiContext, CURATOR, PRIVATE_KB, PUBLIC_KB, RATER, TEST_PASSWORD, uniqueEmail } from './fixtures';
import { fillPattern, paramKind, type ApiRoute, type Method } from './route-table';
import type { Role } from '../lib/auth/roles';
import { DEMO_QUERY_SET } from '../lib/demo/queries';

/**
 * What the security specs share: the callers, the real ids they fill routes with, and how each mutation is made
 * harmless. The fixtures are made once per spec file, each under names of its own, so the specs depend neither on
 * each other nor on the order of their tests.
 */

export type CallerName = 'anonymous' | 'rater' | 'annotator' | 'curator' | 'admin' | 'outsider';
export const CALLERS: readonly CallerName[] = ['anonymous', 'rater', 'annotator', 'curator', 'admin', 'outsider'];

export interface Caller {
  name: CallerName;
  role: Role | null;
  /** Sees the private knowledge base: admins and its members (the demo curator). */
  seesPrivate: boolean;
  email: string | undefined;
  request: APIRequestContext;
}

export type KbKey = 'public' | 'private';
export const KB_SLUG: Record<KbKey, string> = { public: PUBLIC_KB.slug, private: PRIVATE_KB.slug };

export interface SecurityFixtures {
  callers: Record<CallerName, Caller>;
  /** The annotator of the suite's own campaign, who holds `assignmentId`. */
  owner: APIRequestContext;
  outsiderId: number;
  perKb: Record<KbKey, { entityId: number; otherEntityId: number; querySet: string; qid: string; runId: number }>;
  campaignId: number;
  assignmentId: number;
  seedEntityId: number;
  studyId: number;
  participantToken: string;
  importId: number;
  /** The knowledge base of the import `importId` (null without one). */
  importKb: KbKey | null;
  /** The members' emails of each knowledge base. */
  members: Record<KbKey, Set<string>>;
  cookies: Record<CallerName, string>;
}

/** An id no row has and that still fits the database's int4 ids: a missing row, not bad input. */
export const MISSING_ID = '2147483000';
export const MISSING_NAME = 'no-such-name-for-security-tests';
export const BOGUS_TOKEN = 'not-a-real-token-000000000000000000000000';

const ROLE_OF: Record<CallerName, Role | null> = {
  anonymous: null, rater: 'RATER', annotator: 'ANNOTATOR', curator: 'CURATOR', admin: 'ADMIN', outsider: 'CURATOR',
};

async function json<T>(res: Awaited<ReturnType<APIRequestContext['get']>>, status = 200): Promise<T> {
  expect(res.status(), `${res.url()}: ${await res.text()}`).toBe(status);
  return (await res.json()) as T;
}

export async function setUpSecurityFixtures(playwright: PlaywrightWorkerArgs['playwright']): Promise<SecurityFixtures> {
  const admin = await apiContext(playwright, ADMIN);
  const tag = Date.now().toString(36);

  // The outsider: a curator (the strongest role short of admin) who is no member of the private knowledge base.
  // The owner: the only annotator of the suite's campaign, so nobody else in the matrix owns its assignment.
  const outsiderEmail = uniqueEmail('security-outsider');
  const ownerEmail = uniqueEmail('security-owner');
  const outsider = await json<{ id: number }>(await admin.post('/api/users', { data: { email: outsiderEmail, password: TEST_PASSWORD, role: 'CURATOR' } }), 201);
  await json(await admin.post('/api/users', { data: { email: ownerEmail, password: TEST_PASSWORD, role: 'ANNOTATOR' } }), 201);

  const callers = {} as Record<CallerName, Caller>;
  const emails: Record<CallerName, string | undefined> = {
    anonymous: undefined, rater: RATER, annotator: ANNOTATOR, curator: CURATOR, admin: ADMIN, outsider: outsiderEmail,
  };
  const cookies = {} as Record<CallerName, string>;
  for (const name of CALLERS) {
    const request = name === 'admin' ? admin : await apiContext(playwright, emails[name]);
    callers[name] = { name, role: ROLE_OF[name], seesPrivate: name === 'admin' || name === 'curator', email: emails[name], request };
    cookies[name] = (await request.storageState()).cookies.map((c) => `${c.name}=${c.value}`).join('; ');
  }
  const owner = await apiContext(playwright, ownerEmail);

  const perKb = {} as SecurityFixtures['perKb'];
  const members = {} as SecurityFixtures['members'];
  for (const kb of ['public', 'private'] as const) {
    const slug = KB_SLUG[kb];
    members[kb] = new Set((await json<{ members: { email: string }[] }>(await admin.get(`/api/kbs/${slug}/members`))).members.map((m) => m.email));
    const { hubs } = await json<{ hubs: { id: number }[] }>(await admin.get(`/api/kbs/${slug}/stats`));
    // Other specs add query sets (some empty) to the same knowledge bases: the demo's set first, else any with a query.
    const sets = await json<{ items: { name: string }[] }>(await admin.get(`/api/kbs/${slug}/query-sets`));
    const names = sets.items.map((set) => set.name).sort((a, b) => Number(b === DEMO_QUERY_SET) - Number(a === DEMO_QUERY_SET));
    let querySet = MISSING_NAME;
    let qid = MISSING_NAME;
    let runId = Number(MISSING_ID);
    for (const name of names) {
      const queries = await json<{ items: { id: string }[] }>(await admin.get(`/api/kbs/${slug}/query-sets/${encodeURIComponent(name)}/queries?limit=1`));
      if (!queries.items[0]) continue;
      [querySet, qid] = [name, queries.items[0].id];
      runId = (await json<{ id: number }>(await admin.post(`/api/kbs/${slug}/query-sets/${name}/runs/baseline`, { data: {} }), 202)).id;
      break;
    }
    perKb[kb] = { entityId: hubs[0]!.id, otherEntityId: hubs[1]!.id, querySet, qid, runId };
  }

  const campaign = await json<{ id: number }>(await admin.post(`/api/kbs/${PUBLIC_KB.slug}/campaigns`, {
    data: { name: `security-${tag}`, annotatorsPerSeed: 1, querySet: `security-${tag}-queries`, annotators: [ownerEmail], seeds: { mode: 'random', count: 1, types: ['product'], seed: 3 } },
  }), 201);
  const { assignment } = await json<{ assignment: { id: number; entityId: number } }>(await owner.post(`/api/campaigns/${campaign.id}/claim`));

  const study = await json<{ id: number }>(await admin.post(`/api/kbs/${PUBLIC_KB.slug}/studies`, {
    data: { name: `security-${tag}`, consent: 'I agree.', sources: [{ querySet: perKb.public.querySet, sample: 4 }], itemsPerParticipant: 2, participantsPerItem: 1, open: true },
  }), 201);
  const { tokens } = await json<{ tokens: string[] }>(await admin.post(`/api/studies/${study.id}/links`, { data: { count: 1 } }), 201);

  // An import job of a demo knowledge base that none of the signed-in callers but the admin created (other specs
  // import as the curator), so who may see it follows from the knowledge base's members alone.
  const { jobs } = await json<{ jobs: { id: number; kbSlug: string | null; createdBy: string | null }[] }>(await admin.get('/api/imports?limit=100'));
  const job = jobs.find((j) => Object.values(KB_SLUG).includes(j.kbSlug ?? '') && (j.createdBy === null || j.createdBy === ADMIN));
  const importKb = (['public', 'private'] as const).find((kb) => KB_SLUG[kb] === job?.kbSlug) ?? null;

  return {
    callers, owner, outsiderId: outsider.id, perKb, cookies,
    campaignId: campaign.id, assignmentId: assignment.id, seedEntityId: assignment.entityId,
    studyId: study.id, participantToken: tokens[0]!, importId: job?.id ?? Number(MISSING_ID), importKb, members,
  };
}

export async function disposeSecurityFixtures(f: SecurityFixtures): Promise<void> {
  await Promise.all([...Object.values(f.callers).map((c) => c.request.dispose()), f.owner.dispose()]);
}

/** The real value for each kind of path parameter (see `paramKind`), per knowledge base. */
export function paramValues(f: SecurityFixtures, route: ApiRoute, kb: KbKey): Record<string, string> {
  const values: Record<string, string> = {};
  const byKind: Record<string, string> = {
    slug: KB_SLUG[kb],
    'entities/id': String(f.perKb[kb].entityId),
    'runs/id': String(f.perKb[kb].runId),
    name: f.perKb[kb].querySet,
    qid: f.perKb[kb].qid,
    // The demo has no releases: an absent one still shows whether the knowledge base is reached.
    number: '1',
    'assignments/id': String(f.assignmentId),
    'campaigns/id': String(f.campaignId),
    entityId: String(f.seedEntityId),
    // The suite's campaign is no audit: its item 1 is missing, which still shows whether the campaign is reached.
    item: '1',
    'imports/id': String(f.importId),
    'studies/id': String(f.studyId),
    'users/id': String(f.outsiderId),
    userId: String(f.outsiderId),
    // The suite calls no LLM: a missing call still shows whether the knowledge base is reached.
    'llm-calls/id': MISSING_ID,
    // The suite starts no synthesis job: a missing one still shows whether the knowledge base is reached.
    'jobs/id': MISSING_ID,
    // The suite saves no graph view: a missing one still shows whether the knowledge base is reached.
    'views/id': MISSING_ID,
    token: f.participantToken,
  };
  for (const param of route.params) {
    const value = byKind[paramKind(route.pattern, param)];
    if (value === undefined) throw new Error(`${route.file}: no fixture value for [${param}] (add one to paramValues)`);
    values[param] = value;
  }
  return values;
}

/** Every kind of path parameter `paramValues` fills: a route with another is unclassified. */
export const KNOWN_PARAM_KINDS = ['slug', 'entities/id', 'runs/id', 'name', 'qid', 'number', 'assignments/id', 'campaigns/id', 'entityId', 'item', 'imports/id', 'studies/id', 'users/id', 'userId', 'token', 'jobs/id', 'llm-calls/id', 'views/id'];
export const ID_PARAM_KINDS = new Set(['entities/id', 'runs/id', 'number', 'assignments/id', 'campaigns/id', 'entityId', 'item', 'imports/id', 'studies/id', 'users/id', 'userId', 'jobs/id', 'llm-calls/id', 'views/id']);

/**
 * How each mutation is kept from changing anything. 'body': an invalid JSON body is refused before any change.
 * Otherwise the route reads no body, so it is aimed at something that makes it refuse: the path values listed
 * replace the real ones (a missing row, or the suite's own campaign, which none of the callers annotates).
 */
export const MUTATIONS: Record<string, 'body' | { params: Record<string, string>; why: string }> = {
  'POST /api/assignments/[id]/approve': 'body',
  'PUT /api/assignments/[id]/audit': 'body',
  'POST /api/assignments/[id]/audit/approve': 'body',
  'POST /api/assignments/[id]/audit/submit': { params: {}, why: "the suite's assignment belongs to none of the callers" },
  'POST /api/assignments/[id]/candidates': 'body',
  'PUT /api/assignments/[id]/draft': 'body',
  'POST /api/assignments/[id]/judgments': 'body',
  'POST /api/assignments/[id]/lease': { params: {}, why: "the suite's assignment belongs to none of the callers" },
  'POST /api/assignments/[id]/return': 'body',
  'POST /api/assignments/[id]/skip': 'body',
  'POST /api/assignments/[id]/submit': 'body',
  'POST /api/campaigns/[id]/claim': { params: {}, why: "none of the callers annotates the suite's campaign" },
  'PATCH /api/campaigns/[id]': 'body',
  'POST /api/imports/[id]/cancel': { params: {}, why: 'the demo import has ended: nothing to cancel' },
  'POST /api/imports': 'body',
  'POST /api/join/[token]': { params: { token: BOGUS_TOKEN }, why: 'a valid study link makes a participant' },
  'POST /api/kbs/[slug]/campaigns': 'body',
  'POST /api/kbs/[slug]/embeddings': 'body',
  'DELETE /api/kbs/[slug]/members/[userId]': { params: {}, why: 'the outsider is a member of no knowledge base' },
  'POST /api/kbs/[slug]/members': 'body',
  'POST /api/kbs/[slug]/metapaths/evaluate': 'body',
  'PATCH /api/kbs/[slug]/query-sets/[name]/queries/[qid]': 'body',
  'POST /api/kbs/[slug]/query-sets/[name]/releases': 'body',
  'DELETE /api/kbs/[slug]/query-sets/[name]': { params: { name: MISSING_NAME }, why: 'deleting is its whole action' },
  'DELETE /api/kbs/[slug]/query-sets/[name]/runs/[id]': { params: { id: MISSING_ID }, why: 'deleting is its whole action' },
  'POST /api/kbs/[slug]/query-sets/[name]/runs/baseline': 'body',
  'POST /api/kbs/[slug]/query-sets/[name]/runs': 'body',
  'POST /api/kbs/[slug]/query-sets/[name]/validation-campaign': 'body',
  'POST /api/kbs/[slug]/query-sets/[name]/audit-campaign': 'body',
  'POST /api/kbs/[slug]/query-sets': 'body',
  'PATCH /api/kbs/[slug]': 'body',
  'POST /api/kbs/[slug]/studies': 'body',
  'POST /api/kbs/[slug]/synthesis/jobs': 'body',
  'DELETE /api/kbs/[slug]/synthesis/jobs/[id]': { params: { id: MISSING_ID }, why: 'cancelling is its whole action' },
  'POST /api/kbs/[slug]/synthesis/jobs/[id]/resume': { params: { id: MISSING_ID }, why: 'resuming is its whole action' },
  'POST /api/kbs/[slug]/synthesis/preview': 'body',
  'POST /api/kbs/[slug]/views': 'body',
  'PATCH /api/kbs/[slug]/views/[id]': 'body',
  'DELETE /api/kbs/[slug]/views/[id]': { params: { id: MISSING_ID }, why: 'deleting is its whole action' },
  'POST /api/participate/[token]/consent': { params: { token: BOGUS_TOKEN }, why: 'consenting is its whole action' },
  'POST /api/participate/[token]/finish': { params: { token: BOGUS_TOKEN }, why: 'finishing is its whole action' },
  'POST /api/participate/[token]/start': { params: { token: BOGUS_TOKEN }, why: 'starting is its whole action' },
  'PUT /api/participate/[token]/ratings': 'body',
  'PUT /api/studies/[id]/crowd': 'body',
  'POST /api/studies/[id]/links': 'body',
  'POST /api/studies/[id]/model-raters': 'body',
  'DELETE /api/studies/[id]/model-raters': { params: { id: MISSING_ID }, why: "cancelling a model's rating is its whole action" },
  'POST /api/studies/[id]/me/consent': { params: { id: MISSING_ID }, why: 'consenting is its whole action' },
  'POST /api/studies/[id]/me/finish': { params: { id: MISSING_ID }, why: 'finishing is its whole action' },
  'POST /api/studies/[id]/me/start': { params: { id: MISSING_ID }, why: 'starting is its whole action' },
  'PUT /api/studies/[id]/me/ratings': 'body',
  'PATCH /api/studies/[id]': 'body',
  'POST /api/studies/[id]/study-link': { params: { id: MISSING_ID }, why: 'a new study link replaces the old one' },
  'PUT /api/uploads': 'body',
  'PATCH /api/users/[id]': 'body',
  'PUT /api/users/[id]/password': 'body',
  'DELETE /api/users/[id]/sessions': { params: { id: MISSING_ID }, why: "ending a user's sessions is its whole action" },
  'POST /api/users': 'body',
};

/** A body every JSON schema of the API refuses (they all take objects), and no file reader takes. */
export const INVALID_BODY = '[]';

export function caseKey(method: Method, route: ApiRoute): string {
  return `${method} ${route.pattern}`;
}

/** The URL of a harmless call: real ids, except where `MUTATIONS` aims the route elsewhere. */
export function harmlessUrl(f: SecurityFixtures, route: ApiRoute, method: Method, kb: KbKey): string {
  const rule = method === 'GET' ? undefined : MUTATIONS[caseKey(method, route)];
  return fillPattern(route.pattern, { ...paramValues(f, route, kb), ...(typeof rule === 'object' ? rule.params : {}) });
}

/** Sends a call as the caller: mutations carry `INVALID_BODY` unless a body is given. */
export function send(request: APIRequestContext, method: Method, url: string, body: string = INVALID_BODY) {
  const data = method === 'GET' ? undefined : body;
  return request.fetch(url, { method, data, headers: data === undefined ? {} : { 'content-type': 'application/json' }, failOnStatusCode: false, maxRedirects: 0 });
}
