// Explorer benchmark: the explorer's queries on a generated knowledge base in a real PostgreSQL, p50/p95 over
// random and hub entities. By default STaRK-Prime-sized (130k entities, 8.1M edges, hubs with 50k+ edges); with
// --shape mag|amazon [--scale F] the generator's graph of that shape (see explorer-data.ts for the database).
//
//   npx tsx scripts/bench/explorer.mts [--server URL] [--database NAME] [--slug SLUG] [--runs 200]
//     [--shape prime|mag|amazon] [--scale 1] [--hub-degree N] [--hubs-per-type N] [--hub-types a,b]
//     [--measures entity,search,...] [--metapath-exact]
//
// The database is made on the first run (generate + import) and kept for later runs.
import os from 'node:os';
import { parseArgs } from 'node:util';
import { autocomplete } from '../../lib/kb/autocomplete';
import { getEntity, relationCounts } from '../../lib/kb/entity';
import { evaluateMetapath, metapathSchema, movesFrom, WALK_EDGE_BUDGET, type MetapathStep } from '../../lib/kb/metapath';
import { neighbourhood } from '../../lib/kb/neighbourhood';
import { listNeighbours } from '../../lib/kb/neighbours';
import { findPaths } from '../../lib/kb/paths';
import { HUB_DEGREE, benchDataArgs, benchDataOptions, chooseHubs, ensureBenchDatabase, largestGroups, type BenchEntity, appSessionPool } from './explorer-data';
import { searchMeasures } from './search-measures';
import { mulberry32 } from '../../lib/random';
import { percentile, table, time, type Timing } from './measure';

const MEASURES = ['entity', 'neighbours', 'search', 'autocomplete', 'graph', 'metapath', 'paths'] as const;
const { values } = parseArgs({
  options: {
    ...benchDataArgs,
    runs: { type: 'string', default: '200' },
    'hub-degree': { type: 'string' },
    'hubs-per-type': { type: 'string' },
    'hub-types': { type: 'string' },
    // Metapaths counted exactly, as before the explorer's bounded walk (WALK_EDGE_BUDGET edges per step).
    'metapath-exact': { type: 'boolean', default: false },
    measures: { type: 'string', default: MEASURES.join(',') },
  },
});
const runs = Number(values.runs);
const rng = mulberry32(20261122);
const data = benchDataOptions(values);
const measures = new Set(values.measures!.split(','));
const unknown = [...measures].filter((m) => !(MEASURES as readonly string[]).includes(m));
if (unknown.length) throw new Error(`--measures: unknown ${unknown.join(', ')}; choose from ${MEASURES.join(', ')}`);

const { url, kbId } = await ensureBenchDatabase(data);
console.log(`Load average at the start: ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
// One connection more than the app needs per request, as in the app's pool.
const pool = appSessionPool(url, 4);

const sample = async (sql: string, args: unknown[]) => (await pool.query<BenchEntity>(sql, args)).rows;
const SAMPLE_SQL = `SELECT e.id, e.name, t.name AS type, e.degree FROM entity e JOIN node_type t ON t.id = e.type_id WHERE e.kb_id = $1`;
// A deterministic spread of ordinary entities, and the hubs: every entity of the shape's hub degree (Prime), or
// the largest of each type above it (MAG, Amazon), since MAG has thousands of fields of study with 10k+ papers.
const randoms = await sample(`${SAMPLE_SQL} ORDER BY hashint4(e.id + 7) LIMIT $2`, [kbId, runs]);
const hubDegree = Number(values['hub-degree'] ?? HUB_DEGREE[data.shape ?? 'prime']);
const hubTypes = values['hub-types']?.split(',');
const hubs = (await chooseHubs(pool, kbId, hubDegree, Number(values['hubs-per-type'] ?? (data.shape ? 10 : 0))))
  .filter((h) => !hubTypes || hubTypes.includes(h.type));
const mixed = [...randoms, ...hubs];
const kbSize = (await pool.query<{ entity_count: number; edge_count: string }>('SELECT entity_count, edge_count FROM knowledge_base WHERE id = $1', [kbId])).rows[0]!;
console.log(`${data.database}: ${kbSize.entity_count.toLocaleString('en')} entities, ${Number(kbSize.edge_count).toLocaleString('en')} edges.`);
console.log(`${randoms.length} random entities, ${hubs.length} hubs (${hubDegree.toLocaleString('en')}+ edges; largest ${hubs[0]?.degree.toLocaleString('en') ?? 'none'}):`);
const byType = new Map<string, number[]>();
for (const h of hubs) byType.set(h.type, [...(byType.get(h.type) ?? []), h.degree]);
for (const [type, degrees] of byType) console.log(`  ${type}: ${degrees.length}, ${degrees.at(-1)!.toLocaleString('en')}-${degrees[0]!.toLocaleString('en')} edges`);
for (const line of await largestGroups(pool, kbId)) console.log(`  ${line}`);
if (!hubs.length) throw new Error(`no entity has ${hubDegree}+ edges: lower --hub-degree`);

const results: (Timing & { budget?: number })[] = [];
const summarize = (name: string, ms: number[]): Timing => {
  const sorted = [...ms].sort((a, b) => a - b);
  return { name, runs: sorted.length, p50: percentile(sorted, 50), p95: percentile(sorted, 95), max: sorted.at(-1)! };
};
const record = (t: Timing, budget?: number) => {
  results.push({ ...t, budget });
  console.log(`${t.name}: p50 ${t.p50.toFixed(1)} ms, p95 ${t.p95.toFixed(1)} ms, max ${t.max.toFixed(1)} ms`);
};

// Entity page: the document, the relation summary and the first neighbour page of its largest relation.
if (measures.has('entity')) {
  record(await time('entity page data (random + hubs)', mixed, async (e) => {
    const [, groups] = await Promise.all([getEntity(pool, kbId, e.id), relationCounts(pool, kbId, e.id)]);
    const largest = groups.reduce((a, b) => (b.count > a.count ? b : a), groups[0]!);
    if (largest) await listNeighbours(pool, kbId, e.id, { relation: largest.relationId, direction: largest.direction, sort: 'name', order: 'asc', limit: 25 });
  }), 25);
  record(await time('entity page data (hubs only)', hubs, async (e) => {
    const [, groups] = await Promise.all([getEntity(pool, kbId, e.id), relationCounts(pool, kbId, e.id)]);
    const largest = groups.reduce((a, b) => (b.count > a.count ? b : a), groups[0]!);
    await listNeighbours(pool, kbId, e.id, { relation: largest.relationId, direction: largest.direction, sort: 'degree', order: 'desc', limit: 25 });
  }), 25);
}

// Neighbour list, a later page through the cursor, on hubs, for both sorts.
if (measures.has('neighbours')) {
  const hubGroups = await Promise.all(hubs.map(async (h) => {
    const groups = await relationCounts(pool, kbId, h.id);
    return { hub: h, group: groups.reduce((a, b) => (b.count > a.count ? b : a), groups[0]!) };
  }));
  for (const sort of ['name', 'degree'] as const) {
    record(await time(`hub neighbour list, page 5 by ${sort} (cursor)`, hubGroups, async ({ hub, group }) => {
      let cursor: string | undefined;
      for (let page = 0; page < 5; page++) {
        const res = await listNeighbours(pool, kbId, hub.id, { relation: group.relationId, direction: group.direction, sort, order: sort === 'name' ? 'asc' : 'desc', limit: 25, cursor });
        cursor = res.nextCursor ?? undefined;
      }
    }));
  }
}

if (measures.has('search')) for (const t of await searchMeasures(pool, kbId, runs, rng)) record(t, 100);

// Autocomplete: prefixes, and names with one letter changed.
if (measures.has('autocomplete')) {
  const typo = (name: string) => { const i = 1 + Math.floor(rng() * (name.length - 2)); return name.slice(0, i) + (name[i] === 'x' ? 'y' : 'x') + name.slice(i + 1); };
  record(await time('autocomplete, prefixes', randoms.map((e) => e.name.slice(0, 4)), (q) => autocomplete(pool, kbId, q, 10)));
  record(await time('autocomplete, one typo', randoms.map((e) => typo(e.name)), (q) => autocomplete(pool, kbId, q, 10)));
}

// Graph view: a 2-hop neighbourhood within the 500-element budget.
if (measures.has('graph')) {
  record(await time('graph view, 2 hops, 500 elements', mixed, (e) => neighbourhood(pool, kbId, { entityId: e.id, hops: 2, budget: 500 })));
  record(await time('graph view, 3 hops, 500 elements (hubs)', hubs, (e) => neighbourhood(pool, kbId, { entityId: e.id, hops: 3, budget: 500 })));
}

// Metapaths: every 2-step metapath the schema allows from each hub, with the first page of reached entities, as
// the explorer asks for it (the walk bounded; --metapath-exact counts exactly); also per type of hub.
if (measures.has('metapath')) {
  const schema = await metapathSchema(pool, kbId);
  const twoStep = hubs.flatMap((h) => movesFrom(schema.triples, h.type).flatMap((m1) => movesFrom(schema.triples, m1.targetType)
    .map((m2) => ({ hub: h, steps: [m1, m2].map(({ relation, direction, targetType }): MetapathStep => ({ relation, direction, targetType })) }))));
  const exact = values['metapath-exact'];
  const label = `2-hop metapath count from a hub${exact ? ', exact' : ''}`;
  const ms = new Map<(typeof twoStep)[number], number>();
  // A set, as `time` runs the first metapath once more to warm up.
  const bounded = new Set<(typeof twoStep)[number]>();
  record(await time(label, twoStep, async (m) => {
    const t = performance.now();
    const r = await evaluateMetapath(pool, kbId, { start: { entity: m.hub.id }, steps: m.steps }, { limit: 20, offset: 0, walkBudget: exact ? undefined : WALK_EDGE_BUDGET });
    ms.set(m, performance.now() - t);
    if (r.totalAtLeast) bounded.add(m);
  }), 250);
  if (!exact) console.log(`  ${bounded.size} of ${twoStep.length} runs counted a lower bound (walk cut at ${WALK_EDGE_BUDGET.toLocaleString('en')} edges per step)`);
  if (byType.size > 1) for (const type of byType.keys()) record(summarize(`${label} (${type})`, twoStep.filter((m) => m.hub.type === type).map((m) => ms.get(m)!)), 250);
  const slowest = [...ms].sort((a, b) => b[1] - a[1]).slice(0, 5);
  for (const [m, t] of slowest) console.log(`  ${t.toFixed(0)} ms: ${m.hub.type} ${m.hub.id} (${m.hub.degree.toLocaleString('en')} edges) ${m.steps.map((s) => `${s.direction}~${s.relation}~${s.targetType}`).join(' / ')}`);
}

// Paths of up to 3 hops: random pairs, pairs two hops apart, and pairs of hubs (at most 21 of them, taken
// from each type in turn).
if (measures.has('paths')) {
  const near = (await pool.query<{ a: number; b: number }>(
    `SELECT s.id AS a, x.target_id AS b FROM (SELECT id FROM entity WHERE kb_id = $1 ORDER BY hashint4(id + 13) LIMIT $2) s
       CROSS JOIN LATERAL (SELECT e2.target_id FROM edge e1 JOIN edge e2 ON e2.kb_id = $1 AND e2.source_id = e1.target_id
                            WHERE e1.kb_id = $1 AND e1.source_id = s.id AND e2.target_id <> s.id LIMIT 1) x`, [kbId, runs])).rows;
  const perType = [...byType.keys()].map((type) => hubs.filter((h) => h.type === type));
  const pairHubs = Array.from({ length: Math.max(...perType.map((l) => l.length)) }, (_, i) => perType.flatMap((l) => l[i] ?? [])).flat().slice(0, 21);
  const pairs = [
    ...randoms.slice(0, runs / 2).map((e, i) => ({ a: e.id, b: randoms[(i * 7 + 3) % randoms.length]!.id })),
    ...near,
    ...pairHubs.flatMap((h, i) => pairHubs.slice(i + 1).map((o) => ({ a: h.id, b: o.id }))),
  ].filter((p) => p.a !== p.b);
  record(await time('paths up to 3 hops', pairs, ({ a, b }) => findPaths(pool, kbId, { from: a, to: b, maxHops: 3 })), 500);
}

const machine = `${os.cpus().length} cores (${os.cpus()[0]?.model.trim()}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, PostgreSQL ${(await pool.query<{ server_version: string }>('SHOW server_version')).rows[0]!.server_version.split(' ')[0]}, Node ${process.versions.node}`;
console.log(`\nMachine: ${machine}; ${new Date().toISOString().slice(0, 10)}; load average at the end ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}\n`);
console.log(table(results));
await pool.end();
