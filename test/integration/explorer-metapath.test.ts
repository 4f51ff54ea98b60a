import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../lib/errors';
import { evaluateMetapath, evaluateMetapaths, INDEX_ENTRIES_PER_ROW, metapathSchema, movesFrom, WALK_EDGE_BUDGET, type Metapath } from '../../lib/kb/metapath';
import { searchEntities } from '../../lib/kb/search';
import { ensureIndex } from '../../lib/retrieval/bm25-index';
import { openAppDatabase, pool } from '../support/app-database';
import { ibdIds, importIbd, readIbdEdges, type IbdEdge } from '../support/primekg-ibd';
import type { TestDatabase } from '../support/test-database';

let testDb: TestDatabase;
let kbId: number;
/** External id (PrimeKG node_index) -> database id, and back. */
let idOf: Map<string, number>;
let externalOf: Map<number, string>;
const edges: IbdEdge[] = readIbdEdges();

beforeAll(async () => {
  testDb = await openAppDatabase();
  kbId = await importIbd(pool());
  ({ idOf, externalOf } = await ibdIds(pool(), kbId));
});

afterAll(async () => {
  await testDb.drop();
});

const typeOf = new Map<string, string>();
for (const e of edges) {
  typeOf.set(e.source, e.sourceType);
  typeOf.set(e.target, e.targetType);
}

/** The metapath walked over the edge file itself: the set of external ids after each step. */
function expectedSteps(start: Set<string>, steps: Metapath['steps']): Set<string>[] {
  const sets: Set<string>[] = [];
  let current = start;
  for (const step of steps) {
    const next = new Set<string>();
    for (const e of edges) {
      if (e.relation !== step.relation) continue;
      const [near, far, farType] = step.direction === 'out' ? [e.source, e.target, e.targetType] : [e.target, e.source, e.sourceType];
      if (current.has(near) && farType === step.targetType) next.add(far);
    }
    sets.push(next);
    current = next;
  }
  return sets;
}

const ofType = (type: string) => new Set([...typeOf].filter(([, t]) => t === type).map(([id]) => id));
const degreeOf = (external: string) => edges.filter((e) => e.source === external || e.target === external).length;
const externals = (items: { id: number }[]) => new Set(items.map((i) => externalOf.get(i.id)!));

async function rejects(p: Promise<unknown>, status: number, message: RegExp): Promise<void> {
  const err = await p.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(AppError);
  expect((err as AppError).status).toBe(status);
  expect((err as AppError).message).toMatch(message);
}

describe('metapath explorer on PrimeKG IBD', () => {
  it('offers exactly the moves the edges allow, in both directions', async () => {
    const schema = await metapathSchema(pool(), kbId);
    const triples = new Map<string, number>();
    for (const e of edges) {
      const k = `${e.sourceType}|${e.relation}|${e.targetType}`;
      triples.set(k, (triples.get(k) ?? 0) + 1);
    }
    expect(new Map(schema.triples.map((t) => [`${t.sourceType}|${t.relation}|${t.targetType}`, t.edgeCount]))).toEqual(triples);
    const fromDrug = movesFrom(schema.triples, 'drug').map((m) => `${m.relation}|${m.direction}|${m.targetType}`);
    const expected = new Set<string>();
    for (const e of edges) {
      if (e.sourceType === 'drug') expected.add(`${e.relation}|out|${e.targetType}`);
      if (e.targetType === 'drug') expected.add(`${e.relation}|in|${e.sourceType}`);
    }
    expect(new Set(fromDrug)).toEqual(expected);
    expect(fromDrug).toHaveLength(expected.size);
  });

  it('walks drug -target-> gene/protein -interacts with-> pathway from one drug', async () => {
    // The drug with the most targets, so the walk fans out.
    const targets = new Map<string, number>();
    for (const e of edges) if (e.relation === 'target' && e.sourceType === 'drug') targets.set(e.source, (targets.get(e.source) ?? 0) + 1);
    const drug = [...targets].sort((a, b) => b[1] - a[1])[0]![0];
    const steps: Metapath['steps'] = [
      { relation: 'target', direction: 'out', targetType: 'gene/protein' },
      { relation: 'interacts with', direction: 'out', targetType: 'pathway' },
    ];
    const expected = expectedSteps(new Set([drug]), steps);
    expect(expected[1]!.size).toBeGreaterThan(0);

    const result = await evaluateMetapath(pool(), kbId, { start: { entity: idOf.get(drug)! }, steps }, { limit: 10_000, offset: 0 });
    expect(result.start).toBe(1);
    expect(result.steps.map((s) => s.reached)).toEqual(expected.map((s) => s.size));
    expect(result.total).toBe(expected[1]!.size);
    expect(externals(result.items)).toEqual(expected[1]);
    for (const item of result.items) {
      expect(item.type).toBe('pathway');
      expect(item.degree).toBe(degreeOf(externalOf.get(item.id)!));
    }
    // Ordered by degree, highest first; pages split that order without gaps or overlaps.
    const degrees = result.items.map((i) => i.degree);
    expect(degrees).toEqual([...degrees].sort((a, b) => b - a));
    const pages = [];
    for (let offset = 0; offset < result.total; offset += 7) {
      pages.push(...(await evaluateMetapath(pool(), kbId, { start: { entity: idOf.get(drug)! }, steps }, { limit: 7, offset })).items);
    }
    expect(pages.map((i) => i.id)).toEqual(result.items.map((i) => i.id));
  });

  it('pages a large reached set by walking the degree index, in the order of sorting the whole set', async () => {
    // Every biological process a gene/protein interacts with: about half the knowledge base.
    const path: Metapath = { start: { type: 'gene/protein' }, steps: [{ relation: 'interacts with', direction: 'out', targetType: 'biological_process' }] };
    const expected = expectedSteps(ofType('gene/protein'), path.steps)[0]!;
    // The page plan walks when the set's size squared, times a row's cost in index entries, exceeds the
    // final type's size times the page's depth.
    const depth = 40;
    const walks = (pageDepth: number) => expected.size ** 2 * INDEX_ENTRIES_PER_ROW > ofType('biological_process').size * pageDepth;
    expect(walks(depth)).toBe(true);
    // Sorting the whole set: a page deep enough that walking would cost more.
    const sortDepth = Math.ceil(expected.size ** 2 * INDEX_ENTRIES_PER_ROW / ofType('biological_process').size);
    expect(walks(sortDepth)).toBe(false);
    const whole = await evaluateMetapath(pool(), kbId, path, { limit: sortDepth, offset: 0 });
    expect(externals(whole.items)).toEqual(expected);
    const pages = [];
    // Pages of one, so that many end inside a run of equal degrees, which is ordered by name.
    for (let offset = 0; offset < depth; offset++) pages.push(...(await evaluateMetapath(pool(), kbId, path, { limit: 1, offset })).items);
    expect(pages).toEqual(whole.items.slice(0, depth));
    expect(new Set(pages.map((i) => i.degree)).size).toBeLessThan(depth / 2);
  });

  it('walks a whole type, backwards along an edge and through a relation that reaches several types', async () => {
    const steps: Metapath['steps'] = [
      { relation: 'associated with', direction: 'in', targetType: 'gene/protein' },
      { relation: 'target', direction: 'in', targetType: 'drug' },
      { relation: 'transporter', direction: 'out', targetType: 'gene/protein' },
      { relation: 'interacts with', direction: 'out', targetType: 'cellular_component' },
    ];
    const expected = expectedSteps(ofType('disease'), steps);
    const result = await evaluateMetapath(pool(), kbId, { start: { type: 'disease' }, steps }, { limit: 5, offset: 0 });
    expect(result.start).toBe(ofType('disease').size);
    expect(result.steps.map((s) => s.reached)).toEqual(expected.map((s) => s.size));
    expect(result.total).toBe(expected[3]!.size);
    expect(result.items).toHaveLength(Math.min(5, expected[3]!.size));
    for (const id of externals(result.items)) expect(expected[3]!.has(id)).toBe(true);
  });

  it('intersects two branches meeting at one type, with each branch counted', async () => {
    const gene = '144'; // SMAD3
    const a: Metapath = { start: { entity: idOf.get(gene)! }, steps: [{ relation: 'associated with', direction: 'out', targetType: 'disease' }] };
    const b: Metapath = {
      start: { type: 'drug' },
      steps: [
        { relation: 'target', direction: 'out', targetType: 'gene/protein' },
        { relation: 'associated with', direction: 'out', targetType: 'disease' },
      ],
    };
    const ea = expectedSteps(new Set([gene]), a.steps);
    const eb = expectedSteps(ofType('drug'), b.steps);
    const both = new Set([...ea[0]!].filter((x) => eb[1]!.has(x)));
    expect(both.size).toBeGreaterThan(0);
    expect(both.size).toBeLessThan(ea[0]!.size + eb[1]!.size);

    const result = await evaluateMetapaths(pool(), kbId, [a, b], { limit: 1000, offset: 0 });
    expect(result.branches.map((br) => br.steps.map((s) => s.reached))).toEqual([ea.map((s) => s.size), eb.map((s) => s.size)]);
    expect(result.total).toBe(both.size);
    expect(externals(result.items)).toEqual(both);

    await rejects(evaluateMetapaths(pool(), kbId, [a, { start: { type: 'drug' }, steps: [b.steps[0]!] }], { limit: 10, offset: 0 }),
      400, /paths\[1\].*gene\/protein.*disease/);
  });

  it('narrows the reachable set to entities with any of the words, ranked by BM25 as search ranks', async () => {
    await ensureIndex(pool(), kbId, false);
    const path: Metapath = { start: { type: 'pathway' }, steps: [{ relation: 'interacts with', direction: 'out', targetType: 'gene/protein' }] };
    const all = await evaluateMetapath(pool(), kbId, path, { limit: 100_000, offset: 0 });
    const q = 'kinase receptor';
    const filtered = await evaluateMetapaths(pool(), kbId, [path], { limit: 100_000, offset: 0, q });
    // The reached entities whose text has either word, as written (no stemming).
    const texts = await pool().query<{ id: number; text: string }>('SELECT id, text FROM entity WHERE kb_id = $1 AND id = ANY($2::int[])', [kbId, all.items.map((i) => i.id)]);
    const words = (t: string) => new Set(t.toLowerCase().match(/[\p{L}\p{N}]+/gu));
    const covers = new Map(texts.rows.map((r) => [r.id, ['kinase', 'receptor'].filter((w) => words(r.text).has(w)).length]));
    const matching = [...covers].filter(([, n]) => n > 0).map(([id]) => id);
    expect(filtered).toMatchObject({ ranking: 'bm25', words: ['kinase', 'receptor'], total: matching.length });
    expect(filtered.total).toBeGreaterThan(0);
    expect(filtered.total).toBeLessThan(all.total);
    expect(new Set(filtered.items.map((i) => i.id))).toEqual(new Set(matching));
    for (const item of filtered.items) expect(item.covered).toBe(covers.get(item.id));
    expect(filtered.branches[0]!.steps).toEqual(all.steps);
    expect(filtered.items.some((i) => i.snippet?.includes('\u0002'))).toBe(true);
    // The same order as explorer search restricted to these entities.
    const search = await searchEntities(pool(), kbId, { query: q, types: ['gene/protein'], limit: 100, offset: 0 });
    const reached = new Set(matching);
    expect(filtered.items.slice(0, 20).map((i) => i.id)).toEqual(search.hits.filter((h) => reached.has(h.id)).slice(0, 20).map((h) => h.id));
    // Strict syntax as in search: both words required.
    const both = await evaluateMetapath(pool(), kbId, path, { limit: 100_000, offset: 0, q: 'kinase AND receptor' });
    expect(new Set(both.items.map((i) => i.id))).toEqual(new Set([...covers].filter(([, n]) => n === 2).map(([id]) => id)));
  });

  it('rejects unknown names and impossible moves, naming the step and field', async () => {
    const drug = { entity: idOf.get([...ofType('drug')][0]!)! };
    await rejects(evaluateMetapath(pool(), kbId, { start: drug, steps: [{ relation: 'cures', direction: 'out', targetType: 'disease' }] }, { limit: 10, offset: 0 }),
      400, /steps\[0\]\.relation.*cures/);
    await rejects(evaluateMetapath(pool(), kbId, {
      start: drug,
      steps: [{ relation: 'target', direction: 'out', targetType: 'gene/protein' }, { relation: 'target', direction: 'out', targetType: 'protein' }],
    }, { limit: 10, offset: 0 }), 400, /steps\[1\]\.targetType.*protein/);
    await rejects(evaluateMetapath(pool(), kbId, { start: { type: 'compound' }, steps: [{ relation: 'target', direction: 'out', targetType: 'gene/protein' }] }, { limit: 10, offset: 0 }),
      400, /start\.type.*compound/);
    await rejects(evaluateMetapath(pool(), kbId, { start: drug, steps: [{ relation: 'associated with', direction: 'out', targetType: 'disease' }] }, { limit: 10, offset: 0 }),
      400, /steps\[0\]: no "associated with" edges lead from drug to disease/);
    await rejects(evaluateMetapath(pool(), kbId, { start: { entity: 99_999_999 }, steps: [{ relation: 'target', direction: 'out', targetType: 'gene/protein' }] }, { limit: 10, offset: 0 }),
      404, /start.*99999999/);
  });
});

/** Edges of the step's relation leaving the set the way the step walks. */
const edgesFrom = (set: Set<string>, step: Metapath['steps'][number]) =>
  edges.filter((e) => e.relation === step.relation && set.has(step.direction === 'out' ? e.source : e.target)).length;

/** The most connected entity: the fixture's hub. */
const hub = [...typeOf.keys()].map((id) => [id, degreeOf(id)] as const).sort((a, b) => b[1] - a[1])[0]![0];

// The explorer's bounded walk (`walkBudget`): exact wherever the walk fits the budget, a flagged lower bound
// ("at least") where a hub's walk is cut short.
describe('bounded metapath walk on PrimeKG IBD', () => {
  it('counts every 2-step metapath from the hub exactly when the walk fits the explorer budget', async () => {
    const schema = await metapathSchema(pool(), kbId);
    const paths = movesFrom(schema.triples, typeOf.get(hub)!).flatMap((m1) => movesFrom(schema.triples, m1.targetType).map((m2): Metapath => ({
      start: { entity: idOf.get(hub)! },
      steps: [m1, m2].map(({ relation, direction, targetType }) => ({ relation, direction, targetType })),
    })));
    expect(paths.length).toBeGreaterThan(3);
    for (const path of paths) {
      const expected = expectedSteps(new Set([hub]), path.steps);
      expect(edgesFrom(expected[0]!, path.steps[1]!)).toBeLessThanOrEqual(WALK_EDGE_BUDGET);
      const bounded = await evaluateMetapath(pool(), kbId, path, { limit: 10_000, offset: 0, walkBudget: WALK_EDGE_BUDGET });
      expect(bounded.steps).toEqual(expected.map((s) => ({ reached: s.size })));
      expect(bounded.total).toBe(expected[1]!.size);
      expect(bounded.totalAtLeast).toBeUndefined();
      expect(new Set(bounded.items.map((i) => externalOf.get(i.id)))).toEqual(expected[1]);
    }
  });

  it('gives a flagged lower bound when a step reads more edges than the budget', async () => {
    // A 2-step metapath from the hub whose second step reads more edges than the first and reaches more
    // entities than that, along relations that land on one type each (no type check drops an edge read).
    const schema = await metapathSchema(pool(), kbId);
    const oneType = (from: string, m: { relation: string; direction: 'out' | 'in' }) => new Set(schema.triples
      .filter((t) => t.relation === m.relation && (m.direction === 'out' ? t.sourceType : t.targetType) === from)
      .map((t) => (m.direction === 'out' ? t.targetType : t.sourceType))).size === 1;
    const candidates = movesFrom(schema.triples, typeOf.get(hub)!).filter((m1) => oneType(typeOf.get(hub)!, m1))
      .flatMap((m1) => movesFrom(schema.triples, m1.targetType).filter((m2) => oneType(m1.targetType, m2))
        .map((m2) => [m1, m2].map(({ relation, direction, targetType }) => ({ relation, direction, targetType }))));
    const steps = candidates.find((c) => {
      const first = edgesFrom(new Set([hub]), c[0]!);
      const sets = expectedSteps(new Set([hub]), c);
      return edgesFrom(sets[0]!, c[1]!) > first + 1 && sets[1]!.size > first + 1;
    })!;
    expect(steps).toBeDefined();
    const path: Metapath = { start: { entity: idOf.get(hub)! }, steps };
    const expected = expectedSteps(new Set([hub]), steps);
    // The first step fits the budget exactly; the second reads past it.
    const budget = edgesFrom(new Set([hub]), steps[0]!);

    const capped = await evaluateMetapath(pool(), kbId, path, { limit: 10_000, offset: 0, walkBudget: budget });
    expect(capped.steps[0]).toEqual({ reached: expected[0]!.size });
    expect(capped.steps[1]!.atLeast).toBe(true);
    expect(capped.steps[1]!.reached).toBeGreaterThan(0);
    expect(capped.steps[1]!.reached).toBeLessThan(expected[1]!.size);
    expect(capped.totalAtLeast).toBe(true);
    expect(capped.total).toBe(capped.steps[1]!.reached);
    // Everything listed is really reached, highest degree first.
    expect(capped.items).toHaveLength(capped.total);
    for (const item of capped.items) expect(expected[1]!.has(externalOf.get(item.id)!)).toBe(true);
    const degrees = capped.items.map((i) => i.degree);
    expect(degrees).toEqual([...degrees].sort((a, b) => b - a));

    // Asked without a bound, the same metapath is counted exactly.
    const exact = await evaluateMetapath(pool(), kbId, path, { limit: 0, offset: 0 });
    expect(exact.steps).toEqual(expected.map((s) => ({ reached: s.size })));
    expect(exact.total).toBe(expected[1]!.size);
  });

  it('treats a step that reads exactly the budget as complete, and one edge more as cut short', async () => {
    const { relation, targetType } = (await metapathSchema(pool(), kbId)).triples.find((t) => t.sourceType === typeOf.get(hub) && edgesFrom(new Set([hub]), { relation: t.relation, direction: 'out', targetType: t.targetType }) > 1)!;
    const step = { relation, direction: 'out' as const, targetType };
    const path: Metapath = { start: { entity: idOf.get(hub)! }, steps: [step] };
    const n = edgesFrom(new Set([hub]), step);
    const reached = expectedSteps(new Set([hub]), [step])[0]!.size;
    const fits = await evaluateMetapath(pool(), kbId, path, { limit: 1, offset: 0, walkBudget: n });
    expect(fits.steps).toEqual([{ reached }]);
    expect(fits.totalAtLeast).toBeUndefined();
    const short = await evaluateMetapath(pool(), kbId, path, { limit: 1, offset: 0, walkBudget: n - 1 });
    // The count of a first step is still exact (the hub's edge count); the final set is a subset.
    expect(short.steps).toEqual([{ reached }]);
    expect(short.totalAtLeast).toBe(true);
    expect(short.total).toBeLessThanOrEqual(reached);
  });

  it('flags the intersection of two branches when either was cut short', async () => {
    const schema = await metapathSchema(pool(), kbId);
    const move = movesFrom(schema.triples, typeOf.get(hub)!).find((m) => edgesFrom(new Set([hub]), m) > 2)!;
    const step = { relation: move.relation, direction: move.direction, targetType: move.targetType };
    const a: Metapath = { start: { entity: idOf.get(hub)! }, steps: [step] };
    const b: Metapath = { start: { entity: idOf.get(hub)! }, steps: [step] };
    const whole = await evaluateMetapaths(pool(), kbId, [a, b], { limit: 0, offset: 0, walkBudget: WALK_EDGE_BUDGET });
    expect(whole.totalAtLeast).toBeUndefined();
    const cut = await evaluateMetapaths(pool(), kbId, [a, b], { limit: 0, offset: 0, walkBudget: 1 });
    expect(cut.totalAtLeast).toBe(true);
    expect(cut.total).toBeLessThan(whole.total);
  });
});
