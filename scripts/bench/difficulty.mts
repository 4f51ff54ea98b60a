// Workspace difficulty check benchmark on the generated STaRK-Prime-sized knowledge base (130k entities) in a
// real PostgreSQL: the check the workspace makes after each autosave (the saved draft, its seed and answers
// judged relevant, each ranked by BM25 among all entities), p50/p95 over many assignments.
//
//   npx tsx scripts/bench/difficulty.mts [--server URL] [--database skb_bench_difficulty] [--assignments 200] [--answers 5]
//
// The database and its BM25 index are made on the first run and kept (any database made by the other Prime-sized
// benchmarks will do); the campaign of drafts is written afresh every run.
import os from 'node:os';
import { parseArgs } from 'node:util';
import cliProgress from 'cli-progress';
import { claimNext, skipAssignment } from '../../lib/authoring/assignments';
import { createCampaign } from '../../lib/authoring/campaigns';
import { assignmentDifficulty, type DifficultyLabel } from '../../lib/authoring/difficulty';
import { judge, saveDraft } from '../../lib/authoring/drafts';
import { mulberry32 } from '../../lib/random';
import { ensureIndex } from '../../lib/retrieval/bm25-index';
import { tokenise } from '../../lib/retrieval/tokenise';
import { ensureBenchDatabase, appSessionPool } from './explorer-data';
import { table, time } from './measure';

const { values } = parseArgs({
  options: {
    server: { type: 'string', default: process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres' },
    database: { type: 'string', default: 'skb_bench_difficulty' },
    entities: { type: 'string', default: '130000' },
    edges: { type: 'string', default: '8100000' },
    assignments: { type: 'string', default: '200' },
    answers: { type: 'string', default: '5' },
  },
});
const CAMPAIGN = 'difficulty-bench';
/** Query length in words: half from the seed's document, half from another entity's, as a question mixes both. */
const QUERY_WORDS = 16;
const BUDGET_MS = 100;

const { url, kbId } = await ensureBenchDatabase({ server: values.server!, database: values.database!, entities: Number(values.entities), edges: Number(values.edges) });
const pool = appSessionPool(url, 4);
const rng = mulberry32(20261125);
const pick = <T,>(xs: T[]) => xs[Math.floor(rng() * xs.length)]!;

const bar = (format: string) => (process.stderr.isTTY ? new cliProgress.SingleBar({ format, stream: process.stderr }, cliProgress.Presets.shades_classic) : null);
const indexBar = bar('BM25 index [{bar}] {value}/{total} documents');
indexBar?.start(1, 0);
const index = await ensureIndex(pool, kbId, false, undefined, (done, total) => { indexBar?.setTotal(total); indexBar?.update(done); });
indexBar?.stop();

/** The campaign's assignments, each with a saved draft and answers judged relevant. */
async function benchAssignments(): Promise<number[]> {
  await pool.query('DELETE FROM campaign WHERE kb_id = $1 AND name = $2', [kbId, CAMPAIGN]);
  const n = Number(values.assignments);
  const { rows: [user] } = await pool.query<{ id: number }>(
    `INSERT INTO app_user (email, name, password_hash, role) VALUES ('difficulty-bench@bench.local', 'Difficulty bench', '-', 'ANNOTATOR')
     ON CONFLICT (email) DO UPDATE SET disabled = false RETURNING id`);
  const { id: campaignId } = await createCampaign(pool, kbId, {
    name: CAMPAIGN, guidelines: 'Benchmark drafts.', annotatorsPerSeed: 1, leaseMinutes: 60, leakPolicy: 'warn', bm25Target: 5,
    querySet: `${CAMPAIGN}-queries`, annotatorIds: [user!.id], open: true,
  }, { mode: 'random', count: n, seed: 7, minDegree: 1 }, null);
  const { rows: [span] } = await pool.query<{ min: number; max: number }>('SELECT min(id) AS min, max(id) AS max FROM entity WHERE kb_id = $1', [kbId]);
  const progress = bar('Drafts [{bar}] {value}/{total}');
  progress?.start(n, 0);
  const ids: number[] = [];
  for (;;) {
    const a = await claimNext(pool, campaignId, user!.id);
    if (!a) break;
    const other = span!.min + Math.floor(rng() * (span!.max - span!.min));
    const { rows } = await pool.query<{ seed: string; other: string; answers: number[] }>(
      `SELECT s.text AS seed, (SELECT o.text FROM entity o WHERE o.kb_id = $1 AND o.id >= $4 ORDER BY o.id LIMIT 1) AS other,
              ARRAY(SELECT DISTINCT e.target_id FROM edge e WHERE e.kb_id = $1 AND e.source_id = s.id ORDER BY e.target_id LIMIT $3) AS answers
         FROM entity s WHERE s.kb_id = $1 AND s.id = $2`, [kbId, a.entityId, Number(values.answers), other]);
    const words = [tokenise(rows[0]!.seed), tokenise(rows[0]!.other)];
    const text = Array.from({ length: QUERY_WORDS }, (_, i) => pick(words[i % 2]!)).join(' ');
    await saveDraft(pool, a.id, user!.id, { text, version: 0 });
    for (const answer of rows[0]!.answers) await judge(pool, a.id, user!.id, { entityId: answer, label: 'relevant', version: 0 });
    // Skipped, so the next claim gets a new seed; the draft and judgments stay, which is all the check reads.
    await skipAssignment(pool, a.id, user!.id, 'benchmark');
    ids.push(a.id);
    progress?.increment();
  }
  progress?.stop();
  return ids;
}

const ids = await benchAssignments();
const seen = new Map<number, { label: DifficultyLabel; answers: number }>();
const check = async (id: number) => {
  const result = await assignmentDifficulty(pool, id);
  const bm25 = result.baselines[0]!;
  if (bm25.status !== 'ranked') throw new Error('no index');
  seen.set(id, { label: bm25.seed.label, answers: bm25.answers.length });
};
// As a fresh server meets them (each term's postings read from the database when first met), then as a running
// app does (the postings kept in the process).
const name = `difficulty check (${QUERY_WORDS}-word draft, seed + up to ${values.answers} answers)`;
const first = await time(`${name}, first pass`, ids, check);
const kept = await time(`${name}, postings kept`, ids, check);
const count = (label: DifficultyLabel) => [...seen.values()].filter((s) => s.label === label).length;
const answers = [...seen.values()].reduce((n, s) => n + s.answers, 0);
const { rows: [postings] } = await pool.query<{ n: string }>('SELECT sum(df) AS n FROM bm25_term WHERE index_id = $1', [index.id]);

console.log(`\n${index.docs.toLocaleString('en')} entities, ${Number(postings!.n).toLocaleString('en')} postings; ${ids.length} assignments, ${(answers / ids.length).toFixed(1)} answers each on average`);
console.log(`Seeds: ${count('easy')} easy, ${count('medium')} medium, ${count('hard')} hard`);
console.log(`Machine: ${os.cpus().length} cores (${os.cpus()[0]?.model}), ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB; ${new Date().toISOString().slice(0, 10)}`);
console.log(table([{ ...first, budget: BUDGET_MS }, { ...kept, budget: BUDGET_MS }]));
await pool.end();
