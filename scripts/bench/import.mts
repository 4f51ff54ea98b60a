// Import benchmark: a generated STaRK-Prime-sized knowledge base into real PostgreSQL, next to
// PostgreSQL's own COPY of the same rows into the same tables (the physical limit).
//
//   npx tsx scripts/bench/import.mts [--entities 130000] [--edges 8100000] [--dir /tmp/skb-bench] [--server URL]
//
// It creates and drops its own database on the server (default: the local PostgreSQL).
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { migrate } from '../../lib/db/migrate';
import { generateKnowledgeBase } from '../../lib/ingest/generate';
import { importKnowledgeBase } from '../../lib/ingest/importer';
import { buildEdgeIndexes, buildEntityIndexes, createStagingTables, liveTables } from '../../lib/ingest/partitions';
import { nativeSource } from '../../lib/ingest/readers/native';

const { values } = parseArgs({
  options: {
    entities: { type: 'string', default: '130000' },
    edges: { type: 'string', default: '8100000' },
    dir: { type: 'string', default: path.join(os.tmpdir(), 'skb-bench') },
    server: { type: 'string', default: process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres' },
  },
});
const entities = Number(values.entities);
const edges = Number(values.edges);
const dir = path.join(values.dir!, `${entities}-${edges}`);

let peakRss = 0;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);
const seconds = (since: number) => (performance.now() - since) / 1000;
const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);

async function ensureInput() {
  const files = [path.join(dir, 'entities.jsonl'), path.join(dir, 'edges.tsv')];
  if (!files.every((f) => fs.existsSync(f))) {
    console.log(`Generating ${entities.toLocaleString('en')} entities, ${edges.toLocaleString('en')} edges into ${dir} ...`);
    const g = await generateKnowledgeBase({ entities, edges, outDir: dir });
    console.log(`  ${g.seconds.toFixed(1)} s, max degree ${g.maxDegree.toLocaleString('en')}, ${g.hubs} hubs with 100k+ edges`);
  }
  return files;
}

async function main() {
  const files = await ensureInput();
  const inputBytes = files.reduce((s, f) => s + fs.statSync(f).size, 0);
  const name = `skb_bench_${crypto.randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: values.server });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(values.server!);
  url.pathname = `/${name}`;
  const pool = new pg.Pool({ connectionString: url.toString(), max: 4 });
  // DROP DATABASE ... WITH (FORCE) at the end ends idle connections; that is expected.
  pool.on('error', () => {});
  try {
    await migrate(url.toString());
    const rssBefore = process.memoryUsage().rss;
    peakRss = rssBefore;
    const t0 = performance.now();
    const summary = await importKnowledgeBase(pool, nativeSource(files), { slug: 'bench', format: 'native', files });
    const importSeconds = seconds(t0);
    const importPeak = peakRss;

    // The baseline: the same rows, as the import stored them, COPY'd by the server from files into
    // fresh tables of the same shape, then the same indexes and ANALYZE.
    const live = liveTables(summary.kbId);
    const dump = { entity: path.join(os.tmpdir(), `${name}-entity.copy`), edge: path.join(os.tmpdir(), `${name}-edge.copy`) };
    const entityColumns = 'id, kb_id, type_id, external_id, name, aliases, document, text, degree';
    await pool.query(`COPY ${live.entity} (${entityColumns}) TO '${dump.entity}'`);
    await pool.query(`COPY ${live.edge} TO '${dump.edge}'`);
    const baseline = { entity: 'entity_load_900001', edge: 'edge_load_900001', search: 'entity_search_load_900001' };
    const t1 = performance.now();
    await createStagingTables(pool, baseline);
    await pool.query(`COPY ${baseline.entity} (${entityColumns}) FROM '${dump.entity}'`);
    await pool.query(`COPY ${baseline.edge} FROM '${dump.edge}'`);
    const copyLoad = seconds(t1);
    await buildEntityIndexes(pool, baseline, summary.kbId);
    await buildEdgeIndexes(pool, baseline, summary.kbId);
    await pool.query(`ANALYZE ${baseline.entity}`);
    await pool.query(`ANALYZE ${baseline.edge}`);
    const copySeconds = seconds(t1);
    fs.rmSync(dump.entity, { force: true });
    fs.rmSync(dump.edge, { force: true });

    const rows = summary.entities + summary.edges;
    const result = {
      machine: `${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.cpus()[0]?.model}`,
      server: (await pool.query<{ v: string }>('SELECT version() AS v')).rows[0]!.v.split(',')[0],
      entities: summary.entities,
      edges: summary.edges,
      inputMB: mb(inputBytes),
      method: summary.method,
      importSeconds: +importSeconds.toFixed(1),
      rowsPerSecond: Math.round(rows / importSeconds),
      peakRssMB: mb(importPeak),
      copyLoadSeconds: +copyLoad.toFixed(1),
      copyWithIndexesSeconds: +copySeconds.toFixed(1),
      ratio: +(importSeconds / copySeconds).toFixed(2),
    };
    console.log(JSON.stringify(result, null, 2));
    console.log(`\n| ${new Date().toISOString().slice(0, 10)} | ${result.entities.toLocaleString('en')} | ${result.edges.toLocaleString('en')} | ${result.importSeconds} s | ${result.rowsPerSecond.toLocaleString('en')} | ${result.peakRssMB} MB | ${result.copyWithIndexesSeconds} s | ${result.ratio}x |`);
  } finally {
    clearInterval(sampler);
    await pool.end();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

await main();
