// Vector baseline benchmark: exact cosine top-100 over 130k random unit vectors of 1,536 dimensions (STaRK
// Prime's size with ada-002's width) in a real PostgreSQL: import time of the .npy file, the time to read the
// set into process memory and the memory it takes, and single-query latency (p50/p95) of the brute-force scan.
//
//   npx tsx scripts/bench/vectors.mts [--server URL] [--database skb_bench_vectors] [--entities 130000] [--dimension 1536] [--runs 50]
//
// The database (entities and embeddings) is made on the first run and kept; --reimport imports the vectors again.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import cliProgress from 'cli-progress';
import pg from 'pg';
import { migrate } from '../../lib/db/migrate';
import { importKnowledgeBase } from '../../lib/ingest/importer';
import { memorySource } from '../../lib/ingest/memory-source';
import { mulberry32 } from '../../lib/random';
import { entityMatrix } from '../../lib/vectors/cache';
import { importEmbeddings } from '../../lib/vectors/import';
import { nearestRows } from '../../lib/vectors/memory-search';
import { readNpy } from '../../lib/vectors/readers';
import { listEmbeddingSets } from '../../lib/vectors/sets';
import { table, time } from './measure';
import { appSessionPool } from './explorer-data';

const { values } = parseArgs({
  options: {
    server: { type: 'string', default: process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres' },
    database: { type: 'string', default: 'skb_bench_vectors' },
    entities: { type: 'string', default: '130000' },
    dimension: { type: 'string', default: '1536' },
    runs: { type: 'string', default: '50' },
    reimport: { type: 'boolean', default: false },
  },
});
const N = Number(values.entities);
const D = Number(values.dimension);
const SLUG = 'bench-vectors';
const NAME = 'random';
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

const admin = new pg.Client({ connectionString: values.server });
await admin.connect();
if (!(await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [values.database])).rows.length) await admin.query(`CREATE DATABASE ${values.database}`);
await admin.end();
const url = new URL(values.server!);
url.pathname = `/${values.database}`;
await migrate(url.toString());
const pool = appSessionPool(url.toString(), 2);

let kbId = (await pool.query<{ id: number }>('SELECT id FROM knowledge_base WHERE slug = $1 AND entity_count = $2', [SLUG, N])).rows[0]?.id;
if (!kbId) {
  console.log(`Importing ${N.toLocaleString('en')} entities ...`);
  const entities = Array.from({ length: N }, (_, i) => ({ externalId: `v${i}`, type: 'thing', name: `thing ${i}`, aliases: [], document: {} }));
  kbId = (await importKnowledgeBase(pool, memorySource({ entities, edges: [] }), { slug: SLUG, format: 'test', files: [], replace: true })).kbId;
}

/** A random float32 matrix as an .npy file (written row by row), with its ids file. */
function writeNpy(dir: string): { npy: string; ids: string } {
  const npy = path.join(dir, 'vectors.npy');
  const ids = path.join(dir, 'ids.txt');
  let dict = `{'descr': '<f4', 'fortran_order': False, 'shape': (${N}, ${D}), }`;
  dict += ' '.repeat(64 - ((10 + dict.length + 1) % 64)) + '\n';
  const head = Buffer.from([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0, 0, 0]);
  head.writeUInt16LE(dict.length, 8);
  const fd = fs.openSync(npy, 'w');
  fs.writeSync(fd, Buffer.concat([head, Buffer.from(dict, 'latin1')]));
  const rng = mulberry32(1536);
  const rows = new Float32Array(1000 * D);
  for (let r = 0; r < N; r += 1000) {
    const n = Math.min(1000, N - r);
    for (let i = 0; i < n * D; i++) rows[i] = rng() * 2 - 1;
    fs.writeSync(fd, Buffer.from(rows.buffer, 0, n * D * 4));
  }
  fs.closeSync(fd);
  fs.writeFileSync(ids, Array.from({ length: N }, (_, i) => `v${i}`).join('\n') + '\n');
  return { npy, ids };
}

let set = (await listEmbeddingSets(pool, kbId)).find((s) => s.name === NAME && s.count === N && s.dimension === D);
if (!set || values.reimport) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skb-bench-vectors-'));
  try {
    const files = writeNpy(dir);
    const size = fs.statSync(files.npy).size;
    const bar = new cliProgress.SingleBar({ format: 'import [{bar}] {percentage}% | {value}/{total} MB', stream: process.stderr }, cliProgress.Presets.shades_classic);
    bar.start(Math.round(size / 1e6), 0);
    const t = performance.now();
    const summary = await importEmbeddings(pool, readNpy(files.npy, files.ids, undefined, (b) => bar.update(Math.round(b / 1e6))), { kbId, querySetId: null }, { name: NAME, fileName: 'vectors.npy', userId: null });
    bar.stop();
    console.log(`Import of ${summary.count.toLocaleString('en')} vectors (${mb(size)} .npy): ${((performance.now() - t) / 1000).toFixed(1)} s`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  set = (await listEmbeddingSets(pool, kbId)).find((s) => s.name === NAME)!;
}
const disk = (await pool.query<{ bytes: string }>(
  `SELECT sum(pg_column_size(vector))::text AS bytes FROM embedding_vector WHERE set_id = $1`, [set.id])).rows[0]!.bytes;
console.log(`Stored vectors: ${mb(Number(disk))} (bytea values; table with TOAST and index: ${(await pool.query<{ s: string }>("SELECT pg_size_pretty(pg_total_relation_size('embedding_vector')) AS s")).rows[0]!.s})`);

const before = process.memoryUsage();
const t = performance.now();
const matrix = await entityMatrix(pool, set);
const loadSeconds = (performance.now() - t) / 1000;
const after = process.memoryUsage();
console.log(`Load into memory: ${loadSeconds.toFixed(1)} s; matrix ${mb(matrix.kernel.vectors.byteLength)} (rows padded to ${matrix.kernel.stride} floats); RSS ${mb(before.rss)} -> ${mb(after.rss)}, array buffers ${mb(after.arrayBuffers)}`);

const rng = mulberry32(7);
const queries = Array.from({ length: Number(values.runs) }, () => {
  const q = Float32Array.from({ length: D }, () => rng() * 2 - 1);
  const norm = Math.hypot(...q);
  return q.map((v) => v / norm);
});
const timing = await time(`exact cosine top-100 of ${N.toLocaleString('en')} x ${D}`, queries, async (q) => nearestRows(matrix, q, 100));
console.log(table([{ ...timing, budget: 250 }]));
console.log(`Machine: ${os.cpus().length} cores (${os.cpus()[0]?.model}), ${mb(os.totalmem())} RAM, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}; Node ${process.version}`);
await pool.end();
