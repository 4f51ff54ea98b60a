import crypto from 'node:crypto';
import type pg from 'pg';
import type { PrismaClient } from '../db/generated/client';
import { Role } from '../db/generated/enums';
import { createUser } from '../auth/users';
import { importKnowledgeBase } from '../ingest/importer';
import { memorySource, type InMemoryKnowledgeBase } from '../ingest/memory-source';
import { importQueries } from '../queries/import';
import { buildDemoCatalogue } from './catalogue';
import { DEMO_QUERY_SET, demoQueries } from './queries';
import { seedDemoWork } from './seed-work';

export const DEMO_USERS = [
  { email: 'admin@demo.local', role: Role.ADMIN, name: 'Demo Admin' },
  { email: 'curator@demo.local', role: Role.CURATOR, name: 'Demo Curator' },
  { email: 'annotator@demo.local', role: Role.ANNOTATOR, name: 'Demo Annotator' },
  { email: 'rater@demo.local', role: Role.RATER, name: 'Demo Rater' },
] as const;

export const DEMO_PRIVATE_SLUG = 'demo-brand-registry';

export interface DemoResult {
  knowledgeBases: { slug: string; entities: number; edges: number; loaded: boolean }[];
  users: { email: string; role: Role; password: string | null }[];
}

/**
 * The public product catalogue, plus a private brand registry (its brands and categories) that only
 * admins and its members see, so access control is visible in the demo.
 */
interface DemoKnowledgeBase extends InMemoryKnowledgeBase {
  slug: string;
  name: string;
  description: string;
  source: string;
  license: string;
  visibility: 'PUBLIC' | 'PRIVATE';
}

export function demoKnowledgeBases(): DemoKnowledgeBase[] {
  const catalogue = buildDemoCatalogue();
  const keep = new Set(catalogue.entities.filter((e) => e.type === 'brand' || e.type === 'category').map((e) => e.externalId));
  return [
    { ...catalogue, visibility: 'PUBLIC' },
    {
      slug: DEMO_PRIVATE_SLUG,
      name: 'Demo brand registry (private)',
      description: 'Brands and the category tree of the demo catalogue, visible only to admins and members.',
      source: catalogue.source,
      license: catalogue.license,
      visibility: 'PRIVATE',
      entities: catalogue.entities.filter((e) => keep.has(e.externalId)),
      edges: catalogue.edges.filter((e) => keep.has(e.source) && keep.has(e.target)),
    },
  ];
}

/**
 * Loads what is missing of the demo: knowledge bases not yet present and the four demo accounts.
 * New accounts get `password` or a random one; existing accounts keep theirs (reported as null).
 */
export async function seedDemo(pool: pg.Pool, db: PrismaClient, opts: { password?: string; replace?: boolean } = {}): Promise<DemoResult> {
  const result: DemoResult = { knowledgeBases: [], users: [] };
  for (const kb of demoKnowledgeBases()) {
    const exists = await db.knowledgeBase.findUnique({ where: { slug: kb.slug }, select: { id: true } });
    const load = !exists || opts.replace;
    if (load) {
      const { entities, edges, ...meta } = kb;
      await importKnowledgeBase(pool, memorySource({ entities, edges }, kb.slug), { ...meta, format: 'demo', files: [], replace: opts.replace });
    }
    result.knowledgeBases.push({ slug: kb.slug, entities: kb.entities.length, edges: kb.edges.length, loaded: !!load });
  }
  for (const u of DEMO_USERS) {
    const existing = await db.user.findUnique({ where: { email: u.email }, select: { id: true } });
    if (existing) {
      result.users.push({ email: u.email, role: u.role, password: null });
      continue;
    }
    const password = opts.password ?? crypto.randomBytes(9).toString('base64url');
    await createUser(db, { email: u.email, password, role: u.role, name: u.name });
    result.users.push({ email: u.email, role: u.role, password });
  }
  await grantCuratorThePrivateKb(db);
  await seedDemoQuerySet(pool);
  await seedDemoWork(pool, buildDemoCatalogue().slug);
  return result;
}

/** The demo query set on the public catalogue, if it is not there yet. */
async function seedDemoQuerySet(pool: pg.Pool): Promise<void> {
  const present = await pool.query('SELECT 1 FROM query_set WHERE name = $1', [DEMO_QUERY_SET]);
  const kb = await pool.query<{ id: number }>('SELECT id FROM knowledge_base WHERE slug = $1', [buildDemoCatalogue().slug]);
  if (present.rows.length || !kb.rows[0]) return;
  const records = demoQueries(buildDemoCatalogue()).map((q, i) => ({ ...q, at: { file: 'demo', line: i + 1 } }));
  await importQueries(pool, (async function* () { yield* records; })(), {
    kbId: kb.rows[0].id, setName: DEMO_QUERY_SET, origin: 'synthesized', unknownIds: 'reject', userId: null, sourceName: 'the demo generator',
    description: 'Questions generated from the demo catalogue, each asking for the products two relations share.', license: 'CC0-1.0',
  });
}

async function grantCuratorThePrivateKb(db: PrismaClient): Promise<void> {
  const [kb, curator] = await Promise.all([
    db.knowledgeBase.findUnique({ where: { slug: DEMO_PRIVATE_SLUG }, select: { id: true } }),
    db.user.findUnique({ where: { email: 'curator@demo.local' }, select: { id: true } }),
  ]);
  if (!kb || !curator) return;
  await db.kbMember.upsert({
    where: { kbId_userId: { kbId: kb.id, userId: curator.id } },
    create: { kbId: kb.id, userId: curator.id },
    update: {},
  });
}
