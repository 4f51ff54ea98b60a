// Import benchmark: a generated knowledge base (STaRK-Prime-sized by default) into real PostgreSQL, next to
// PostgreSQL's own COPY of the same rows into the same tables (the physical limit).
//
//   npx tsx scripts/bench/import.mts [--shape prime|mag|amazon] [--scale 1] [--dir /tmp/skb-bench] [--server URL]
//   npx tsx scripts/bench/import.mts [--entities 130000] [--edges 8100000]     (the generator's default shape)
//   npx tsx scripts/bench/import.mts --shape mag --keep [--database NAME] [--slug SLUG] [--skip-baseline]
//
// --skip-baseline leaves out the COPY baseline (over 20 minutes at MAG and Amazon size), for reruns of an import
// whose rows have not changed: compare with the baseline an earlier run measured on the same machine.
// It reports the import's wall time per phase, peak resident memory and the disk used (the database, and
// the knowledge base's tables and indexes). The input is generated first, in a child process so that the
// generator's memory is not counted, unless an earlier run left it in the folder.
//
// It creates and drops its own database on the server (default: the local PostgreSQL). With --keep it imports into
// the kept database the explorer benchmarks read instead (`skb_scale_<shape>`, slug `scale-<shape>`, or --database
// and --slug), replacing a knowledge base already under the slug.
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { migrate } from '../../lib/db/migrate';
import { generateKnowledgeBase } from '../../lib/ingest/generate';
import { importKnowledgeBase } from '../../lib/ingest/importer';
import { liveTables } from '../../lib/ingest/partitions';
import { nativeSource } from '../../lib/ingest/readers/native';
import { copyBaseline } from './copy-baseline';
import { benchDataOptions, ensureDatabase, appSessionPool } from './explorer-data';

const { values } = parseArgs({
  options: {
    shape: { type: 'string' },
    scale: { type: 'string', default: '1' },
    entities: { type: 'string', default: '130000' },
    edges: { type: 'string', default: '8100000' },
    dir: { type: 'string', default: path.join(os.tmpdir(), 'skb-bench') },
    server: { type: 'string', default: process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres' },
    keep: { type: 'boolean', default: false },
    database: { type: 'string' },
    slug: { type: 'string' },
    'generate-only': { type: 'boolean', default: false },
    'skip-baseline': { type: 'boolean', default: false },
  },
});
const SHAPES = ['prime', 'mag', 'amazon'] as const;
type Shape = (typeof SHAPES)[number];
const shape = values.shape as Shape | undefined;
if (shape !== undefined && !SHAPES.includes(shape)) throw new Error(`--shape: one of ${SHAPES.join(', ')}`);
const scale = Number(values.scale);
if (!(scale > 0 && scale <= 1)) throw new Error('--scale: a number in (0, 1]');
const entities = Number(values.entities);
const edges = Number(values.edges);
const dir = path.join(values.dir!, shape ? `${shape}-${scale}` : `${entities}-${edges}`);

let peakRss = 0;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);
const seconds = (since: number) => (performance.now() - since) / 1000;
const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);

async function generateInput() {
  console.log(shape
    ? `Generating the ${shape} shape at scale ${scale} into ${dir} ...`
    : `Generating ${entities.toLocaleString('en')} entities, ${edges.toLocaleString('en')} edges into ${dir} ...`);
  const g = await generateKnowledgeBase(shape ? { shape, scale, outDir: dir } : { entities, edges, outDir: dir });
  console.log(`  ${g.seconds.toFixed(1)} s, max degree ${g.maxDegree.toLocaleString('en')}, ${g.hubs} hubs with 100k+ edges; peak RSS ${mb(process.resourceUsage().maxRSS * 1024)} MB`);
}

async function ensureInput() {
  const files = [path.join(dir, 'entities.jsonl'), path.join(dir, 'edges.tsv')];
  if (!files.every((f) => fs.existsSync(f))) {
    const child = spawn(process.execPath, [...process.execArgv, process.argv[1]!, ...process.argv.slice(2), '--generate-only'], { stdio: 'inherit' });
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    if (code !== 0) throw new Error(`generating the input failed (exit ${code})`);
  }
  return files;
}

/** The database to import into: the kept one (--keep), or a fresh one dropped at the end. */
async function targetDatabase(): Promise<{ url: string; name: string; slug: string; drop?: () => Promise<void> }> {
  if (values.keep || values.database) {
    const data = benchDataOptions({ ...values, shape, scale: String(scale), entities: String(entities), edges: String(edges) });
    return { url: await ensureDatabase(values.server!, data.database), name: data.database, slug: data.slug! };
  }
  const name = `skb_bench_${crypto.randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: values.server });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(values.server!);
  url.pathname = `/${name}`;
  await migrate(url.toString());
  const drop = async () => {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  };
  return { url: url.toString(), name, slug: 'bench', drop };
}

const loadAverage = async () => (await fs.promises.readFile('/proc/loadavg', 'utf8').catch(() => '?')).split(' ').slice(0, 3).join(' ');

/** Seconds spent in each import phase and the process's peak resident memory in it, from the phase changes the import reports. */
function phaseTimer() {
  const spent: Record<string, { seconds: number; peakRssMB: number }> = {};
  let current = 'starting';
  let since = performance.now();
  const close = () => {
    const before = spent[current] ?? { seconds: 0, peakRssMB: 0 };
    spent[current] = { seconds: +(before.seconds + seconds(since)).toFixed(1), peakRssMB: Math.max(before.peakRssMB, mb(peakRss)) };
  };
  return {
    at(phase: string) {
      if (phase === current) return;
      close();
      current = phase;
      since = performance.now();
      // The peak sampler starts over, so each phase gets its own peak.
      peakRss = process.memoryUsage().rss;
    },
    done() {
      close();
      return spent;
    },
  };
}

/** Disk used after the import: the whole database, and the knowledge base's partitions (table and indexes apart). */
async function diskUsed(pool: pg.Pool, kbId: number) {
  const live = liveTables(kbId);
  const { rows } = await pool.query<{ name: string; table: string; indexes: string }>(
    `SELECT c.relname AS name, pg_table_size(c.oid) AS table, pg_indexes_size(c.oid) AS indexes
       FROM pg_class c WHERE c.relname = ANY($1::text[]) ORDER BY c.relname`,
    [[live.entity, live.edge, live.search]],
  );
  const database = (await pool.query<{ n: string }>('SELECT pg_database_size(current_database()) AS n')).rows[0]!.n;
  const tables = Object.fromEntries(rows.map((r) => [r.name, { tableMB: mb(Number(r.table)), indexesMB: mb(Number(r.indexes)) }]));
  // The search index: its blocks (its own partition) with their key, its terms' and lengths' share.
  const { rows: [bm25] } = await pool.query<{ blocks: string | null; postings: string | null; terms: string | null }>(
    `SELECT pg_total_relation_size(to_regclass('bm25_block_' || i.id)) AS blocks,
            (SELECT sum(df) FROM bm25_term WHERE index_id = i.id) AS postings, (SELECT count(*) FROM bm25_term WHERE index_id = i.id) AS terms
       FROM bm25_index i WHERE i.kb_id = $1 AND i.status = 'READY' ORDER BY i.id DESC LIMIT 1`, [kbId]);
  const searchIndex = bm25 ? { blocksMB: mb(Number(bm25.blocks)), postings: Number(bm25.postings), terms: Number(bm25.terms),
    bytesPerPosting: +(Number(bm25.blocks) / Math.max(1, Number(bm25.postings))).toFixed(2) } : null;
  return { databaseMB: mb(Number(database)), knowledgeBaseMB: mb(rows.reduce((s, r) => s + Number(r.table) + Number(r.indexes), 0)), tables, searchIndex };
}

async function main() {
  const files = await ensureInput();
  const inputBytes = files.reduce((s, f) => s + fs.statSync(f).size, 0);
  const target = await targetDatabase();
  // As large as `skb import`'s (lib/db/client.ts): the import sizes its vector streams from the pool.
  const pool = appSessionPool(target.url, 10);
  // DROP DATABASE ... WITH (FORCE) at the end ends idle connections; that is expected.
  pool.on('error', () => {});
  try {
    const replace = (await pool.query('SELECT 1 FROM knowledge_base WHERE slug = $1', [target.slug])).rows.length > 0;
    const rssBefore = process.memoryUsage().rss;
    peakRss = rssBefore;
    const t0 = performance.now();
    const phaseTimes = phaseTimer();
    const summary = await importKnowledgeBase(pool, nativeSource(files), { slug: target.slug, format: 'native', files, replace, visibility: 'PUBLIC', onProgress: (p) => phaseTimes.at(p.phase) });
    const importSeconds = seconds(t0);
    const phases = phaseTimes.done();
    const importPeak = Math.max(...Object.values(phases).map((p) => p.peakRssMB));
    const disk = await diskUsed(pool, summary.kbId);

    // The baseline: the same rows, as the import stored them, COPY'd by the server into fresh tables of the same shape.
    const { copyLoadSeconds, copyWithIndexesSeconds, withSearchTableSeconds } = values['skip-baseline']
      ? { copyLoadSeconds: NaN, copyWithIndexesSeconds: NaN, withSearchTableSeconds: NaN }
      : await copyBaseline(pool, summary.kbId, target.name);

    const rows = summary.entities + summary.edges;
    const result = {
      machine: `${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.cpus()[0]?.model}`,
      server: (await pool.query<{ v: string }>('SELECT version() AS v')).rows[0]!.v.split(',')[0],
      database: values.keep || values.database ? `${target.name} (kept, slug ${target.slug})` : `${target.name} (dropped)`,
      entities: summary.entities,
      edges: summary.edges,
      inputMB: mb(inputBytes),
      method: summary.method,
      importSeconds: +importSeconds.toFixed(1),
      rowsPerSecond: Math.round(rows / importSeconds),
      peakRssMB: importPeak,
      copyLoadSeconds,
      copyWithIndexesSeconds,
      ratio: +(importSeconds / copyWithIndexesSeconds).toFixed(2),
      // The BM25 index is built after publishing and has no counterpart in the baseline: the ratio without it.
      ratioWithoutSearchIndex: +((importSeconds - (phases['search-index']?.seconds ?? 0)) / copyWithIndexesSeconds).toFixed(2),
      // The search table (entity_search) holds the only full-text GIN index: a baseline that builds it too.
      copyWithSearchTableSeconds: withSearchTableSeconds,
      ratioWithSearchTable: +(importSeconds / withSearchTableSeconds).toFixed(2),
      ratioWithSearchTableWithoutSearchIndex: +((importSeconds - (phases['search-index']?.seconds ?? 0)) / withSearchTableSeconds).toFixed(2),
      phases,
      disk,
    };
    console.log(JSON.stringify(result, null, 2));
    console.log(`\n| ${new Date().toISOString().slice(0, 10)} | ${shape ? `${shape} ${scale}` : 'default'} | ${result.entities.toLocaleString('en')} | ${result.edges.toLocaleString('en')} | ${result.importSeconds} s | ${result.rowsPerSecond.toLocaleString('en')} | ${result.peakRssMB} MB | ${values['skip-baseline'] ? '— (no baseline) | —' : `${result.copyWithIndexesSeconds} s | ${result.ratio}x`} | ${disk.databaseMB.toLocaleString('en')} MB | ${(await loadAverage())} |`);
  } finally {
    clearInterval(sampler);
    await pool.end();
    await target.drop?.();
  }
}

if (values['generate-only']) {
  await generateInput();
  clearInterval(sampler);
} else await main();
