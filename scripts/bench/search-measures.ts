// Explorer search measures, shared by the explorer benchmark and the search-only one (search.mts).
import type pg from 'pg';
import { searchEntities, searchFullText } from '../../lib/kb/search';
import { ensureIndex } from '../../lib/retrieval/bm25-index';
import { time, type Timing } from './measure';

/**
 * Search for entity names, two adjacent words of a description, one word of it, pasted questions (the first 20
 * distinct words of a description, common ones included) and a quoted phrase (strict syntax), ranked by BM25
 * from the index (built first if missing, not timed); then the full-text search that answers while the index is
 * built. Inputs are drawn by a hash of entity ids and `rng`.
 */
export async function searchMeasures(pool: pg.Pool, kbId: number, runs: number, rng: () => number): Promise<Timing[]> {
  const pick = <T,>(xs: T[]): T => xs[Math.floor(rng() * xs.length)]!;
  const names = (await pool.query<{ name: string }>('SELECT name FROM entity WHERE kb_id = $1 ORDER BY hashint4(id + 7) LIMIT $2', [kbId, runs])).rows.map((r) => r.name);
  const descriptions = (await pool.query<{ text: string }>(
    `SELECT left(substring(text from '- description: ([^\n]*)'), 600) AS text FROM entity WHERE kb_id = $1 ORDER BY hashint4(id + 11) LIMIT $2`, [kbId, runs])).rows
    .map((r) => (r.text ?? '').split(/[^A-Za-z]+/).filter(Boolean));
  const words = descriptions.map((d) => d.filter((w) => w.length > 4));
  const pairs = words.filter((w) => w.length > 3).map((w) => { const i = Math.floor(rng() * (w.length - 1)); return `${w[i]} ${w[i + 1]}`; });
  const singles = words.filter((w) => w.length > 0).map((w) => pick(w));
  const questions = descriptions.map((d) => [...new Set(d.map((w) => w.toLowerCase()))].slice(0, 20)).filter((q) => q.length === 20).map((q) => `${q.join(' ')}?`);

  const started = performance.now();
  const index = await ensureIndex(pool, kbId, false);
  console.log(`Ranking index: ${index.docs.toLocaleString('en')} documents (ready or built in ${((performance.now() - started) / 1000).toFixed(1)} s).`);
  const search = (query: string) => searchEntities(pool, kbId, { query, limit: 20, offset: 0 });
  const timings: Timing[] = [];
  for (const [label, queries] of [['names', names], ['two document words', pairs], ['one document word', singles], ['questions of 20 words', questions], ['a quoted phrase (strict)', pairs.map((q) => `"${q}"`)]] as const) {
    timings.push(await time(`BM25 search, ${label}`, queries, search));
  }
  let broad = 0;
  for (const q of questions) if ((await search(q)).totalIsLowerBound) broad += 1;
  console.log(`Questions with more postings than the SQL budget (scored in memory): ${broad} of ${questions.length}.`);
  for (const [label, queries] of [['names', names], ['two document words', pairs]] as const) {
    timings.push(await time(`full-text search (while the index is built), ${label}`, queries, (q) => searchFullText(pool, kbId, { query: q, limit: 20, offset: 0 })));
  }
  return timings;
}
