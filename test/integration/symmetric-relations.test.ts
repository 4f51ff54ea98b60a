import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importKnowledgeBase } from '../../lib/ingest/importer';
import { memorySource } from '../../lib/ingest/memory-source';
import { relationCounts } from '../../lib/kb/entity';
import { listNeighbours } from '../../lib/kb/neighbours';
import { directNeighbourhood, neighbourhood } from '../../lib/kb/neighbourhood';
import { onceEach } from '../../lib/kb/relation-groups';
import { kbStatistics } from '../../lib/kb/stats';
import { openAppDatabase, pool } from '../support/app-database';
import { ibdIds, importIbd, readIbdEdges } from '../support/primekg-ibd';
import type { TestDatabase } from '../support/test-database';

/** Each entity's distinct neighbours (either direction, any relation, itself left out), straight from the edge file. */
function neighboursInFile(): Map<string, Set<string>> {
  const of = new Map<string, Set<string>>();
  const link = (a: string, b: string) => {
    if (a === b) return;
    const set = of.get(a) ?? new Set<string>();
    set.add(b);
    of.set(a, set);
  };
  for (const e of readIbdEdges()) {
    link(e.source, e.target);
    link(e.target, e.source);
  }
  return of;
}

/** Relations of the edge file whose every (a, b) has its (b, a). */
function symmetricInFile(): Set<string> {
  const pairs = new Map<string, Set<string>>();
  for (const e of readIbdEdges()) {
    const set = pairs.get(e.relation) ?? new Set<string>();
    set.add(`${e.source}|${e.target}`);
    pairs.set(e.relation, set);
  }
  return new Set([...pairs].filter(([, set]) => [...set].every((p) => set.has(p.split('|').reverse().join('|')))).map(([r]) => r));
}

describe('symmetric relations and distinct-neighbour counts on PrimeKG (IBD)', () => {
  let testDb: TestDatabase;
  let kbId: number;
  let idOf: Map<string, number>;
  const neighbours = neighboursInFile();
  // Its largest hubs (ABCB1 is among them, 1,104 edges to 552 entities), and a smaller entity.
  const byNeighbours = [...neighbours].sort((a, b) => b[1].size - a[1].size);

  beforeAll(async () => {
    testDb = await openAppDatabase();
    // A hub degree low enough that the largest entities get stored neighbour counts and the rest are counted live.
    kbId = await importIbd(pool(), 'ibd-symmetric', { hubDegree: 500 });
    ({ idOf } = await ibdIds(pool(), kbId));
  });
  afterAll(async () => {
    await testDb.drop();
  });

  it('flags exactly the relations whose every edge is stored both ways', async () => {
    const expected = symmetricInFile();
    // PrimeKG stores every edge both ways: all six relations.
    expect([...expected].sort()).toEqual(['associated with', 'carrier', 'enzyme', 'interacts with', 'target', 'transporter']);
    const stats = await kbStatistics(pool(), kbId);
    expect(new Set(stats.relations.filter((r) => r.symmetric).map((r) => r.name))).toEqual(expected);
  });

  it('counts a hub\'s hidden neighbours as distinct entities, once', async () => {
    // Entities of degree 500 or more have their count stored at import, the others are counted live: both kinds here.
    const { rows } = await pool().query<{ entityId: number; neighbours: number }>(
      'SELECT entity_id AS "entityId", neighbours FROM hub_neighbour_count WHERE kb_id = $1', [kbId]);
    const stored = new Map(rows.map((r) => [r.entityId, r.neighbours]));
    const degree = (externalId: string) => readIbdEdges().filter((e) => e.source === externalId || e.target === externalId).length;
    expect(degree(byNeighbours[0]![0])).toBeGreaterThanOrEqual(500);
    expect(stored.get(idOf.get(byNeighbours[0]![0])!)).toBe(byNeighbours[0]![1].size);
    expect(degree(byNeighbours[40]![0])).toBeLessThan(500);
    expect(stored.has(idOf.get(byNeighbours[40]![0])!)).toBe(false);
    for (const [externalId, set] of [byNeighbours[0]!, byNeighbours[1]!, byNeighbours[40]!]) {
      const entityId = idOf.get(externalId)!;
      const preview = await directNeighbourhood(pool(), kbId, entityId, 150);
      expect(preview.neighbours).toBe(set.size);
      // Drawn neighbours are distinct neighbours of the file; drawn + "more not drawn" is all of them.
      expect(preview.nodes.every((n) => set.has([...idOf].find(([, id]) => id === n.id)![0]))).toBe(true);
      expect(new Set(preview.nodes.map((n) => n.id)).size).toBe(preview.nodes.length);
      // One stub per relation, standing for both directions, each counting distinct entities.
      expect(preview.stubs.every((s) => s.symmetric && s.direction === 'out')).toBe(true);
      const stubbed = preview.stubs.reduce((n, s) => n + s.hidden, 0);
      expect(preview.nodes.length + stubbed).toBe(set.size);
      // No link drawn twice (once per stored direction).
      const links = preview.edges.map((e) => `${Math.min(e.source, e.target)}|${e.relation}|${Math.max(e.source, e.target)}`);
      expect(new Set(links).size).toBe(links.length);
    }
  });

  it('gives the graph page one stub per relation and shown + hidden equal to the distinct neighbours', async () => {
    const [externalId, set] = byNeighbours[0]!;
    const entityId = idOf.get(externalId)!;
    const view = await neighbourhood(pool(), kbId, { entityId, hops: 1, budget: 80 });
    const stubs = view.stubs.filter((s) => s.parent === entityId);
    expect(stubs.length).toBeGreaterThan(0);
    expect(new Set(stubs.map((s) => s.relation)).size).toBe(stubs.length);
    const hidden = stubs.reduce((n, s) => n + s.hidden, 0);
    expect(view.nodes.length - 1 + hidden).toBe(set.size);
    const links = view.edges.map((e) => `${Math.min(e.source, e.target)}|${e.relation}|${Math.max(e.source, e.target)}`);
    expect(new Set(links).size).toBe(links.length);
  });

  it('lists each relation of an entity once, with as many neighbours as the file has', async () => {
    const [externalId, set] = byNeighbours[0]!;
    const entityId = idOf.get(externalId)!;
    const groups = onceEach(await relationCounts(pool(), kbId, entityId));
    expect(groups.every((g) => g.direction === 'out')).toBe(true);
    let total = 0;
    for (const g of groups) {
      const page = await listNeighbours(pool(), kbId, entityId, { relation: g.relationId, direction: g.direction, sort: 'name', order: 'asc', limit: 5 });
      expect(page.total).toBe(g.count);
      total += page.total;
    }
    // No neighbour of this hub is linked by two relations, so the groups add up to the distinct neighbours.
    expect(total).toBe(set.size);
  });

  it('fills the hubs\' stored counts of a knowledge base imported without them (migration 0028)', async () => {
    await pool().query('DELETE FROM hub_neighbour_count WHERE kb_id = $1', [kbId]);
    const sql = fs.readFileSync(path.join(process.cwd(), 'prisma/migrations/0028_hub_neighbour_backfill/migration.sql'), 'utf8');
    await pool().query(sql);
    const { rows } = await pool().query<{ externalId: string; degree: number; neighbours: number }>(
      `SELECT e.external_id AS "externalId", e.degree, c.neighbours FROM hub_neighbour_count c
         JOIN entity e ON e.kb_id = c.kb_id AND e.id = c.entity_id WHERE c.kb_id = $1`, [kbId]);
    // Only entities of the app's hub degree (1,000 edges; ABCB1 has 1,104), each with its distinct neighbours.
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.degree >= 1000)).toBe(true);
    for (const r of rows) expect(r.neighbours).toBe(neighbours.get(r.externalId)!.size);
    const [hub] = byNeighbours[0]!;
    expect(rows.map((r) => r.externalId)).toContain(hub);
    // Run again, it adds nothing.
    await pool().query(sql);
    const again = await pool().query('SELECT 1 FROM hub_neighbour_count WHERE kb_id = $1', [kbId]);
    expect(again.rows.length).toBe(rows.length);
  });
});

describe('symmetry at import on a mixed knowledge base', () => {
  let testDb: TestDatabase;
  beforeAll(async () => {
    testDb = await openAppDatabase();
  });
  afterAll(async () => {
    await testDb.drop();
  });

  it('tells a symmetric relation from one that only looks it by its type counts', async () => {
    const entity = (externalId: string) => ({ externalId, type: 'person', name: `P${externalId}`, aliases: [], document: {} });
    const { kbId } = await importKnowledgeBase(pool(), memorySource({
      entities: ['1', '2', '3', '4'].map(entity),
      edges: [
        // knows: every edge both ways.
        { source: '1', relation: 'knows', target: '2' }, { source: '2', relation: 'knows', target: '1' },
        { source: '3', relation: 'knows', target: '4' }, { source: '4', relation: 'knows', target: '3' },
        // follows: as many person→person edges as a symmetric relation would have, but 1→2, 2→3 have no reverse.
        { source: '1', relation: 'follows', target: '2' }, { source: '2', relation: 'follows', target: '3' },
      ],
    }), { slug: 'mixed', format: 'test', files: [], visibility: 'PUBLIC' });
    const stats = await kbStatistics(pool(), kbId);
    expect(Object.fromEntries(stats.relations.map((r) => [r.name, r.symmetric]))).toEqual({ knows: true, follows: false });

    const { rows } = await pool().query<{ id: number }>(`SELECT id FROM entity WHERE kb_id = $1 AND external_id = '2'`, [kbId]);
    const two = rows[0]!.id;
    const groups = onceEach(await relationCounts(pool(), kbId, two));
    // knows once; follows both ways (2 follows 3, 1 follows 2).
    expect(groups.map((g) => `${g.relation}|${g.direction}|${g.count}`).sort()).toEqual(['follows|in|1', 'follows|out|1', 'knows|out|1']);
    const preview = await directNeighbourhood(pool(), kbId, two);
    expect(preview.neighbours).toBe(2);
    expect(preview.nodes.map((n) => n.name).sort()).toEqual(['P1', 'P3']);
  });
});
