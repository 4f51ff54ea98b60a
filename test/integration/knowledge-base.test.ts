import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '../../lib/auth/roles';
import { buildDemoCatalogue } from '../../lib/demo/catalogue';
import { DEMO_PRIVATE_SLUG, seedDemo } from '../../lib/demo/seed';
import { importKnowledgeBase, type ImportOptions } from '../../lib/ingest/importer';
import { memorySource, type InMemoryKnowledgeBase } from '../../lib/ingest/memory-source';
import { getVisibleKb, listVisibleKbs } from '../../lib/kb/access';
import { getEntity, relationCounts } from '../../lib/kb/entity';
import { directNeighbourhood } from '../../lib/kb/neighbourhood';
import { addMember, canManageKb, removeMember, setVisibility } from '../../lib/kb/members';
import { db, openAppDatabase, pool } from '../support/app-database';
import type { TestDatabase } from '../support/test-database';

const catalogue = buildDemoCatalogue();

async function userId(email: string): Promise<{ id: number; role: Role }> {
  return db().user.findUniqueOrThrow({ where: { email }, select: { id: true, role: true } });
}

async function entityId(kbSlug: string, externalId: string): Promise<{ kbId: number; id: number }> {
  const kb = await db().knowledgeBase.findUniqueOrThrow({ where: { slug: kbSlug } });
  const e = await db().entity.findUniqueOrThrow({ where: { kbId_externalId: { kbId: kb.id, externalId } } });
  return { kbId: kb.id, id: e.id };
}

/** A fresh database with the demo loaded, for the describe block that calls it. */
function useDemoDatabase(): void {
  let testDb: TestDatabase;
  beforeAll(async () => {
    testDb = await openAppDatabase();
    await seedDemo(pool(), db(), { password: 'demo-Passw0rd-kb' });
  });
  afterAll(async () => {
    await testDb.drop();
  });
}

describe('knowledge bases: demo load, visibility and graph reads', () => {
  useDemoDatabase();

  it('loads the demo catalogue with every entity, edge, type and count', async () => {
    const kb = await db().knowledgeBase.findUniqueOrThrow({ where: { slug: 'demo-catalogue' }, include: { nodeTypes: true, edgeTypes: true } });
    expect(kb.entityCount).toBe(catalogue.entities.length);
    expect(Number(kb.edgeCount)).toBe(catalogue.edges.length);
    const typeCounts = Object.fromEntries(kb.nodeTypes.map((t) => [t.name, t.entityCount]));
    const expectedTypes: Record<string, number> = {};
    for (const e of catalogue.entities) expectedTypes[e.type] = (expectedTypes[e.type] ?? 0) + 1;
    expect(typeCounts).toEqual(expectedTypes);
    expect(kb.nodeTypes.length).toBeGreaterThanOrEqual(4);
    expect(kb.edgeTypes.length).toBeGreaterThanOrEqual(5);
    const triples = await db().schemaTriple.aggregate({ where: { kbId: kb.id }, _sum: { edgeCount: true } });
    expect(Number(triples._sum.edgeCount)).toBe(catalogue.edges.length);
  });

  it('keeps documents, aliases and a searchable flattened text', async () => {
    const product = catalogue.entities.find((e) => e.type === 'product' && e.aliases.length > 0)!;
    const { kbId, id } = await entityId('demo-catalogue', product.externalId);
    const entity = await getEntity(pool(), kbId, id);
    expect(entity).toMatchObject({ name: product.name, type: 'product', aliases: product.aliases, document: product.document });
    expect(Object.keys(entity.document)).toEqual(Object.keys(product.document));
    expect(entity.text).toContain(`- name: ${product.name}`);
    const degree = catalogue.edges.filter((e) => e.source === product.externalId || e.target === product.externalId).length;
    expect(entity.degree).toBe(degree);
    const { rows } = await pool().query(
      `SELECT id FROM entity_search WHERE kb_id = $1 AND search @@ websearch_to_tsquery('english', $2)`,
      [kbId, product.name],
    );
    expect(rows.map((r) => r.id)).toContain(id);
  });

  it('counts edges per relation and direction exactly as the input has them', async () => {
    const brand = catalogue.entities.find((e) => e.type === 'brand')!;
    const { kbId, id } = await entityId('demo-catalogue', brand.externalId);
    const expected = new Map<string, number>();
    for (const e of catalogue.edges) {
      if (e.source === brand.externalId) expected.set(`${e.relation}|out`, (expected.get(`${e.relation}|out`) ?? 0) + 1);
      if (e.target === brand.externalId) expected.set(`${e.relation}|in`, (expected.get(`${e.relation}|in`) ?? 0) + 1);
    }
    const counts = await relationCounts(pool(), kbId, id);
    expect(new Map(counts.map((c) => [`${c.relation}|${c.direction}`, c.count]))).toEqual(expected);
  });

  it('draws a neighbourhood within the budget and accounts for the rest with stubs', async () => {
    const brand = catalogue.entities.find((e) => e.type === 'brand')!;
    const { kbId, id } = await entityId('demo-catalogue', brand.externalId);
    const total = catalogue.edges.filter((e) => e.source === brand.externalId || e.target === brand.externalId).length;
    const small = await directNeighbourhood(pool(), kbId, id, 5);
    expect(small.edges.length).toBeLessThanOrEqual(5);
    expect(small.edges.length + small.stubs.reduce((s, x) => s + x.hidden, 0)).toBe(total);
    for (const e of small.edges) expect([e.source, e.target]).toContain(id);
    const full = await directNeighbourhood(pool(), kbId, id, 500);
    expect(full.stubs).toEqual([]);
    expect(full.edges).toHaveLength(total);
  });

  it('keeps to the budget when an entity has more relation groups than the budget allows', async () => {
    const product = catalogue.entities.find((e) => e.type === 'product')!;
    const { kbId, id } = await entityId('demo-catalogue', product.externalId);
    const groups = await relationCounts(pool(), kbId, id);
    expect(groups.length).toBeGreaterThan(2);
    const tiny = await directNeighbourhood(pool(), kbId, id, 2);
    expect(tiny.edges).toHaveLength(2);
    const total = groups.reduce((s, g) => s + g.count, 0);
    expect(tiny.edges.length + tiny.stubs.reduce((s, x) => s + x.hidden, 0)).toBe(total);
  });

  it('shows private knowledge bases to admins and members only', async () => {
    const admin = await userId('admin@demo.local');
    const curator = await userId('curator@demo.local');
    const rater = await userId('rater@demo.local');
    const slugs = async (u: { id: number; role: Role }) => (await listVisibleKbs(db(), u)).map((k) => k.slug).sort();
    expect(await slugs(admin)).toEqual([DEMO_PRIVATE_SLUG, 'demo-catalogue'].sort());
    expect(await slugs(curator)).toEqual([DEMO_PRIVATE_SLUG, 'demo-catalogue'].sort());
    expect(await slugs(rater)).toEqual(['demo-catalogue']);
    await expect(getVisibleKb(db(), rater, DEMO_PRIVATE_SLUG)).rejects.toMatchObject({ status: 404 });
    expect((await getVisibleKb(db(), curator, DEMO_PRIVATE_SLUG)).slug).toBe(DEMO_PRIVATE_SLUG);
  });

  it('hides a knowledge base while it is still loading', async () => {
    const admin = await userId('admin@demo.local');
    await db().knowledgeBase.update({ where: { slug: DEMO_PRIVATE_SLUG }, data: { status: 'LOADING' } });
    expect((await listVisibleKbs(db(), admin)).map((k) => k.slug)).toEqual(['demo-catalogue']);
    await db().knowledgeBase.update({ where: { slug: DEMO_PRIVATE_SLUG }, data: { status: 'READY' } });
  });

  it('imports all or nothing: a bad edge leaves no trace, and a failed replace keeps the old version', async () => {
    const tiny: InMemoryKnowledgeBase = {
      entities: [
        { externalId: 'a', type: 'thing', name: 'A', aliases: [], document: {} },
        { externalId: 'b', type: 'thing', name: 'B', aliases: ['bee'], document: { note: 'second' } },
      ],
      edges: [{ source: 'a', relation: 'links', target: 'b' }],
    };
    const broken = { ...tiny, edges: [...tiny.edges, { source: 'a', relation: 'breaks', target: 'missing' }] };
    const opts: ImportOptions = { slug: 'tiny', format: 'test', files: [] };
    const tables = async () => (await pool().query(`SELECT relname FROM pg_class WHERE relname ~ '^(entity|edge)_(kb|load)_' ORDER BY 1`)).rows.map((r) => r.relname);
    const tablesBefore = await tables();

    await expect(importKnowledgeBase(pool(), memorySource(broken), opts)).rejects.toThrow('Import stopped at memory:edges:2: edge points to unknown entity: target "missing"');
    expect(await db().knowledgeBase.findUnique({ where: { slug: 'tiny' } })).toBeNull();
    expect(await tables()).toEqual(tablesBefore);
    const failedJob = await db().importJob.findFirstOrThrow({ where: { slug: 'tiny' }, orderBy: { id: 'desc' } });
    expect(failedJob).toMatchObject({ status: 'FAILED', kbId: null, errorCount: 1 });

    const first = await importKnowledgeBase(pool(), memorySource(tiny), opts);
    expect(first).toMatchObject({ entities: 2, edges: 1, entityTypes: { thing: 2 }, relations: { links: 1 } });
    await expect(importKnowledgeBase(pool(), memorySource(tiny), opts)).rejects.toMatchObject({ status: 409 });
    await expect(importKnowledgeBase(pool(), memorySource(broken), { ...opts, replace: true })).rejects.toThrow(/unknown entity/);
    const kept = await db().knowledgeBase.findUniqueOrThrow({ where: { slug: 'tiny' } });
    expect([kept.entityCount, Number(kept.edgeCount), kept.status]).toEqual([2, 1, 'READY']);
    expect((await db().edgeType.findMany({ where: { kbId: kept.id } })).map((t) => t.name)).toEqual(['links']);

    const bigger = { ...tiny, entities: [...tiny.entities, { externalId: 'c', type: 'other', name: 'C', aliases: [], document: {} }] };
    const aBefore = await db().entity.findUniqueOrThrow({ where: { kbId_externalId: { kbId: kept.id, externalId: 'a' } } });
    const second = await importKnowledgeBase(pool(), memorySource(bigger), { ...opts, replace: true });
    expect(second.kbId).toBe(kept.id);
    expect(second.entityTypes).toEqual({ other: 1, thing: 2 });
    const aAfter = await db().entity.findUniqueOrThrow({ where: { kbId_externalId: { kbId: kept.id, externalId: 'a' } } });
    expect(aAfter.id).toBe(aBefore.id);
    expect((await db().knowledgeBase.findUniqueOrThrow({ where: { slug: 'tiny' } })).entityCount).toBe(3);
  });

  it('seeding again adds nothing and keeps existing passwords', async () => {
    const again = await seedDemo(pool(), db());
    expect(again.knowledgeBases.every((k) => !k.loaded)).toBe(true);
    expect(again.users.every((u) => u.password === null)).toBe(true);
    expect(await db().user.count({ where: { email: { endsWith: '@demo.local' } } })).toBe(4);
    expect(await db().campaign.count()).toBe(1);
    expect(await db().study.count()).toBe(1);
  });

  it('opens a campaign for the demo annotators and a study for anyone to rate', async () => {
    const campaign = await db().campaign.findFirstOrThrow({ include: { annotators: { include: { user: true } }, seeds: true } });
    expect(campaign).toMatchObject({ name: 'demo-product-questions', status: 'OPEN', annotatorsPerSeed: 2 });
    expect(campaign.annotators.map((a) => a.user.email).sort()).toEqual(['admin@demo.local', 'annotator@demo.local', 'curator@demo.local']);
    expect(campaign.seeds).toHaveLength(10);
    const study = await db().study.findFirstOrThrow({ include: { items: true } });
    expect(study).toMatchObject({ name: 'demo-question-quality', status: 'OPEN', linkHash: null });
    expect(study.items).toHaveLength(40);
  });
});

describe('knowledge-base access management', () => {
  useDemoDatabase();

  it('lets admins and member curators manage access, nobody else', async () => {
    const admin = await userId('admin@demo.local');
    const curator = await userId('curator@demo.local');
    const annotator = await userId('annotator@demo.local');
    const registry = await getVisibleKb(db(), admin, DEMO_PRIVATE_SLUG);
    const catalogueKb = await getVisibleKb(db(), admin, 'demo-catalogue');
    expect(await canManageKb(db(), admin, catalogueKb.id)).toBe(true);
    expect(await canManageKb(db(), curator, registry.id)).toBe(true);
    expect(await canManageKb(db(), curator, catalogueKb.id)).toBe(false);
    expect(await canManageKb(db(), annotator, registry.id)).toBe(false);
    await expect(addMember(db(), annotator, registry, 'annotator@demo.local')).rejects.toMatchObject({ status: 403 });
  });

  it('grants and revokes access with audit entries; the member sees the knowledge base only meanwhile', async () => {
    const curator = await userId('curator@demo.local');
    const annotator = await userId('annotator@demo.local');
    const registry = await getVisibleKb(db(), curator, DEMO_PRIVATE_SLUG);
    await expect(getVisibleKb(db(), annotator, DEMO_PRIVATE_SLUG)).rejects.toMatchObject({ status: 404 });

    const members = await addMember(db(), curator, registry, 'annotator@demo.local');
    expect(members.map((m) => m.email)).toEqual(['annotator@demo.local', 'curator@demo.local']);
    expect((await getVisibleKb(db(), annotator, DEMO_PRIVATE_SLUG)).slug).toBe(DEMO_PRIVATE_SLUG);

    await removeMember(db(), curator, registry, annotator.id);
    await expect(getVisibleKb(db(), annotator, DEMO_PRIVATE_SLUG)).rejects.toMatchObject({ status: 404 });
    await expect(removeMember(db(), curator, registry, annotator.id)).rejects.toMatchObject({ status: 404 });
    await expect(addMember(db(), curator, registry, 'ghost@demo.local')).rejects.toMatchObject({ status: 404, message: 'No user with email ghost@demo.local' });

    const actions = (await db().auditLog.findMany({ where: { kbId: registry.id }, orderBy: { id: 'asc' } })).map((a) => a.action);
    expect(actions).toEqual(['kb.member.add', 'kb.member.remove']);
  });

  it('switches visibility for everyone at once', async () => {
    const admin = await userId('admin@demo.local');
    const rater = await userId('rater@demo.local');
    const registry = await getVisibleKb(db(), admin, DEMO_PRIVATE_SLUG);
    await setVisibility(db(), admin, registry, 'PUBLIC');
    expect((await listVisibleKbs(db(), rater)).map((k) => k.slug)).toContain(DEMO_PRIVATE_SLUG);
    await setVisibility(db(), admin, { ...registry, visibility: 'PUBLIC' }, 'PRIVATE');
    expect((await listVisibleKbs(db(), rater)).map((k) => k.slug)).not.toContain(DEMO_PRIVATE_SLUG);
    const entry = await db().auditLog.findFirstOrThrow({ where: { action: 'kb.visibility' }, orderBy: { id: 'desc' } });
    expect(entry.details).toEqual({ from: 'PUBLIC', to: 'PRIVATE' });
  });
});
