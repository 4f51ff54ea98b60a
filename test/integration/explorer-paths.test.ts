import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../lib/errors';
import { findPaths, type PathsResult, type ThreeHopStrategy } from '../../lib/kb/paths';
import { openAppDatabase, pool } from '../support/app-database';
import { ibdIds, importIbd, readIbdEdges } from '../support/primekg-ibd';
import type { TestDatabase } from '../support/test-database';

let testDb: TestDatabase;
let kbId: number;
let idOf: Map<string, number>;
let externalOf: Map<number, string>;

/** The edge file's edges (external ids), each stored once, as the knowledge base holds them. */
const edges = [...new Map(readIbdEdges().map((e) => [`${e.source}|${e.relation}|${e.target}`, e])).values()];

beforeAll(async () => {
  testDb = await openAppDatabase();
  kbId = await importIbd(pool());
  ({ idOf, externalOf } = await ibdIds(pool(), kbId));
});

afterAll(async () => {
  await testDb.drop();
});

/**
 * Brute force: every simple path of 1..maxHops edges from `from` to `to` over the edge file, edges walked
 * either way, as "node -relation> node <relation- node" strings, counted per length.
 */
function enumerate(from: string, to: string, maxHops: number, relations?: string[]): Map<number, string[]> {
  const adjacent = new Map<string, { other: string; label: string }[]>();
  const link = (a: string, other: string, label: string) => adjacent.set(a, [...(adjacent.get(a) ?? []), { other, label }]);
  for (const e of edges) {
    if (relations && !relations.includes(e.relation)) continue;
    link(e.source, e.target, ` -${e.relation}> `);
    link(e.target, e.source, ` <${e.relation}- `);
  }
  const found = new Map<number, string[]>();
  const walk = (node: string, seen: string[], text: string) => {
    if (node === to) {
      found.set(seen.length - 1, [...(found.get(seen.length - 1) ?? []), text]);
      return;
    }
    if (seen.length - 1 === maxHops) return;
    for (const { other, label } of adjacent.get(node) ?? []) {
      if (!seen.includes(other)) walk(other, [...seen, other], text + label + other);
    }
  };
  walk(from, [from], from);
  return found;
}

/** The database's paths in the same notation. */
function describePaths(result: PathsResult): Map<number, string[]> {
  const found = new Map<number, string[]>();
  for (const p of result.paths) {
    let text = externalOf.get(p.nodes[0]!)!;
    p.edges.forEach((e, i) => {
      const [a, b] = [p.nodes[i]!, p.nodes[i + 1]!];
      expect(e.direction === 'out' ? [e.source, e.target] : [e.target, e.source]).toEqual([a, b]);
      text += (e.direction === 'out' ? ` -${e.relation}> ` : ` <${e.relation}- `) + externalOf.get(b)!;
    });
    found.set(p.edges.length, [...(found.get(p.edges.length) ?? []), text]);
  }
  return found;
}

function expectSamePaths(result: PathsResult, expected: Map<number, string[]>, maxHops: number): void {
  const actual = describePaths(result);
  for (let hops = 1; hops <= maxHops; hops++) {
    expect((actual.get(hops) ?? []).sort()).toEqual((expected.get(hops) ?? []).sort());
    expect(result.counts.find((c) => c.hops === hops)?.total).toBe(expected.get(hops)?.length ?? 0);
  }
  expect(result.truncated).toBe(false);
}

async function rejects(p: Promise<unknown>, status: number, message: RegExp): Promise<void> {
  const err = await p.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(AppError);
  expect((err as AppError).status).toBe(status);
  expect((err as AppError).message).toMatch(message);
}

const CROHN = '37784';
const SMAD3 = '144';

describe('paths between two entities on PrimeKG IBD', () => {
  it('finds every simple path up to 3 hops between a disease and a gene, both ways round', async () => {
    const expected = enumerate(CROHN, SMAD3, 3);
    expect(expected.get(3)?.length).toBeGreaterThan(500);
    const result = await findPaths(pool(), kbId, { from: idOf.get(CROHN)!, to: idOf.get(SMAD3)!, maxHops: 3, cap: 1_000_000 });
    expect(result.from.name).toBe('Crohn disease');
    expectSamePaths(result, expected, 3);
    // Every entity on a path is described once.
    expect(new Set(result.entities.map((e) => e.id))).toEqual(new Set(result.paths.flatMap((p) => p.nodes)));

    // Reversed endpoints give the same paths read backwards.
    const reversed = await findPaths(pool(), kbId, { from: idOf.get(SMAD3)!, to: idOf.get(CROHN)!, maxHops: 3, cap: 1_000_000 });
    expectSamePaths(reversed, enumerate(SMAD3, CROHN, 3), 3);
  });

  it('matches brute force between a drug and a pathway, lists shortest first and caps the list', async () => {
    const drug = edges.find((e) => e.sourceType === 'drug' && e.relation === 'target')!.source;
    const pathways = new Set(edges.filter((e) => e.targetType === 'pathway').map((e) => e.target));
    // A pathway two hops from the drug, so paths of several lengths exist.
    const pathway = [...pathways].find((p) => (enumerate(drug, p, 3).get(2)?.length ?? 0) > 0)!;
    const expected = enumerate(drug, pathway, 3);
    const result = await findPaths(pool(), kbId, { from: idOf.get(drug)!, to: idOf.get(pathway)!, maxHops: 3, cap: 1_000_000 });
    expectSamePaths(result, expected, 3);
    const lengths = result.paths.map((p) => p.edges.length);
    expect(lengths).toEqual([...lengths].sort());

    const total = result.paths.length;
    const capped = await findPaths(pool(), kbId, { from: idOf.get(drug)!, to: idOf.get(pathway)!, maxHops: 3, cap: total - 1 });
    expect(capped.truncated).toBe(true);
    expect(capped.paths).toHaveLength(total - 1);
    expect(capped.counts).toEqual(result.counts);
  });

  it('keeps to the relations asked for, on every edge', async () => {
    for (const relations of [['interacts with'], ['associated with', 'target']]) {
      const expected = enumerate(CROHN, SMAD3, 3, relations);
      const result = await findPaths(pool(), kbId, { from: idOf.get(CROHN)!, to: idOf.get(SMAD3)!, maxHops: 3, relations, cap: 1_000_000 });
      expectSamePaths(result, expected, 3);
      for (const p of result.paths) for (const e of p.edges) expect(relations).toContain(e.relation);
    }
    const twoHops = await findPaths(pool(), kbId, { from: idOf.get(CROHN)!, to: idOf.get(SMAD3)!, maxHops: 2, cap: 1_000_000 });
    expectSamePaths(twoHops, enumerate(CROHN, SMAD3, 2), 2);
    expect(twoHops.counts.map((c) => c.hops)).toEqual([1, 2]);
  });

  it('finds the same paths with every 3-hop strategy, in both directions and under relation filters', async () => {
    const drug = edges.find((e) => e.sourceType === 'drug' && e.relation === 'target')!.source;
    const pairs = [[CROHN, SMAD3], [SMAD3, CROHN], [drug, CROHN], [CROHN, drug]] as const;
    for (const threeHop of ['expand', 'probe', 'weighed'] satisfies ThreeHopStrategy[]) {
      for (const [a, b] of pairs) {
        for (const relations of [undefined, ['interacts with', 'target']]) {
          const result = await findPaths(pool(), kbId, { from: idOf.get(a)!, to: idOf.get(b)!, maxHops: 3, relations, cap: 1_000_000 }, { threeHop });
          expectSamePaths(result, enumerate(a, b, 3, relations), 3);
        }
      }
    }
  });

  it('lists the first paths without a 3-hop count when counting would cost too much, exact again when all fit', async () => {
    const expected = enumerate(CROHN, SMAD3, 3);
    const all = new Set([1, 2, 3].flatMap((hops) => expected.get(hops) ?? []));
    for (const threeHop of ['expand', 'weighed'] satisfies ThreeHopStrategy[]) {
      const capped = await findPaths(pool(), kbId, { from: idOf.get(CROHN)!, to: idOf.get(SMAD3)!, maxHops: 3, cap: 300 }, { threeHop, countBudget: 0 });
      expect(capped.truncated).toBe(true);
      expect(capped.counts).toEqual([1, 2, 3].map((hops) => ({ hops, total: hops === 3 ? null : expected.get(hops)?.length ?? 0 })));
      expect(capped.paths).toHaveLength(300);
      // Real paths, shortest first, none twice.
      const listed = [...describePaths(capped).values()].flat();
      for (const p of listed) expect(all).toContain(p);
      expect(new Set(listed).size).toBe(300);
      const lengths = capped.paths.map((p) => p.edges.length);
      expect(lengths).toEqual([...lengths].sort());

      const uncapped = await findPaths(pool(), kbId, { from: idOf.get(CROHN)!, to: idOf.get(SMAD3)!, maxHops: 3, cap: 1_000_000 }, { threeHop, countBudget: 0 });
      expectSamePaths(uncapped, expected, 3);
    }
  });

  it('rejects the same entity twice, bad hop counts, unknown relations and entities', async () => {
    const crohn = idOf.get(CROHN)!;
    const smad3 = idOf.get(SMAD3)!;
    await rejects(findPaths(pool(), kbId, { from: crohn, to: crohn, maxHops: 2 }), 400, /to: must differ/);
    await rejects(findPaths(pool(), kbId, { from: crohn, to: smad3, maxHops: 4 }), 400, /hops/);
    await rejects(findPaths(pool(), kbId, { from: crohn, to: smad3, maxHops: 0 }), 400, /hops/);
    await rejects(findPaths(pool(), kbId, { from: crohn, to: smad3, maxHops: 2, relations: ['cures'] }), 400, /rel.*cures/);
    await rejects(findPaths(pool(), kbId, { from: crohn, to: 99_999_999, maxHops: 2 }), 404, /to: no entity 99999999/);
  });
});
