import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createCampaign } from '../../lib/authoring/campaigns';
import type { SessionUser } from '../../lib/auth/session';
import { createUser } from '../../lib/auth/users';
import { Role } from '../../lib/auth/roles';
import { createRelease } from '../../lib/queries/releases';
import { getQuerySet } from '../../lib/queries/sets';
import { createStudy } from '../../lib/studies/create';
import { db, openAppDatabase, pool } from '../support/app-database';
import { importIbd } from '../support/primekg-ibd';
import type { TestDatabase } from '../support/test-database';

// The routes run as they do in the app, for whoever `currentUser` says is signed in.
const session = vi.hoisted(() => ({ user: null as SessionUser | null }));
vi.mock('../../lib/auth/session', () => ({ currentUser: async () => session.user }));

/**
 * Someone who cannot see a private knowledge base must get, for its slug and the names and ids of what is in it
 * (query sets, releases, campaigns, studies), exactly the answer a made-up name gets: same status, same body.
 * The only difference allowed is the requested name itself, which some messages repeat back.
 */
const PRIVATE = { slug: 'ibd-private', set: 'secret-set' };
const MADE_UP = { slug: 'no-such-kb', set: 'no-such-set' };
const MADE_UP_ID = 2_000_000_000;

let testDb: TestDatabase;
let campaignId: number;
let studyId: number;

beforeAll(async () => {
  testDb = await openAppDatabase();
  const kbId = await importIbd(pool(), PRIVATE.slug);
  const curator = (await createUser(db(), { email: 'insider@example.org', password: 'a long password', role: Role.CURATOR })).id;
  const { rows: [set] } = await pool().query<{ id: number }>(`INSERT INTO query_set (kb_id, name, origin) VALUES ($1, $2, 'HUMAN') RETURNING id`, [kbId, PRIVATE.set]);
  await pool().query(`INSERT INTO query (set_id, external_id, position, text, answer_ids) SELECT $1, n::text, n, 'Which gene is linked to Crohn disease?', ARRAY['144'] FROM generate_series(0, 4) n`, [set!.id]);
  await createRelease(pool(), await getQuerySet(pool(), kbId, PRIVATE.set), { name: 'IBD', slug: PRIVATE.slug }, { name: 'first', userId: curator });
  campaignId = (await createCampaign(pool(), kbId, { name: 'secret-campaign', guidelines: 'g', annotatorsPerSeed: 1, leaseMinutes: 60, leakPolicy: 'warn', querySet: 'secret-campaign-queries', annotatorIds: [curator], open: true },
    { mode: 'random', count: 2, seed: 1 }, curator)).id;
  studyId = (await createStudy(pool(), kbId, { name: 'secret-study', sources: [{ querySet: PRIVATE.set }], itemsPerParticipant: 2, participantsPerItem: 1, open: true }, curator)).id;
  await pool().query(`UPDATE knowledge_base SET visibility = 'PRIVATE' WHERE id = $1`, [kbId]);
});
afterAll(async () => testDb.drop());

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

async function answer(method: string, file: string, params: Record<string, string>, query = '', body?: unknown): Promise<{ status: number; body: string }> {
  const route = (await import(`../../app/api/${file}/route`)) as Record<string, Handler>;
  const path = file.replace(/\[(\w+)\]/g, (_, p: string) => encodeURIComponent(params[p] ?? p));
  const req = new Request(`http://localhost/api/${path}${query}`, {
    method, ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
  });
  const res = await route[method]!(req, { params: Promise.resolve(params) });
  return { status: res.status, body: await res.text() };
}

/** The answer with the requested names and ids written as placeholders, so answers for different names compare. */
function shape(a: { status: number; body: string }, names: Record<string, string | number>): { status: number; body: string } {
  let body = a.body;
  for (const [key, value] of Object.entries(names)) body = body.replaceAll(String(value), `<${key}>`);
  return { status: a.status, body };
}

const SET_ROUTES: [string, string, string?, unknown?][] = [
  ['GET', 'kbs/[slug]/query-sets/[name]'],
  ['DELETE', 'kbs/[slug]/query-sets/[name]'],
  ['GET', 'kbs/[slug]/query-sets/[name]/queries'],
  ['GET', 'kbs/[slug]/query-sets/[name]/stats'],
  ['GET', 'kbs/[slug]/query-sets/[name]/export', '?format=stark&for=spreadsheet'],
  ['GET', 'kbs/[slug]/query-sets/[name]/export', '?format=jsonl'],
  ['GET', 'kbs/[slug]/query-sets/[name]/releases'],
  ['POST', 'kbs/[slug]/query-sets/[name]/releases', '', { name: 'again' }],
  ['GET', 'kbs/[slug]/query-sets/[name]/releases/[number]'],
  ['GET', 'kbs/[slug]/query-sets/[name]/releases/[number]/download'],
  ['GET', 'kbs/[slug]/query-sets/[name]/runs'],
  ['GET', 'kbs/[slug]/query-sets/[name]/diff', '?a=1&b=1'],
  ['GET', 'kbs/[slug]/query-sets/[name]/compare', '?a=1&b=2'],
  ['POST', 'kbs/[slug]/query-sets/[name]/validation-campaign', '', { name: 'probe', querySet: 'probe-queries', annotators: ['outsider@example.org'] }],
];
const KB_ROUTES: [string, string, string?, unknown?][] = [
  ['GET', 'kbs/[slug]'],
  ['PATCH', 'kbs/[slug]', '', { visibility: 'PUBLIC' }],
  ['GET', 'kbs/[slug]/stats'],
  ['GET', 'kbs/[slug]/members'],
  ['POST', 'kbs/[slug]/members', '', { email: 'outsider@example.org' }],
  ['GET', 'kbs/[slug]/query-sets'],
  ['GET', 'kbs/[slug]/campaigns'],
  ['GET', 'kbs/[slug]/studies'],
  ['POST', 'kbs/[slug]/studies', '', { name: 'probe', sources: [{ querySet: PRIVATE.set }], itemsPerParticipant: 1, participantsPerItem: 1 }],
  ['GET', 'kbs/[slug]/autocomplete', '?q=SMAD'],
  ['GET', 'kbs/[slug]/search', '?q=SMAD3'],
  ['GET', 'kbs/[slug]/lookup', '?id=144'],
  ['GET', 'kbs/[slug]/entities/[id]'],
  ['GET', 'kbs/[slug]/metapaths/schema'],
];

describe('an outsider learns nothing of a private knowledge base\'s names', () => {
  beforeAll(async () => {
    const outsider = await createUser(db(), { email: 'outsider@example.org', password: 'a long password', role: Role.CURATOR });
    session.user = outsider;
  });

  it('answers its slug exactly as a made-up slug, on every knowledge-base route', async () => {
    for (const [method, file, query, body] of KB_ROUTES) {
      const real = await answer(method, file, { slug: PRIVATE.slug, id: '1' }, query, body);
      const fake = await answer(method, file, { slug: MADE_UP.slug, id: '1' }, query, body);
      expect(real.status, `${method} ${file}`).toBe(404);
      expect(shape(real, { slug: PRIVATE.slug }), `${method} ${file}`).toEqual(shape(fake, { slug: MADE_UP.slug }));
    }
  });

  it('answers its query set names and release numbers exactly as made-up ones', async () => {
    for (const [method, file, query, body] of SET_ROUTES) {
      const answers = await Promise.all([
        answer(method, file, { slug: PRIVATE.slug, name: PRIVATE.set, number: '1' }, query, body),
        answer(method, file, { slug: PRIVATE.slug, name: MADE_UP.set, number: '1' }, query, body),
        answer(method, file, { slug: MADE_UP.slug, name: PRIVATE.set, number: '1' }, query, body),
      ]);
      expect(answers[0]!.status, `${method} ${file}`).toBe(404);
      const shapes = answers.map((a, i) => shape(a, { slug: i === 2 ? MADE_UP.slug : PRIVATE.slug, set: i === 1 ? MADE_UP.set : PRIVATE.set }));
      expect(shapes[1], `${method} ${file}`).toEqual(shapes[0]);
      expect(shapes[2], `${method} ${file}`).toEqual(shapes[0]);
    }
  });

  it('answers its campaigns and studies exactly as ids that do not exist', async () => {
    const routes: [string, string, number, unknown?][] = [
      ['GET', 'campaigns/[id]', campaignId], ['PATCH', 'campaigns/[id]', campaignId, { status: 'CLOSED' }], ['POST', 'campaigns/[id]/claim', campaignId],
      ['GET', 'campaigns/[id]/stats', campaignId], ['GET', 'campaigns/[id]/review', campaignId],
      ['GET', 'studies/[id]', studyId], ['GET', 'studies/[id]/results', studyId], ['GET', 'studies/[id]/export', studyId], ['GET', 'studies/[id]/participants', studyId],
    ];
    for (const [method, file, id, body] of routes) {
      const query = file === 'studies/[id]/export' ? '?format=ratings-csv' : '';
      const real = await answer(method, file, { id: String(id) }, query, body);
      const fake = await answer(method, file, { id: String(MADE_UP_ID) }, query, body);
      expect(real.status, `${method} ${file}`).toBe(404);
      expect(shape(real, { id }), `${method} ${file}`).toEqual(shape(fake, { id: MADE_UP_ID }));
    }
  });

  it('says of its slug, to a curator importing under it, only that the slug is taken', async () => {
    for (const replace of [false, true]) {
      const res = await answer('POST', 'imports', {}, '', { slug: PRIVATE.slug, format: 'native', uploads: ['0123456789abcdef0123456789abcdef'], replace });
      expect({ status: res.status, error: (JSON.parse(res.body) as { error: string }).error }).toEqual({ status: 409, error: `The slug "${PRIVATE.slug}" is taken; choose another` });
    }
  });
});
