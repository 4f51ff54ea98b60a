import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteKnowledgeBase } from '../../lib/kb/delete';
import { relationCounts } from '../../lib/kb/entity';
import { countHubRelations, hubCountsSql } from '../../lib/kb/hub-counts';
import { liveTables } from '../../lib/ingest/partitions';
import { listNeighbours } from '../../lib/kb/neighbours';
import { neighbourhood } from '../../lib/kb/neighbourhood';
import { openAppDatabase, pool } from '../support/app-database';
import { importIbd, readIbdEdges } from '../support/primekg-ibd';
import type { TestDatabase } from '../support/test-database';

const importWithHubs = (hubDegree: number, replace = false) => importIbd(pool(), 'ibd-hubs', { hubDegree, replace });

/** Edge counts per (external id, relation, direction), straight from the edge file. */
function expectedCounts(): Map<string, Map<string, number>> {
  const counts = new Map<string, Map<string, number>>();
  const add = (entity: string, key: string) => {
    const m = counts.get(entity) ?? new Map<string, number>();
    m.set(key, (m.get(key) ?? 0) + 1);
    counts.set(entity, m);
  };
  for (const e of readIbdEdges()) {
    add(e.source, `${e.relation}|out`);
    add(e.target, `${e.relation}|in`);
  }
  return counts;
}

async function hubRows(kbId: number) {
  const { rows } = await pool().query<{ external_id: string; degree: number; n: number }>(
    `SELECT e.external_id, e.degree, count(*)::int AS n FROM hub_relation_count h
       JOIN entity e ON e.kb_id = h.kb_id AND e.id = h.entity_id WHERE h.kb_id = $1 GROUP BY 1, 2`, [kbId]);
  return rows;
}

describe('stored relation counts of hub entities', () => {
  let testDb: TestDatabase;
  let kbId: number;
  const expected = expectedCounts();
  beforeAll(async () => {
    testDb = await openAppDatabase();
    kbId = await importWithHubs(100);
  });
  afterAll(async () => {
    await testDb.drop();
  });

  it('are stored for every entity of at least the hub degree, and only for those', async () => {
    const rows = await hubRows(kbId);
    const { rows: hubs } = await pool().query<{ external_id: string }>('SELECT external_id FROM entity WHERE kb_id = $1 AND degree >= 100', [kbId]);
    expect(hubs.length).toBeGreaterThan(3);
    expect(rows.map((r) => r.external_id).sort()).toEqual(hubs.map((h) => h.external_id).sort());
    for (const r of rows) expect(r.n).toBe(expected.get(r.external_id)!.size);
  });

  it('give the same relation counts, neighbour totals and graph stubs as the edge file', async () => {
    const { rows } = await pool().query<{ id: number; external_id: string; degree: number }>(
      'SELECT id, external_id, degree FROM entity WHERE kb_id = $1 ORDER BY degree DESC LIMIT 8', [kbId]);
    for (const e of rows) {
      const counts = await relationCounts(pool(), kbId, e.id);
      expect(new Map(counts.map((c) => [`${c.relation}|${c.direction}`, c.count]))).toEqual(expected.get(e.external_id));
      const largest = counts.reduce((a, b) => (b.count > a.count ? b : a));
      const page = await listNeighbours(pool(), kbId, e.id, { relation: largest.relationId, direction: largest.direction, sort: 'name', order: 'asc', limit: 5 });
      expect(page.total).toBe(largest.count);
    }
    // A 1-hop view of the biggest hub: shown neighbours plus stubs account for every edge of each group.
    const hub = rows[0]!;
    const view = await neighbourhood(pool(), kbId, { entityId: hub.id, hops: 1, budget: 60 });
    const stubbed = view.stubs.filter((s) => s.parent === hub.id);
    expect(stubbed.length).toBeGreaterThan(0);
    for (const s of stubbed) expect(s.total).toBe(expected.get(hub.external_id)!.get(`${s.relation}|${s.direction}`));
  });

  it('are counted from the hubs\' own index entries, never by scanning the edge table', async () => {
    // The import counts in staging tables; the live partitions carry the same indexes, and the same counts.
    const tables = liveTables(kbId);
    const { rows } = await pool().query<{ 'QUERY PLAN': unknown[] }>(`EXPLAIN (FORMAT JSON) ${hubCountsSql(tables)}`, [kbId, 100]);
    const scans: { type: string; relation?: string; cond?: string }[] = [];
    const walk = (node: Record<string, unknown>) => {
      scans.push({ type: node['Node Type'] as string, relation: node['Relation Name'] as string | undefined, cond: node['Index Cond'] as string | undefined });
      for (const child of (node.Plans as Record<string, unknown>[] | undefined) ?? []) walk(child);
    };
    walk((rows[0]!['QUERY PLAN'][0] as { Plan: Record<string, unknown> }).Plan);
    const onEdges = scans.filter((s) => s.relation === tables.edge);
    expect(onEdges.map((s) => s.type)).not.toContain('Seq Scan');
    // kb_id leads both edge indexes: a scan matched on it descends straight to the hub's entries.
    expect(onEdges.some((s) => /kb_id = .* AND \(source_id = h\.id\)/.test(s.cond ?? ''))).toBe(true);
    expect(onEdges.some((s) => /kb_id = .* AND \(target_id = h\.id\)/.test(s.cond ?? ''))).toBe(true);

    const counted = await countHubRelations(pool(), tables, kbId, 100);
    const { rows: stored } = await pool().query<{ entityId: number; typeId: number; direction: string; count: number }>(
      'SELECT entity_id AS "entityId", type_id AS "typeId", direction, count FROM hub_relation_count WHERE kb_id = $1', [kbId]);
    const key = (c: { entityId: number; typeId: number; direction: string }) => `${c.entityId}|${c.typeId}|${c.direction}`;
    expect(new Map(counted.map((c) => [key(c), c.count]))).toEqual(new Map(stored.map((c) => [key(c), c.count])));
  });

  it('are replaced by a re-import and go with the knowledge base', async () => {
    const before = await hubRows(kbId);
    await importWithHubs(300, true);
    const after = await hubRows(kbId);
    expect(after.length).toBeGreaterThan(0);
    expect(after.length).toBeLessThan(before.length);
    expect(after.every((r) => r.degree >= 300)).toBe(true);
    await deleteKnowledgeBase(pool(), kbId);
    const { rows } = await pool().query('SELECT 1 FROM hub_relation_count WHERE kb_id = $1', [kbId]);
    expect(rows).toEqual([]);
  });
});
