import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getEntity, relationCounts, type Direction } from '../../lib/kb/entity';
import { listNeighbours, type NeighbourItem, type NeighbourListOptions } from '../../lib/kb/neighbours';
import { retrieverText } from '../../lib/kb/retriever-text';
import { openAppDatabase, pool } from '../support/app-database';
import { ibdIds, importIbd, readIbdEdges, type IbdEdge } from '../support/primekg-ibd';
import type { TestDatabase } from '../support/test-database';

let testDb: TestDatabase;
let kbId: number;
let edges: IbdEdge[];
/** External id -> internal id, read once. */
let idOf: Map<string, number>;

beforeAll(async () => {
  testDb = await openAppDatabase();
  kbId = await importIbd(pool());
  edges = readIbdEdges();
  ({ idOf } = await ibdIds(pool(), kbId));
});

afterAll(async () => {
  await testDb.drop();
});

/** Neighbour external ids per "relation/direction" of an entity, straight from the edge file. */
function expectedGroups(externalId: string): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  const add = (key: string, other: string) => groups.set(key, [...(groups.get(key) ?? []), other]);
  for (const e of edges) {
    if (e.source === externalId) add(`${e.relation}/out`, e.target);
    if (e.target === externalId) add(`${e.relation}/in`, e.source);
  }
  return groups;
}

/** Every page of a list, by offset or by cursor. */
/** The ids of an entity's 'interacts with' neighbours (out), in the given SQL order. */
async function interactsWith(entityId: number, orderBy: string): Promise<number[]> {
  const { rows } = await pool().query<{ id: number }>(
    `SELECT e.id FROM edge x JOIN entity e ON e.kb_id = x.kb_id AND e.id = x.target_id
      WHERE x.kb_id = $1 AND x.source_id = $2 AND x.type_id = (SELECT id FROM edge_type WHERE kb_id = $1 AND name = 'interacts with')
      ORDER BY ${orderBy}`,
    [kbId, entityId],
  );
  return rows.map((r) => r.id);
}

async function readAll(entityId: number, opts: Omit<NeighbourListOptions, 'offset' | 'cursor'>, by: 'offset' | 'cursor'): Promise<NeighbourItem[]> {
  const all: NeighbourItem[] = [];
  let cursor: string | undefined;
  for (let guard = 0; guard < 10_000; guard++) {
    const page = await listNeighbours(pool(), kbId, entityId, by === 'offset' ? { ...opts, offset: all.length } : { ...opts, cursor });
    expect(page.items.length).toBeLessThanOrEqual(opts.limit);
    all.push(...page.items);
    if (by === 'offset' ? page.items.length < opts.limit || all.length >= page.total : !page.nextCursor) return all;
    cursor = page.nextCursor ?? undefined;
  }
  throw new Error('paging did not end');
}

// SMAD3 (286 edges, several relations) and Crohn disease (a disease with genes in both directions).
const SUBJECTS = ['144', '37784'];

describe('relation counts and neighbour lists', () => {
  it.each(SUBJECTS)('counts edges per relation and direction of %s as the edge file does', async (externalId) => {
    const counts = await relationCounts(pool(), kbId, idOf.get(externalId)!);
    const expected = expectedGroups(externalId);
    expect(Object.fromEntries(counts.map((c) => [`${c.relation}/${c.direction}`, c.count]))).toEqual(
      Object.fromEntries([...expected].map(([k, v]) => [k, v.length])),
    );
  });

  it.each(SUBJECTS)('pages every neighbour of %s exactly once, in both sorts, both plans, by offset and cursor', async (externalId) => {
    const entityId = idOf.get(externalId)!;
    for (const [key, others] of expectedGroups(externalId)) {
      const [relation, direction] = key.split('/') as [string, Direction];
      const expectedIds = others.map((o) => idOf.get(o)!).sort((a, b) => a - b);
      for (const sort of ['name', 'degree'] as const) {
        for (const plan of ['join', 'walk'] as const) {
          for (const by of ['offset', 'cursor'] as const) {
            const items = await readAll(entityId, { relation, direction, sort, order: sort === 'name' ? 'asc' : 'desc', limit: 7, plan }, by);
            expect(items.map((i) => i.id).sort((a, b) => a - b), `${key} ${sort} ${plan} ${by}`).toEqual(expectedIds);
          }
        }
      }
    }
  });

  it('sorts by name in the database collation, ties by id, both ways', async () => {
    const entityId = idOf.get('144')!;
    const inOrder = await interactsWith(entityId, 'e.name, e.id');
    expect(inOrder.length).toBeGreaterThan(50);
    for (const plan of ['join', 'walk'] as const) {
      const asc = await readAll(entityId, { relation: 'interacts with', direction: 'out', sort: 'name', order: 'asc', limit: 20, plan }, 'cursor');
      expect(asc.map((i) => i.id)).toEqual(inOrder);
      const desc = await readAll(entityId, { relation: 'interacts with', direction: 'out', sort: 'name', order: 'desc', limit: 20, plan }, 'cursor');
      expect(desc.map((i) => i.id)).toEqual([...inOrder].reverse());
    }
  });

  it('sorts by degree, non-increasing (desc) and non-decreasing (asc), with true degrees', async () => {
    const entityId = idOf.get('144')!;
    const inOrder = await interactsWith(entityId, 'e.degree DESC, e.id DESC');
    const degree = new Map<string, number>();
    for (const e of edges) {
      degree.set(e.source, (degree.get(e.source) ?? 0) + 1);
      degree.set(e.target, (degree.get(e.target) ?? 0) + 1);
    }
    const byId = new Map([...idOf].map(([ext, id]) => [id, ext]));
    for (const plan of ['join', 'walk'] as const) {
      const desc = await readAll(entityId, { relation: 'interacts with', direction: 'out', sort: 'degree', order: 'desc', limit: 15, plan }, 'cursor');
      for (let i = 1; i < desc.length; i++) expect(desc[i]!.degree).toBeLessThanOrEqual(desc[i - 1]!.degree);
      for (const item of desc) expect(item.degree).toBe(degree.get(byId.get(item.id)!));
      const asc = await readAll(entityId, { relation: 'interacts with', direction: 'out', sort: 'degree', order: 'asc', limit: 15, plan }, 'offset');
      for (let i = 1; i < asc.length; i++) expect(asc[i]!.degree).toBeGreaterThanOrEqual(asc[i - 1]!.degree);
      // Ties by id, the same way: the walk reads the search table's degree index, the join the entities.
      expect(desc.map((i) => i.id), plan).toEqual(inOrder);
      const ascByCursor = await readAll(entityId, { relation: 'interacts with', direction: 'out', sort: 'degree', order: 'asc', limit: 15, plan }, 'cursor');
      expect(ascByCursor.map((i) => i.id), plan).toEqual([...inOrder].reverse());
      expect(asc.map((i) => i.id), plan).toEqual([...inOrder].reverse());
    }
  });

  it('accepts the relation as an edge type id, reports totals, and rejects what does not exist', async () => {
    const entityId = idOf.get('144')!;
    const { rows } = await pool().query<{ id: number }>(`SELECT id FROM edge_type WHERE kb_id = $1 AND name = 'interacts with'`, [kbId]);
    const byName = await listNeighbours(pool(), kbId, entityId, { relation: 'interacts with', direction: 'out', sort: 'name', order: 'asc', limit: 5 });
    const byId = await listNeighbours(pool(), kbId, entityId, { relation: rows[0]!.id, direction: 'out', sort: 'name', order: 'asc', limit: 5 });
    expect(byId).toEqual(byName);
    expect(byName.total).toBe(expectedGroups('144').get('interacts with/out')!.length);
    await expect(listNeighbours(pool(), kbId, entityId, { relation: 'no such relation', direction: 'out', sort: 'name', order: 'asc', limit: 5 })).rejects.toMatchObject({ status: 404 });
    await expect(listNeighbours(pool(), kbId, 987_654_321, { relation: 'interacts with', direction: 'out', sort: 'name', order: 'asc', limit: 5 })).rejects.toMatchObject({ status: 404 });
    await expect(listNeighbours(pool(), kbId, entityId, { relation: 'interacts with', direction: 'out', sort: 'degree', order: 'asc', limit: 5, cursor: byName.nextCursor! })).rejects.toMatchObject({ status: 400 });
  });
});

describe('retriever text', () => {
  it.each(SUBJECTS)('holds the document of %s and every relation with its count and names', async (externalId) => {
    const entityId = idOf.get(externalId)!;
    const entity = await getEntity(pool(), kbId, entityId);
    const names = new Map<string, string>();
    const { rows } = await pool().query<{ external_id: string; name: string }>('SELECT external_id, name FROM entity WHERE kb_id = $1', [kbId]);
    for (const r of rows) names.set(r.external_id, r.name);

    const max = 5;
    const text = await retrieverText(pool(), kbId, entityId, { maxPerRelation: max });
    expect(text.startsWith(entity.text)).toBe(true);
    const relationLines = text.slice(entity.text.length).split('\n').filter(Boolean);
    const groups = expectedGroups(externalId);
    expect(relationLines).toHaveLength(groups.size);
    for (const [key, others] of groups) {
      const [relation, direction] = key.split('/');
      const line = relationLines.find((l) => l.startsWith(`- relation: ${relation} (${direction}, ${others.length}): `));
      expect(line, key).toBeDefined();
      const listed = line!.replace(/^- relation: [^:]+: /, '').replace(/ \(\+\d+ more\)$/, '');
      // Names may contain ", ", so check membership of each listed name rather than splitting.
      const neighbourNames = new Set(others.map((o) => names.get(o)!));
      const shown = Math.min(max, others.length);
      if (others.length > max) expect(line!.endsWith(`(+${others.length - max} more)`)).toBe(true);
      else expect(line).not.toMatch(/more\)$/);
      expect([...neighbourNames].filter((n) => listed.includes(n)).length).toBeGreaterThanOrEqual(shown);
    }
    // Same input, same text.
    expect(await retrieverText(pool(), kbId, entityId, { maxPerRelation: max })).toBe(text);
  });
});
