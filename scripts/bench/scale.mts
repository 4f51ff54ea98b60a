// Import at STaRK's MAG or Amazon size into a database that is kept for the explorer benchmarks (explorer.mts,
// search.mts, graph-render.mts with the same --shape/--scale), measured as the import benchmark (import.mts) measures:
// wall time per phase, peak resident memory, disk used, and PostgreSQL's own COPY of the same rows into fresh tables
// with the same indexes and statistics as the baseline (those tables are dropped afterwards).
//
//   npx tsx scripts/bench/scale.mts --shape mag|amazon [--scale 1] [--database NAME] [--slug SLUG] [--server URL]
//
// The input is generated first (in a child process, so its memory is not counted) into /tmp/skb-bench/<shape>-<scale>,
// the folder import.mts uses, unless it is there. A knowledge base already under the slug is replaced.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { generateKnowledgeBase } from '../../lib/ingest/generate';
import { importKnowledgeBase } from '../../lib/ingest/importer';
import { nativeSource } from '../../lib/ingest/readers/native';
import { copyBaseline } from './copy-baseline';
import { benchDataArgs, benchDataOptions, ensureDatabase } from './explorer-data';

const { values } = parseArgs({ options: { ...benchDataArgs, 'generate-only': { type: 'boolean', default: false } } });
const data = benchDataOptions(values);
if (!data.shape) throw new Error('--shape mag|amazon is required (the Prime-sized import is import.mts)');
const dir = path.join(os.tmpdir(), 'skb-bench', `${data.shape}-${data.scale}`);
const files = [path.join(dir, 'entities.jsonl'), path.join(dir, 'edges.tsv')];
const seconds = (since: number) => +((performance.now() - since) / 1000).toFixed(1);
const mb = (bytes: number) => Math.round(bytes / 2 ** 20);
const load = () => os.loadavg().map((l) => l.toFixed(2)).join(' ');

if (values['generate-only']) {
  const t = performance.now();
  const g = await generateKnowledgeBase({ shape: data.shape, scale: data.scale, outDir: dir });
  console.log(`Generated in ${seconds(t)} s: ${g.entities.toLocaleString('en')} entities, ${g.edges.toLocaleString('en')} edges, ~${g.tokens.toLocaleString('en')} words, max degree ${g.maxDegree.toLocaleString('en')}; peak RSS ${mb(process.resourceUsage().maxRSS * 1024)} MB`);
  process.exit(0);
}

if (!files.every((f) => fs.existsSync(f))) {
  console.log(`Generating ${data.shape} at scale ${data.scale} into ${dir} ...`);
  const child = spawn(process.execPath, [...process.execArgv, process.argv[1]!, ...process.argv.slice(2), '--generate-only'], { stdio: 'inherit' });
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  if (code !== 0) throw new Error(`generating the input failed (exit ${code})`);
}

let peakRss = process.memoryUsage().rss;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);
const pool = new pg.Pool({ connectionString: await ensureDatabase(data.server, data.database), max: 4 });

try {
  const loadBefore = load();
  const replace = (await pool.query('SELECT 1 FROM knowledge_base WHERE slug = $1', [data.slug])).rows.length > 0;
  const phases: Record<string, number> = {};
  let phase = 'starting';
  let phaseStart = performance.now();
  const t0 = performance.now();
  const summary = await importKnowledgeBase(pool, nativeSource(files), {
    slug: data.slug!, format: 'native', files, replace, visibility: 'PUBLIC',
    onProgress: (p) => {
      if (p.phase === phase) return;
      phases[phase] = seconds(phaseStart);
      console.log(`  ${phase}: ${phases[phase]} s; now ${p.phase} (RSS ${mb(process.memoryUsage().rss)} MB, load ${load()})`);
      phase = p.phase;
      phaseStart = performance.now();
    },
  });
  phases[phase] = seconds(phaseStart);
  const importSeconds = seconds(t0);
  const importPeak = peakRss;
  const loadAfterImport = load();

  const disk = (await pool.query<{ name: string; total: string; indexes: string }>(
    `SELECT c.relname AS name, pg_total_relation_size(c.oid) AS total, pg_indexes_size(c.oid) AS indexes FROM pg_class c
      WHERE c.relkind = 'r' AND c.relnamespace = 'public'::regnamespace AND pg_total_relation_size(c.oid) > 50 * 2^20 ORDER BY 2 DESC`)).rows
    .map((r) => `${r.name} ${mb(Number(r.total)).toLocaleString('en')} MB (indexes ${mb(Number(r.indexes)).toLocaleString('en')} MB)`);
  const databaseMB = mb(Number((await pool.query<{ n: string }>('SELECT pg_database_size(current_database()) AS n')).rows[0]!.n));

  // The baseline, as import.mts builds it.
  const { copyLoadSeconds, copyWithIndexesSeconds: copySeconds } = await copyBaseline(pool, summary.kbId, data.database);

  const result = {
    machine: `${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.cpus()[0]?.model}`,
    server: (await pool.query<{ v: string }>('SELECT version() AS v')).rows[0]!.v.split(',')[0],
    database: data.database, slug: data.slug, shape: data.shape, scale: data.scale,
    entities: summary.entities, edges: summary.edges,
    inputMB: mb(files.reduce((s, f) => s + fs.statSync(f).size, 0)),
    importSeconds, rowsPerSecond: Math.round((summary.entities + summary.edges) / importSeconds), phaseSeconds: phases,
    peakRssMB: mb(importPeak),
    copyLoadSeconds, copyWithIndexesSeconds: copySeconds, ratio: +(importSeconds / copySeconds).toFixed(2),
    databaseMB, largestTables: disk,
    loadAverage: { beforeImport: loadBefore, afterImport: loadAfterImport, afterBaseline: load() },
  };
  console.log(JSON.stringify(result, null, 2));
  console.log(`\n| ${new Date().toISOString().slice(0, 10)} | ${data.shape} ${data.scale} | ${result.entities.toLocaleString('en')} | ${result.edges.toLocaleString('en')} | ${importSeconds} s | ${result.rowsPerSecond.toLocaleString('en')} | ${result.peakRssMB} MB | ${copySeconds} s | ${result.ratio}x | ${databaseMB.toLocaleString('en')} MB |`);
} finally {
  clearInterval(sampler);
  await pool.end();
}
