// BM25 benchmark on the generated STaRK-Prime-sized knowledge base (130k entities) in a real PostgreSQL: term
// statistics build time and disk size, single 20-word query latency (p50/p95), and a 1,000-query baseline run.
//
//   npx tsx scripts/bench/bm25.mts [--server URL] [--database skb_bench_bm25] [--edges 130000] [--runs 200] [--queries 1000] [--stop-words] [--stemming]
//   npx tsx scripts/bench/bm25.mts --url postgresql://.../skb_x --kb SLUG [--keep-index] [--set NAME] [--runs 200]
//
// The database is made on the first run (generate + import) and kept for later runs; the index is dropped and
// built again every run. BM25's documents are the entities' texts (no relation lines in the default variant),
// so the knowledge base has Prime's 130k entities (the generator's documents) but only one edge per entity by
// default, which makes it in about a minute instead of many. With --url and --kb it measures a knowledge base
// already imported elsewhere (e.g. the MAG-sized one): --keep-index uses its current index when it has one
// (and otherwise builds it beside the others, without dropping or vacuuming anything), and --set runs the
// baseline over that query set (e.g. 13,323 STaRK-format queries) instead of generated ones.
import fs from 'node:fs';
import os from 'node:os';
import { parseArgs } from 'node:util';
import cliProgress from 'cli-progress';
import { importQueries } from '../../lib/queries/import';
import { DEFAULT_BASELINE, runBaseline, startBaseline } from '../../lib/queries/baseline';
import { getRun } from '../../lib/queries/runs';
import { mulberry32 } from '../../lib/random';
import { BM25_DEFAULTS } from '../../lib/retrieval/bm25';
import { currentIndex, ensureIndex } from '../../lib/retrieval/bm25-index';
import { rankBm25 } from '../../lib/retrieval/bm25-score';
import { searchBm25 } from '../../lib/retrieval/bm25-search';
import { parseSearchQuery } from '../../lib/retrieval/search-query';
import { keepCommonPostings } from '../../lib/retrieval/bm25-warm';
import { tokenise } from '../../lib/retrieval/tokenise';
import { ensureBenchDatabase, appSessionPool } from './explorer-data';
import { table, time } from './measure';

const { values } = parseArgs({
  options: {
    server: { type: 'string', default: process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres' },
    database: { type: 'string', default: 'skb_bench_bm25' },
    entities: { type: 'string', default: '130000' },
    edges: { type: 'string', default: '130000' },
    runs: { type: 'string', default: '200' },
    queries: { type: 'string', default: '1000' },
    'stop-words': { type: 'boolean', default: false },
    stemming: { type: 'boolean', default: false },
    // Read the common terms' postings ahead, as the app server does at start, before the first pass.
    'read-ahead': { type: 'boolean', default: false },
    url: { type: 'string' },
    kb: { type: 'string' },
    'keep-index': { type: 'boolean', default: false },
    set: { type: 'string' },
  },
});
const analyzer = { stopWords: values['stop-words']!, stemming: values.stemming! };
const QUERY_WORDS = 20;
const DEPTH = 100;
const SET = 'bm25-bench';

if (Boolean(values.url) !== Boolean(values.kb)) throw new Error('--url and --kb go together');
const existing = values.url ? null : await ensureBenchDatabase({ server: values.server!, database: values.database!, entities: Number(values.entities), edges: Number(values.edges) });
const pool = appSessionPool(values.url ?? existing!.url, 4);
const kbId = existing?.kbId ?? (await pool.query<{ id: number }>('SELECT id FROM knowledge_base WHERE slug = $1', [values.kb])).rows[0]?.id;
if (!kbId) throw new Error(`No knowledge base ${values.kb}`);
const rng = mulberry32(20261125);

/** `n` queries of 20 words each, drawn at random from the words of one random document; that document is the answer. */
async function sampleQueries(n: number, salt: number): Promise<{ id: string; text: string; answer: string }[]> {
  const { rows } = await pool.query<{ external_id: string; text: string }>(
    'SELECT external_id, text FROM entity WHERE kb_id = $1 ORDER BY hashint4(id + $3) LIMIT $2', [kbId, n, salt]);
  return rows.map((r, i) => {
    const words = tokenise(r.text);
    return { id: String(i), text: Array.from({ length: QUERY_WORDS }, () => words[Math.floor(rng() * words.length)]).join(' '), answer: r.external_id };
  });
}

const kept = values['keep-index'] ? await currentIndex(pool, kbId, false, analyzer) : null;
if (!values.url) {
  // Build: every index of the knowledge base goes first, so the tables hold only the one measured.
  await pool.query('DELETE FROM bm25_index WHERE kb_id = $1', [kbId]);
  // VACUUM FULL gives the space back, so the sizes below are this index's own.
  await pool.query('VACUUM FULL bm25_index, bm25_term, bm25_doc');
}
const bar = process.stderr.isTTY ? new cliProgress.SingleBar({ format: 'BM25 index [{bar}] {value}/{total} documents', stream: process.stderr }, cliProgress.Presets.shades_classic) : null;
bar?.start(1, 0);
let started = performance.now();
const index = kept ?? await ensureIndex(pool, kbId, false, analyzer, (done, total) => { bar?.setTotal(total); bar?.update(done); });
const buildSeconds = (performance.now() - started) / 1000;
bar?.stop();
// Postings from the terms' document frequencies (counting the rows of a 100M-posting index takes minutes).
const { rows: [size] } = await pool.query<{ bytes: string; postings: string; terms: string; indexes: number }>(
  `SELECT (SELECT coalesce(sum(pg_total_relation_size(inhrelid)), 0) FROM pg_inherits WHERE inhparent = 'bm25_block'::regclass) + pg_total_relation_size('bm25_term') + pg_total_relation_size('bm25_doc') + pg_total_relation_size('bm25_index') AS bytes,
          (SELECT sum(df) FROM bm25_term WHERE index_id = $1) AS postings, (SELECT count(*) FROM bm25_term WHERE index_id = $1) AS terms,
          (SELECT count(*)::int FROM bm25_index) AS indexes`, [index.id]);
const mb = (Number(size!.bytes) / 1024 / 1024).toFixed(0);
console.log(`Index ${kept ? 'already built' : `built in ${buildSeconds.toFixed(1)} s`}: ${index.docs.toLocaleString('en')} documents (average ${index.avgLength.toFixed(1)} terms), ${Number(size!.terms).toLocaleString('en')} terms, ${Number(size!.postings).toLocaleString('en')} postings, ${mb} MB on disk (the BM25 tables, holding ${size!.indexes} index${size!.indexes === 1 ? '' : 'es'})`);

if (values['read-ahead']) {
  started = performance.now();
  const kept = await keepCommonPostings(pool, index);
  console.log(`Read ahead: ${kept.toLocaleString('en')} postings of the common terms in ${((performance.now() - started) / 1000).toFixed(1)} s; process RSS ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MB`);
}

// Single queries, one at a time. The first pass reads each term's postings from the database when first met
// (the first query also the document lengths); the second finds them kept in the process, as a running app does.
const singles = await sampleQueries(Number(values.runs), 1);
started = performance.now();
await rankBm25(pool, kbId, index, BM25_DEFAULTS, [singles[0]!.text], DEPTH);
const firstMs = performance.now() - started;
const rank = (q: { text: string }) => rankBm25(pool, kbId, index, BM25_DEFAULTS, [q.text], DEPTH);
const cold = await time(`single ${QUERY_WORDS}-word query, top ${DEPTH}, first pass`, singles, rank);
const warm = await time(`single ${QUERY_WORDS}-word query, top ${DEPTH}, postings kept`, singles, rank);
// The search page's ranking of the same questions (default analyzer only: search uses the default index).
const search = values['stop-words'] || values.stemming ? null
  : await time(`search page, ${QUERY_WORDS}-word question (BM25, page of 20)`, singles, (q) => searchBm25(pool, kbId, index, parseSearchQuery(q.text), { limit: 20, offset: 0 }));
console.log(`First query (nothing kept): ${firstMs.toFixed(0)} ms`);

// The baseline, ranked and scored as `skb eval --baseline bm25` does: over the query set named by --set, or
// over 1,000 queries like the single ones (each answered by its source document).
let setId: number;
if (values.set) {
  const { rows: [named] } = await pool.query<{ id: number }>('SELECT id FROM query_set WHERE name = $1 AND kb_id = $2', [values.set, kbId]);
  if (!named) throw new Error(`No query set ${values.set} on this knowledge base`);
  setId = named.id;
} else {
  const baselineQueries = await sampleQueries(Number(values.queries), 2);
  await pool.query('DELETE FROM query_set WHERE name = $1', [SET]);
  setId = (await importQueries(pool, (async function* () {
    yield* baselineQueries.map((q, i) => ({ id: q.id, text: q.text, answers: [q.answer], seeds: [], split: null, metadata: {}, at: { file: 'bench', line: i + 1 } }));
  })(), { kbId, setName: SET, origin: 'synthesized', unknownIds: 'reject', userId: null, sourceName: 'the BM25 benchmark' })).setId;
}
const set = { id: setId };
const target = { setId: set!.id, kbId, releaseId: null };
const options = { ...DEFAULT_BASELINE, ...analyzer };
started = performance.now();
const runId = await startBaseline(pool, target, null, options);
const queryBar = process.stderr.isTTY ? new cliProgress.SingleBar({ format: 'baseline [{bar}] {value}/{total} queries | {eta_formatted} left', stream: process.stderr }, cliProgress.Presets.shades_classic) : null;
queryBar?.start(1, 0);
await runBaseline(pool, target, runId, null, (done, total) => { queryBar?.setTotal(total); queryBar?.update(done); }, options);
queryBar?.stop();
const baselineSeconds = (performance.now() - started) / 1000;
const run = await getRun(pool, set.id, runId);
const rss = process.memoryUsage().rss / 1024 / 1024;
const baselineCount = run.summary!.overall.queries + run.summary!.overall.withoutAnswers;
console.log(`Baseline over ${baselineCount.toLocaleString('en')} queries: ${baselineSeconds.toFixed(1)} s (${run.name}; Hit@1 ${run.summary!.overall.means!.hit1.toFixed(3)}, MRR ${run.summary!.overall.means!.mrr.toFixed(3)}); process RSS ${rss.toFixed(0)} MB`);

const load = fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
console.log(`\nMachine: ${os.cpus().length} cores (${os.cpus()[0]?.model}), ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB; ${new Date().toISOString().slice(0, 16)}Z; load average ${load}`);
console.log(table([{ ...cold, budget: 50 }, { ...warm, budget: 50 }, ...(search ? [{ ...search, budget: 100 }] : [])]));
const verdict = (ok: boolean) => (ok ? 'ok' : 'MISSED');
if (!kept) console.log(`| index build | ${buildSeconds.toFixed(1)} s | < 120 s at Prime size ${verdict(buildSeconds < 120)} | ${mb} MB |`);
// 1,000 generated queries in a minute at Prime size; STaRK-MAG's 13,323 in 10 minutes at its size.
const budget = values.set ? 600 : 60;
console.log(`| baseline, ${baselineCount.toLocaleString('en')} queries | ${baselineSeconds.toFixed(1)} s | < ${budget} s ${verdict(baselineSeconds < budget)} |`);
await pool.end();
