import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SessionUser } from '../../lib/auth/session';
import { createUser } from '../../lib/auth/users';
import { Role } from '../../lib/auth/roles';
import { DEMO_PRIVATE_SLUG, demoKnowledgeBases } from '../../lib/demo/seed';
import { importKnowledgeBase } from '../../lib/ingest/importer';
import { memorySource } from '../../lib/ingest/memory-source';
import { MAX_VIEWS_PER_OWNER, MAX_VIEW_POSITIONS, type SavedView, type SavedViewSummary } from '../../lib/kb/saved-views';
import { db, openAppDatabase, pool } from '../support/app-database';
import * as listRoute from '../../app/api/kbs/[slug]/views/route';
import * as oneRoute from '../../app/api/kbs/[slug]/views/[id]/route';
import type { TestDatabase } from '../support/test-database';

// The routes run as in the app, for whoever `currentUser` says is signed in.
const session = vi.hoisted(() => ({ user: null as SessionUser | null }));
vi.mock('../../lib/auth/session', () => ({ currentUser: async () => session.user }));

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
interface Answer { status: number; body: Record<string, unknown> }

async function call(as: SessionUser, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', slug: string, id?: number | string, body?: unknown): Promise<Answer> {
  session.user = as;
  const mod = (id === undefined ? listRoute : oneRoute) as unknown as Record<string, Handler>;
  const text = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
  const req = new Request(`http://localhost/api/kbs/${slug}/views${id === undefined ? '' : `/${id}`}`, {
    method, body: text, headers: text === undefined ? {} : { 'content-type': 'application/json' },
  });
  const res = await mod[method]!(req, { params: Promise.resolve<Record<string, string>>(id === undefined ? { slug } : { slug, id: String(id) }) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const PUBLIC = 'demo-catalogue';
let testDb: TestDatabase;
let owner: SessionUser;
let other: SessionUser;
let curator: SessionUser;
let admin: SessionUser;
let outsider: SessionUser;
let entity: number;
let privateEntity: number;

const state = (extra: Record<string, unknown> = {}) => ({
  entity, hops: 2, dir: 'out', rel: ['has_brand'], layout: 'cose', expand: [], selected: null,
  positions: { [entity]: { x: 10.5, y: -20 } }, ...extra,
});

beforeAll(async () => {
  testDb = await openAppDatabase();
  for (const kb of demoKnowledgeBases()) {
    const { entities, edges, ...meta } = kb;
    await importKnowledgeBase(pool(), memorySource({ entities, edges }, kb.slug), { ...meta, format: 'demo', files: [] });
  }
  const user = (email: string, role: Role) => createUser(db(), { email, password: 'a long password', role });
  owner = await user('owner@example.org', Role.ANNOTATOR);
  other = await user('other@example.org', Role.RATER);
  curator = await user('curator@example.org', Role.CURATOR);
  admin = await user('admin@example.org', Role.ADMIN);
  outsider = await user('outsider@example.org', Role.CURATOR);
  // The owner, the other reader and the curator read the private knowledge base; the outsider does not.
  await pool().query(
    `INSERT INTO kb_member (kb_id, user_id) SELECT k.id, u FROM knowledge_base k, unnest($2::int[]) u WHERE k.slug = $1`,
    [DEMO_PRIVATE_SLUG, [owner.id, other.id, curator.id]]);
  const first = (slug: string) => pool().query<{ id: number }>(
    'SELECT e.id FROM entity e JOIN knowledge_base k ON k.id = e.kb_id WHERE k.slug = $1 ORDER BY e.degree DESC, e.id LIMIT 1', [slug]);
  entity = (await first(PUBLIC)).rows[0]!.id;
  privateEntity = (await first(DEMO_PRIVATE_SLUG)).rows[0]!.id;
}, 120_000);
afterAll(async () => testDb?.drop());

/** A 400's fields, as the API names them. */
const fields = (a: Answer) => (a.body.details as { field: string }[] | undefined)?.map((d) => d.field) ?? [];

describe('saved graph views', () => {
  it('keeps the whole state, positions included, and lists it for its owner', async () => {
    const positions = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [String(entity + i), { x: i * 12.25, y: 100 - i }]));
    // A "+N more" stub is drawn where it was left too.
    positions[`stub:${entity}:in:has_brand`] = { x: -5, y: 7.5 };
    const created = await call(owner, 'POST', PUBLIC, undefined, { name: '  Brands around the hub ', state: state({ positions, expand: [entity], selected: entity }) });
    expect(created.status).toBe(201);
    const view = created.body as unknown as SavedView;
    expect(view).toMatchObject({ name: 'Brands around the hub', shared: false, mine: true, editable: true, entity, hops: 2, positions: 41 });
    expect(view.entityName).toEqual(expect.any(String));

    const got = (await call(owner, 'GET', PUBLIC, view.id)).body as unknown as SavedView;
    expect(got.state).toEqual({ entity, hops: 2, dir: 'out', rel: ['has_brand'], layout: 'cose', expand: [entity], selected: entity, positions });

    const list = (await call(owner, 'GET', PUBLIC)).body.items as SavedViewSummary[];
    expect(list.map((v) => v.name)).toEqual(['Brands around the hub']);
    expect(list[0]).not.toHaveProperty('state');
  });

  it('refuses bad input with a 400 naming the field', async () => {
    const bad = async (body: unknown, field: string) => {
      const a = await call(owner, 'POST', PUBLIC, undefined, body);
      expect(a.status, JSON.stringify(a.body)).toBe(400);
      expect(fields(a), JSON.stringify(a.body)).toContain(field);
    };
    await bad({ name: '   ', state: state() }, 'name');
    await bad({ name: 'x'.repeat(101), state: state() }, 'name');
    await bad({ name: 'tab\there', state: state() }, 'name');
    await bad({ name: 'a', state: state({ hops: 4 }) }, 'state.hops');
    await bad({ name: 'a', state: state({ dir: 'sideways' }) }, 'state.dir');
    await bad({ name: 'a', state: state({ layout: 'Not A Layout' }) }, 'state.layout');
    await bad({ name: 'a', state: state({ entity: 2_147_483_648 }) }, 'state.entity');
    await bad({ name: 'a', state: state({ positions: { abc: { x: 1, y: 1 } } }) }, 'state.positions.abc');
    await bad({ name: 'a', state: state({ positions: { 'stub:1:up:x': { x: 1, y: 1 } } }) }, 'state.positions.stub:1:up:x');
    await bad({ name: 'a', state: state({ positions: { [entity]: { x: 1e9, y: 1 } } }) }, `state.positions.${entity}.x`);
    await bad({ name: 'a', state: state({ positions: { [entity]: { x: 1, y: 1, z: 1 } } }) }, `state.positions.${entity}`);
    await bad({ name: 'a', state: state(), owner: 1 }, 'body');
    await bad({ name: 'a', state: state({ secret: true }) }, 'state');
    await bad({ name: 'a', state: state({ expand: Array.from({ length: 101 }, (_, i) => i + 1) }) }, 'state.expand');
    // An entity of another knowledge base (here the private one's) cannot be a view's centre.
    await bad({ name: 'a', state: state({ entity: privateEntity === entity ? 2_000_000_000 : privateEntity }) }, 'state.entity');
    await bad({ name: 'a', state: state({ entity: 2_000_000_000 }) }, 'state.entity');
    expect((await call(owner, 'POST', PUBLIC, undefined, '{"name": ')).status).toBe(400);
    await bad({}, 'name');
  });

  it(`keeps at most ${MAX_VIEW_POSITIONS.toLocaleString('en')} positions and refuses bodies over the route's limit`, async () => {
    const many = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [String(i + 1), { x: i, y: i }]));
    const started = performance.now();
    const full = await call(owner, 'POST', PUBLIC, undefined, { name: 'full', state: state({ positions: many(MAX_VIEW_POSITIONS) }) });
    const saved = performance.now();
    expect(full.status).toBe(201);
    expect(full.body.positions).toBe(MAX_VIEW_POSITIONS);
    const read = await call(owner, 'GET', PUBLIC, full.body.id as number);
    expect(Object.keys((read.body as unknown as SavedView).state.positions)).toHaveLength(MAX_VIEW_POSITIONS);
    console.log(`saved view of ${MAX_VIEW_POSITIONS} positions: save ${Math.round(saved - started)} ms, read ${Math.round(performance.now() - saved)} ms (load average ${os.loadavg()[0]!.toFixed(2)})`);
    const over = await call(owner, 'POST', PUBLIC, undefined, { name: 'over', state: state({ positions: many(MAX_VIEW_POSITIONS + 1) }) });
    expect(over.status).toBe(400);
    expect(over.body.error).toMatch(/state\.positions: must hold at most 5,000 nodes/);
    // Coordinates with long fractions make the body larger than any real view: refused before it is read.
    const huge = Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [String(i + 1), { x: 1 / 3 + i, y: 2 / 3 + i }]));
    const tooLarge = await call(owner, 'POST', PUBLIC, undefined, { name: 'huge', state: state({ positions: huge }), pad: 'x'.repeat(400_000) });
    expect(tooLarge.status).toBe(413);
    await call(owner, 'DELETE', PUBLIC, full.body.id as number);
  });

  it('keeps names unique per owner and knowledge base', async () => {
    const a = await call(owner, 'POST', PUBLIC, undefined, { name: 'Same name', state: state() });
    expect(a.status).toBe(201);
    const again = await call(owner, 'POST', PUBLIC, undefined, { name: 'Same name', state: state() });
    expect(again).toEqual({ status: 409, body: { error: 'You already have a view named "Same name" in this knowledge base' } });
    // Someone else, or another knowledge base, may use it.
    expect((await call(other, 'POST', PUBLIC, undefined, { name: 'Same name', state: state() })).status).toBe(201);
    expect((await call(owner, 'POST', DEMO_PRIVATE_SLUG, undefined, { name: 'Same name', state: state({ entity: privateEntity, positions: {} }) })).status).toBe(201);
    // Renaming into a taken name is refused the same way.
    const b = await call(owner, 'POST', PUBLIC, undefined, { name: 'Another', state: state() });
    const rename = await call(owner, 'PATCH', PUBLIC, b.body.id as number, { name: 'Same name' });
    expect(rename.status).toBe(409);
    expect((await call(owner, 'PATCH', PUBLIC, b.body.id as number, { name: 'Renamed' })).body.name).toBe('Renamed');
    expect((await call(owner, 'PATCH', PUBLIC, b.body.id as number, {})).status).toBe(400);
  });

  it(`keeps at most ${MAX_VIEWS_PER_OWNER} views per person and knowledge base`, async () => {
    const kb = await pool().query<{ id: number }>('SELECT id FROM knowledge_base WHERE slug = $1', [PUBLIC]);
    const { rows: [have] } = await pool().query<{ n: number }>('SELECT count(*)::int AS n FROM saved_graph_view WHERE owner_id = $1 AND kb_id = $2', [curator.id, kb.rows[0]!.id]);
    await pool().query(
      `INSERT INTO saved_graph_view (kb_id, owner_id, name, state) SELECT $1, $2, 'filler ' || i, $3 FROM generate_series(1, $4) i`,
      [kb.rows[0]!.id, curator.id, JSON.stringify(state()), MAX_VIEWS_PER_OWNER - have!.n]);
    const refused = await call(curator, 'POST', PUBLIC, undefined, { name: 'one too many', state: state() });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatch(/200 saved views/);
    await pool().query(`DELETE FROM saved_graph_view WHERE owner_id = $1 AND name LIKE 'filler %'`, [curator.id]);
  });

  it("hides an unshared view from everyone but its owner; a shared one opens for every reader, who cannot change it", async () => {
    const { body } = await call(owner, 'POST', PUBLIC, undefined, { name: 'To share', state: state() });
    const id = body.id as number;
    for (const who of [other, curator, admin]) {
      expect(await call(who, 'GET', PUBLIC, id)).toEqual({ status: 404, body: { error: `No saved view ${id} in this knowledge base` } });
      expect(((await call(who, 'GET', PUBLIC)).body.items as SavedViewSummary[]).some((v) => v.id === id)).toBe(false);
      expect((await call(who, 'PATCH', PUBLIC, id, { name: 'taken over' })).status).toBe(404);
      expect((await call(who, 'DELETE', PUBLIC, id)).status).toBe(404);
    }

    expect((await call(owner, 'PATCH', PUBLIC, id, { shared: true })).body).toMatchObject({ shared: true, name: 'To share' });
    const seen = await call(other, 'GET', PUBLIC, id);
    expect(seen.status).toBe(200);
    expect(seen.body).toMatchObject({ mine: false, editable: false, ownerName: 'owner@example.org', state: state() });
    const listed = ((await call(other, 'GET', PUBLIC)).body.items as SavedViewSummary[]);
    // Their own views first, then the shared ones.
    expect(listed.map((v) => v.mine)).toEqual([...listed.filter((v) => v.mine), ...listed.filter((v) => !v.mine)].map((v) => v.mine));
    expect(listed.find((v) => v.id === id)).toMatchObject({ mine: false, editable: false });

    expect(await call(other, 'PATCH', PUBLIC, id, { name: 'mine now' })).toEqual({ status: 403, body: { error: "Only the view's owner, a curator or an admin may change it" } });
    expect((await call(other, 'DELETE', PUBLIC, id)).status).toBe(403);
    expect((await call(owner, 'GET', PUBLIC, id)).body.name).toBe('To share');

    // A curator or an admin may change or delete a shared view.
    expect((await call(curator, 'PATCH', PUBLIC, id, { name: 'Tidied by the curator' })).body).toMatchObject({ name: 'Tidied by the curator', mine: false, editable: true });
    expect((await call(admin, 'PATCH', PUBLIC, id, { shared: false })).body).toMatchObject({ shared: false });
    expect((await call(other, 'GET', PUBLIC, id)).status).toBe(404);
    expect((await call(owner, 'PATCH', PUBLIC, id, { shared: true })).status).toBe(200);
    expect(await call(curator, 'DELETE', PUBLIC, id)).toEqual({ status: 200, body: { deleted: id } });
    expect((await call(owner, 'GET', PUBLIC, id)).status).toBe(404);
  });

  it("shows a private knowledge base's views only to those who read it, and never through another knowledge base", async () => {
    const { status, body } = await call(owner, 'POST', DEMO_PRIVATE_SLUG, undefined, { name: 'Private shared', state: state({ entity: privateEntity, positions: {} }), shared: true });
    expect(status).toBe(201);
    const id = body.id as number;
    expect((await call(other, 'GET', DEMO_PRIVATE_SLUG, id)).status).toBe(200);
    expect((await call(admin, 'GET', DEMO_PRIVATE_SLUG, id)).status).toBe(200);
    const hidden = { status: 404, body: { error: `No knowledge base "${DEMO_PRIVATE_SLUG}"` } };
    expect(await call(outsider, 'GET', DEMO_PRIVATE_SLUG, id)).toEqual(hidden);
    expect(await call(outsider, 'GET', DEMO_PRIVATE_SLUG)).toEqual(hidden);
    expect(await call(outsider, 'DELETE', DEMO_PRIVATE_SLUG, id)).toEqual(hidden);
    expect(await call(outsider, 'POST', DEMO_PRIVATE_SLUG, undefined, { name: 'x', state: state({ entity: privateEntity }) })).toEqual(hidden);
    // The same id through a knowledge base the outsider does read is no way round.
    expect((await call(outsider, 'GET', PUBLIC, id)).status).toBe(404);
    expect((await call(owner, 'GET', PUBLIC, id)).status).toBe(404);
  });

  it('refuses ids that cannot name a view', async () => {
    for (const id of ['abc', '0', '2147483648']) {
      const a = await call(owner, 'GET', PUBLIC, id);
      expect(a.status).toBe(400);
      expect(a.body.error).toMatch(/^Invalid id/);
    }
  });
});
