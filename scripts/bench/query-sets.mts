// Query-set work at size: import, statistics and export (STaRK CSV with its split files, TREC, JSONL, and the
// STaRK zip the app's download sends) of a STaRK-format query set, timed through the functions the CLI and the
// API call, on a knowledge base already in a real PostgreSQL.
//
//   npx tsx scripts/bench/query-sets.mts --database postgresql://.../skb_x --kb SLUG [--dir STARK_DIR] [--queries 13323] [--runs 3] [--set NAME --keep]
//
// --dir is a STaRK query-set folder (stark_qa.csv and split/*.index, as `skb generate --queries N` writes
// them); without it the script writes one of --queries queries (MAG's 13,323 by default) from the knowledge
// base's own entities: 20 words drawn from a random entity's text, answered by that entity and by up to four
// others, split 60/20/20 into train/val/test as STaRK's sets are.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { pipeline } from 'node:stream/promises';
import { Readable, Writable } from 'node:stream';
import { exportArchive } from '../../lib/queries/archive';
import { exportFiles } from '../../lib/queries/export';
import { importQueries } from '../../lib/queries/import';
import { cliQueryFiles, readQueryInput } from '../../lib/queries/input';
import { querySourceStats } from '../../lib/queries/stats';
import type { QueryFormat } from '../../lib/queries/types';
import { mulberry32 } from '../../lib/random';
import { tokenise } from '../../lib/retrieval/tokenise';
import { appSessionPool } from './explorer-data';

const { values } = parseArgs({
  options: {
    database: { type: 'string', default: process.env.DATABASE_URL },
    kb: { type: 'string' },
    dir: { type: 'string' },
    queries: { type: 'string', default: '13323' },
    runs: { type: 'string', default: '3' },
    set: { type: 'string', default: 'query-set-bench' },
    // Keep the imported set (e.g. for `skb eval --baseline bm25 --set NAME`).
    keep: { type: 'boolean', default: false },
  },
});
if (!values.database || !values.kb) throw new Error('Give --database URL and --kb SLUG (a knowledge base already imported there)');
const pool = appSessionPool(values.database, 4);
const { rows: [kb] } = await pool.query<{ id: number; entity_count: number }>('SELECT id, entity_count FROM knowledge_base WHERE slug = $1', [values.kb]);
if (!kb) throw new Error(`No knowledge base ${values.kb} in ${values.database}`);
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'skb-query-sets-'));

/** Writes a STaRK query set of `n` queries drawn from the knowledge base's entities; its folder. */
async function writeStarkSet(n: number): Promise<string> {
  const rng = mulberry32(20261125);
  const { rows } = await pool.query<{ external_id: string; text: string }>(
    'SELECT external_id, text FROM entity WHERE kb_id = $1 ORDER BY hashint4(id) LIMIT $2', [kb!.id, 5 * n]);
  if (!rows.every((r) => /^(0|[1-9][0-9]*)$/.test(r.external_id))) throw new Error('STaRK ids are integers: this knowledge base has other entity ids; give --dir');
  const dir = path.join(work, 'source');
  fs.mkdirSync(path.join(dir, 'split'), { recursive: true });
  const csvField = (s: string) => (/[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
  let csv = 'id,query,answer_ids\n';
  const splits: Record<string, string[]> = { train: [], val: [], test: [] };
  for (let i = 0; i < n; i++) {
    const source = rows[i % rows.length]!;
    const words = tokenise(source.text);
    const text = Array.from({ length: 20 }, () => words[Math.floor(rng() * words.length)]).join(' ');
    const answers = [source.external_id, ...Array.from({ length: Math.floor(rng() * 5) }, () => rows[Math.floor(rng() * rows.length)]!.external_id)];
    csv += `${i},${csvField(text)},"[${[...new Set(answers)].join(', ')}]"\n`;
    const r = rng();
    splits[r < 0.6 ? 'train' : r < 0.8 ? 'val' : 'test']!.push(String(i));
  }
  fs.writeFileSync(path.join(dir, 'stark_qa.csv'), csv);
  for (const [name, ids] of Object.entries(splits)) fs.writeFileSync(path.join(dir, 'split', `${name}.index`), ids.join('\n'));
  return dir;
}

const dir = values.dir ?? await writeStarkSet(Number(values.queries));
const csvFile = ['stark_qa.csv', 'stark_qa_human_generated_eval.csv'].map((f) => path.join(dir, f)).find((f) => fs.existsSync(f));
if (!csvFile) throw new Error(`No stark_qa.csv in ${dir}`);
const splitDir = fs.existsSync(path.join(dir, 'split')) ? path.join(dir, 'split') : undefined;
const csvBytes = fs.statSync(csvFile).size;

const seconds = async (fn: () => Promise<unknown>) => {
  const t = performance.now();
  await fn();
  return (performance.now() - t) / 1000;
};
const nowhere = () => new Writable({ write(_chunk, _enc, done) { done(); } });

let setId = 0;
let count = 0;
const steps: Record<string, () => Promise<unknown>> = {
  // As `skb queries import --format stark --splits DIR` and the upload import do.
  'import (STaRK CSV + splits)': async () => {
    const input = await readQueryInput('stark', cliQueryFiles('stark', [csvFile], splitDir));
    const summary = await importQueries(pool, input.records, {
      kbId: kb.id, setName: values.set!, origin: 'imported', unknownIds: 'keep', replace: true, splits: input.splits, userId: null, sourceName: path.basename(csvFile),
    });
    setId = summary.setId;
    count = summary.queries;
  },
  // As `skb queries stats` and the set page do.
  statistics: () => querySourceStats(pool, kb.id, { setId }),
  // As `skb queries export --format F --out DIR` does: every file written out.
  ...Object.fromEntries((['stark', 'trec', 'jsonl'] as QueryFormat[]).map((format) => [`export ${format}`, async () => {
    const out = path.join(work, 'export', format);
    for (const file of await exportFiles(pool, { setId }, format)) {
      const target = path.join(out, file.path);
      fs.mkdirSync(path.dirname(target), { recursive: true });
      await pipeline(Readable.from(file.content()), fs.createWriteStream(target));
    }
  }])),
  // The app's download of the STaRK files: a zip streamed out.
  'download stark (zip)': async () => pipeline(await exportArchive(pool, { setId }, { root: 'bench-stark', formats: ['stark'] }), nowhere()),
};

const runs = Number(values.runs);
const times: Record<string, number[]> = {};
for (let r = 0; r < runs; r++) {
  for (const [name, fn] of Object.entries(steps)) (times[name] ??= []).push(await seconds(fn));
}
const rss = process.memoryUsage().rss / 2 ** 20;
if (!values.keep) await pool.query('DELETE FROM query_set WHERE id = $1', [setId]);
await pool.end();
fs.rmSync(work, { recursive: true, force: true });

const load = fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
console.log(`${count.toLocaleString('en')} queries (${(csvBytes / 2 ** 20).toFixed(1)} MB of CSV) on ${values.kb} (${kb.entity_count.toLocaleString('en')} entities); ${runs} runs each`);
console.log(`Machine: ${os.cpus().length} cores (${os.cpus()[0]?.model}), ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB; ${new Date().toISOString().slice(0, 16)}Z; load average ${load}; process RSS ${rss.toFixed(0)} MB`);
console.log('| step | median s | min s | max s |\n| --- | --- | --- | --- |');
for (const [name, t] of Object.entries(times)) {
  const sorted = [...t].sort((a, b) => a - b);
  console.log(`| ${name} | ${sorted[Math.floor(sorted.length / 2)]!.toFixed(2)} | ${sorted[0]!.toFixed(2)} | ${sorted.at(-1)!.toFixed(2)} |`);
}
