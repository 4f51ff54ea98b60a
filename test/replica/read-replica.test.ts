import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SessionUser } from '../../lib/auth/session';
import { Role } from '../../lib/auth/roles';
import { createUser } from '../../lib/auth/users';
import { closeDb, db, pool, readPool } from '../../lib/db/client';
import { migrate } from '../../lib/db/migrate';
import { importIbd } from '../support/primekg-ibd';
import { startReplicatedCluster, type ReplicatedCluster } from '../support/replica';
import * as kbRoute from '../../app/api/kbs/[slug]/route';
import * as statsRoute from '../../app/api/kbs/[slug]/stats/route';
import * as schemaRoute from '../../app/api/kbs/[slug]/metapaths/schema/route';
import * as metapathRoute from '../../app/api/kbs/[slug]/metapaths/evaluate/route';
import * as entityRoute from '../../app/api/kbs/[slug]/entities/[id]/route';
import * as retrieverTextRoute from '../../app/api/kbs/[slug]/entities/[id]/retriever-text/route';
import * as neighboursRoute from '../../app/api/kbs/[slug]/entities/[id]/neighbours/route';
import * as lookupRoute from '../../app/api/kbs/[slug]/lookup/route';
import * as graphRoute from '../../app/api/kbs/[slug]/graph/route';
import * as pathsRoute from '../../app/api/kbs/[slug]/paths/route';
import * as searchRoute from '../../app/api/kbs/[slug]/search/route';

// The routes run as they do in the app, for whoever `currentUser` says is signed in.
const session = vi.hoisted(() => ({ user: null as SessionUser | null }));
vi.mock('../../lib/auth/session', () => ({ currentUser: async () => session.user }));

/**
 * The explorer's reads on a real streaming replica: a primary and a hot standby started for this file, the app
 * pointed at both (DATABASE_URL, DATABASE_READ_URL), the PrimeKG IBD graph imported on the primary.
 */
let cluster: ReplicatedCluster;
let kbId: number;
/** Crohn disease, renamed on the primary while the replica does not replay, and a low-degree neighbour of it. */
const CROHN = '37784';
let crohn: { id: number; name: string };
let neighbour: number;
/** The relation of an edge from Crohn disease to that neighbour. */
let relation: string;
const NEW_NAME = 'Renamed on the primary';
const NEW_TYPE = 'renamed_on_primary';

beforeAll(async () => {
  cluster = await startReplicatedCluster();
  await migrate(cluster.primaryUrl);
  process.env.DATABASE_URL = cluster.primaryUrl;
  process.env.DATABASE_READ_URL = cluster.replicaUrl;
  kbId = await importIbd(pool(), 'ibd');
  session.user = await createUser(db(), { email: 'reader@example.org', password: 'a long password', role: Role.ANNOTATOR });
  const { rows: [c] } = await pool().query<{ id: number; name: string }>('SELECT id, name FROM entity WHERE kb_id = $1 AND external_id = $2', [kbId, CROHN]);
  crohn = c!;
  const { rows: [n] } = await pool().query<{ id: number; relation: string }>(
    `SELECT e.id, r.name AS relation FROM edge x JOIN entity e ON e.kb_id = x.kb_id AND e.id = x.target_id JOIN edge_type r ON r.id = x.type_id
      WHERE x.kb_id = $1 AND x.source_id = $2 ORDER BY e.degree, e.id LIMIT 1`, [kbId, crohn.id]);
  ({ id: neighbour, relation } = n!);
  await cluster.waitForReplay();
}, 120_000);

afterAll(async () => {
  await closeDb();
  delete process.env.DATABASE_URL;
  delete process.env.DATABASE_READ_URL;
  await cluster?.stop();
});

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
// Imported statically: a computed dynamic import is one the bundler cannot follow.
const ROUTES: Record<string, Record<string, unknown>> = {
  'kbs/[slug]': kbRoute,
  'kbs/[slug]/stats': statsRoute,
  'kbs/[slug]/metapaths/schema': schemaRoute,
  'kbs/[slug]/metapaths/evaluate': metapathRoute,
  'kbs/[slug]/entities/[id]': entityRoute,
  'kbs/[slug]/entities/[id]/retriever-text': retrieverTextRoute,
  'kbs/[slug]/entities/[id]/neighbours': neighboursRoute,
  'kbs/[slug]/lookup': lookupRoute,
  'kbs/[slug]/graph': graphRoute,
  'kbs/[slug]/paths': pathsRoute,
  'kbs/[slug]/search': searchRoute,
};

/** Calls an API route as the app would; returns the status and the body as text. */
async function call(method: 'GET' | 'POST', file: string, params: Record<string, string>, query = '', body?: unknown): Promise<{ status: number; text: string }> {
  const url = `http://localhost/api/${file.replace(/\[(\w+)\]/g, (_, p: string) => params[p]!)}${query}`;
  const init = body === undefined ? { method } : { method, body: JSON.stringify(body), headers: { 'content-type': 'application/json' } };
  const res = await (ROUTES[file]![method] as Handler)(new Request(url, init), { params: Promise.resolve(params) });
  return { status: res.status, text: await res.text() };
}

interface ExplorerRead {
  route: string;
  /** What the answer names: Crohn disease, or its type. */
  names: 'entity' | 'type';
  read(): Promise<{ status: number; text: string }>;
}

/** Explorer routes whose answers name Crohn disease or its type (`diseaseType`, as the server reading it calls it). */
function explorerReads(diseaseType: string): ExplorerRead[] {
  const slug = 'ibd';
  const id = String(crohn.id);
  const toCrohn = { start: { entity: neighbour }, steps: [{ relation, direction: 'in', targetType: diseaseType }] };
  return [
    { route: 'knowledge base', names: 'type', read: () => call('GET', 'kbs/[slug]', { slug }) },
    { route: 'stats', names: 'type', read: () => call('GET', 'kbs/[slug]/stats', { slug }) },
    { route: 'metapath schema', names: 'type', read: () => call('GET', 'kbs/[slug]/metapaths/schema', { slug }) },
    { route: 'entity', names: 'entity', read: () => call('GET', 'kbs/[slug]/entities/[id]', { slug, id }) },
    { route: 'retriever text', names: 'entity', read: () => call('GET', 'kbs/[slug]/entities/[id]/retriever-text', { slug, id: String(neighbour) }) },
    { route: 'neighbours', names: 'entity', read: () => call('GET', 'kbs/[slug]/entities/[id]/neighbours', { slug, id: String(neighbour) }) },
    { route: 'lookup', names: 'entity', read: () => call('GET', 'kbs/[slug]/lookup', { slug }, `?id=${CROHN}`) },
    { route: 'graph', names: 'entity', read: () => call('GET', 'kbs/[slug]/graph', { slug }, `?entity=${id}&hops=1&budget=20`) },
    { route: 'paths', names: 'entity', read: () => call('GET', 'kbs/[slug]/paths', { slug }, `?from=${id}&to=${neighbour}&hops=1`) },
    { route: 'metapath', names: 'entity', read: () => call('POST', 'kbs/[slug]/metapaths/evaluate', { slug }, '', { paths: [toCrohn] }) },
  ];
}

describe('explorer reads on a streaming replica', () => {
  it('reads through the replica, which is in recovery, and writes through the primary', async () => {
    const [read] = (await readPool().query<{ recovery: boolean; app: string }>(`SELECT pg_is_in_recovery() AS recovery, current_setting('application_name') AS app`)).rows;
    const [write] = (await pool().query<{ recovery: boolean }>('SELECT pg_is_in_recovery() AS recovery')).rows;
    expect(read).toEqual({ recovery: true, app: 'skb-read' });
    expect(write!.recovery).toBe(false);
    // The import made on the primary arrived whole.
    const count = 'SELECT count(*)::int AS n FROM edge WHERE kb_id = $1';
    expect((await readPool().query(count, [kbId])).rows[0]).toEqual((await pool().query(count, [kbId])).rows[0]);
  });

  it('builds the missing ranking index on the primary and then ranks with it on the replica', async () => {
    // The import built it; without it (as after a build that failed at import) search builds it on first use.
    await pool().query('DELETE FROM bm25_index WHERE kb_id = $1', [kbId]);
    await cluster.waitForReplay();
    const warn = vi.spyOn(console, 'warn');
    const first = await call('GET', 'kbs/[slug]/search', { slug: 'ibd' }, '?q=inflammation%20of%20the%20bowel');
    expect(first.status).toBe(200);
    expect(JSON.parse(first.text).ranking).toBe('fulltext');
    const ready = async () => (await pool().query(`SELECT 1 FROM bm25_index WHERE kb_id = $1 AND status = 'READY'`, [kbId])).rowCount === 1;
    for (let i = 0; i < 450 && !(await ready()); i++) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await ready()).toBe(true);
    await cluster.waitForReplay();
    const again = JSON.parse((await call('GET', 'kbs/[slug]/search', { slug: 'ibd' }, '?q=inflammation%20of%20the%20bowel')).text);
    expect(again.ranking).toBe('bm25');
    expect(again.hits.length).toBeGreaterThan(0);
    expect(warn.mock.calls.flat().join('\n')).not.toMatch(/BM25|read-only/);
    warn.mockRestore();
  });

  it('answers every explorer read from the replica, never the primary, and sees the primary\'s writes once replayed', async () => {
    await cluster.pauseReplay();
    await pool().query('UPDATE entity SET name = $3 WHERE kb_id = $1 AND id = $2', [kbId, crohn.id, NEW_NAME]);
    await pool().query(`UPDATE node_type SET name = $2 WHERE kb_id = $1 AND name = 'disease'`, [kbId, NEW_TYPE]);

    // The primary holds the new names; every explorer answer still has the old ones the replica holds.
    for (const { route, names, read } of explorerReads('disease')) {
      const { status, text } = await read();
      expect(status, `${route}: ${text}`).toBe(200);
      expect(text, route).toContain(names === 'type' ? '"disease"' : crohn.name);
      expect(text, route).not.toContain(NEW_NAME);
      expect(text, route).not.toContain(NEW_TYPE);
    }
    const { rows: onPrimary } = await pool().query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'skb-read'`);
    expect(onPrimary[0]!.n).toBe(0);

    await cluster.resumeReplay();
    await cluster.waitForReplay();
    for (const { route, names, read } of explorerReads(NEW_TYPE)) {
      const { status, text } = await read();
      expect(status, `${route}: ${text}`).toBe(200);
      expect(text, route).toContain(names === 'type' ? NEW_TYPE : NEW_NAME);
    }
  });

  it('refuses a write sent to the read pool, on the replica and even on a writable server', async () => {
    const write = () => readPool().query('UPDATE entity SET name = name WHERE kb_id = $1 AND id = $2', [kbId, crohn.id]);
    await expect(write()).rejects.toMatchObject({ code: '25006' });
    // DATABASE_READ_URL naming the primary: the read pool's sessions are still read-only.
    await closeDb();
    process.env.DATABASE_READ_URL = cluster.primaryUrl;
    expect((await readPool().query<{ recovery: boolean }>('SELECT pg_is_in_recovery() AS recovery')).rows[0]!.recovery).toBe(false);
    await expect(write()).rejects.toMatchObject({ code: '25006' });
  });
});
