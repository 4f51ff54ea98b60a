// Explorer benchmark: the explorer's queries on a generated STaRK-Prime-sized knowledge base (130k entities,
// 8.1M edges, hubs with 100k+ edges) in a real PostgreSQL, p50/p95 over random and hub entities.
//
//   npx tsx scripts/bench/explorer.mts [--server URL] [--database skb_bench_explorer] [--runs 200]
//
// The database is made on the first run (generate + import, a few minutes) and kept for later runs.
import os from 'node:os';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { autocomplete } from '../../lib/kb/autocomplete';
import { getEntity, relationCounts } from '../../lib/kb/entity';
import { evaluateMetapath, metapathSchema, movesFrom, type MetapathStep } from '../../lib/kb/metapath';
import { neighbourhood } from '../../lib/kb/neighbourhood';
import { listNeighbours } from '../../lib/kb/neighbours';
import { findPaths } from '../../lib/kb/paths';
import { ensureBenchDatabase } from './explorer-data';
import { searchMeasures } from './search-measures';
import { mulberry32 } from '../../lib/random';
import { table, time, type Timing } from './measure';

const { values } = parseArgs({
  options: {
    server: { type: 'string', default: process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres' },
    database: { type: 'string', default: 'skb_bench_explorer' },
    entities: { type: 'string', default: '130000' },
    edges: { type: 'string', default: '8100000' },
    runs: { type: 'string', default: '200' },
  },
});
const runs = Number(values.runs);
const rng = mulberry32(20261122);

const { url, kbId } = await ensureBenchDatabase({ server: values.server!, database: values.database!, entities: Number(values.entities), edges: Number(values.edges) });
// One connection more than the app needs per request, as in the app's pool.
const pool = new pg.Pool({ connectionString: url, max: 4 });

interface Sample { id: number; name: string; type: string; degree: number }
const sample = async (sql: string, args: unknown[]) => (await pool.query<Sample>(sql, args)).rows;
const SAMPLE_SQL = `SELECT e.id, e.name, t.name AS type, e.degree FROM entity e JOIN node_type t ON t.id = e.type_id WHERE e.kb_id = $1`;
// A deterministic spread of ordinary entities, and the hubs (100k+ edges).
const randoms = await sample(`${SAMPLE_SQL} ORDER BY hashint4(e.id + 7) LIMIT $2`, [kbId, runs]);
const hubs = await sample(`${SAMPLE_SQL} AND e.degree >= 50000 ORDER BY e.degree DESC`, [kbId]);
const mixed = [...randoms, ...hubs];
const maxHub = hubs[0]!;
console.log(`${randoms.length} random entities, ${hubs.length} hubs (50k+ edges; largest ${maxHub.degree.toLocaleString('en')}).`);

const results: (Timing & { budget?: number })[] = [];
const record = (t: Timing, budget?: number) => {
  results.push({ ...t, budget });
  console.log(`${t.name}: p50 ${t.p50.toFixed(1)} ms, p95 ${t.p95.toFixed(1)} ms, max ${t.max.toFixed(1)} ms`);
};

// Entity page: the document, the relation summary and the first neighbour page of its largest relation.
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

// Neighbour list, a later page through the cursor, on hubs, for both sorts.
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

for (const t of await searchMeasures(pool, kbId, runs, rng)) record(t, 50);

// Autocomplete: prefixes, and names with one letter changed.
const typo = (name: string) => { const i = 1 + Math.floor(rng() * (name.length - 2)); return name.slice(0, i) + (name[i] === 'x' ? 'y' : 'x') + name.slice(i + 1); };
record(await time('autocomplete, prefixes', randoms.map((e) => e.name.slice(0, 4)), (q) => autocomplete(pool, kbId, q, 10)));
record(await time('autocomplete, one typo', randoms.map((e) => typo(e.name)), (q) => autocomplete(pool, kbId, q, 10)));

// Graph view: a 2-hop neighbourhood within the 500-element budget.
record(await time('graph view, 2 hops, 500 elements', mixed, (e) => neighbourhood(pool, kbId, { entityId: e.id, hops: 2, budget: 500 })));
record(await time('graph view, 3 hops, 500 elements (hubs)', hubs, (e) => neighbourhood(pool, kbId, { entityId: e.id, hops: 3, budget: 500 })));

// Metapaths: every 2-step metapath the schema allows from each hub, with the first page of reached entities.
const schema = await metapathSchema(pool, kbId);
const twoStep = hubs.flatMap((h) => movesFrom(schema.triples, h.type).flatMap((m1) => movesFrom(schema.triples, m1.targetType)
  .map((m2) => ({ hub: h, steps: [m1, m2].map(({ relation, direction, targetType }): MetapathStep => ({ relation, direction, targetType })) }))));
record(await time('2-hop metapath count from a hub', twoStep, ({ hub, steps }) => evaluateMetapath(pool, kbId, { start: { entity: hub.id }, steps }, { limit: 20, offset: 0 })), 250);

// Paths of up to 3 hops: random pairs, pairs two hops apart, and hub pairs.
const near = (await pool.query<{ a: number; b: number }>(
  `SELECT s.id AS a, x.target_id AS b FROM (SELECT id FROM entity WHERE kb_id = $1 ORDER BY hashint4(id + 13) LIMIT $2) s
     CROSS JOIN LATERAL (SELECT e2.target_id FROM edge e1 JOIN edge e2 ON e2.kb_id = $1 AND e2.source_id = e1.target_id
                          WHERE e1.kb_id = $1 AND e1.source_id = s.id AND e2.target_id <> s.id LIMIT 1) x`, [kbId, runs])).rows;
const pairs = [
  ...randoms.slice(0, runs / 2).map((e, i) => ({ a: e.id, b: randoms[(i * 7 + 3) % randoms.length]!.id })),
  ...near,
  ...hubs.flatMap((h, i) => hubs.slice(i + 1).map((o) => ({ a: h.id, b: o.id }))),
].filter((p) => p.a !== p.b);
record(await time('paths up to 3 hops', pairs, ({ a, b }) => findPaths(pool, kbId, { from: a, to: b, maxHops: 3 })), 500);

const machine = `${os.cpus().length} cores (${os.cpus()[0]?.model.trim()}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, PostgreSQL ${(await pool.query<{ server_version: string }>('SHOW server_version')).rows[0]!.server_version.split(' ')[0]}, Node ${process.versions.node}`;
console.log(`\nMachine: ${machine}; ${new Date().toISOString().slice(0, 10)}\n`);
console.log(table(results));
await pool.end();
