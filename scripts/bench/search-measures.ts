// Explorer search measures, shared by the explorer benchmark and the search-only one (search.mts).
import type pg from 'pg';
import { searchEntities, searchFullText } from '../../lib/kb/search';
import { ensureIndex } from '../../lib/retrieval/bm25-index';
import { keepCommonPostings } from '../../lib/retrieval/bm25-warm';
import { time, type Timing } from './measure';

/**
 * The prose of a flattened document: its description line (Prime), else its longest field line (a paper's
 * abstract, a product review), without the `- field:` or `1. field:` labels.
 */
function prose(text: string): string {
  const lines = text.split('\n').filter((l) => !/^- (name|type):/.test(l));
  const description = lines.find((l) => l.startsWith('- description: '));
  const longest = description ?? lines.reduce((a, b) => (b.length > a.length ? b : a), '');
  return longest.replace(/^\s*(?:-|\d+\.)\s*[^:]*:\s*/, '').replace(/;\s*[a-z_]+:\s*/g, ' ');
}

/**
 * Search for entity names, two adjacent words of a description (or of the longest field), one word of it,
 * pasted questions (the first 20 distinct words of it, common ones included) and a quoted phrase (strict syntax), ranked by BM25
 * from the index (built first if missing, and read ahead as the app server does at start; neither timed); then the full-text search that answers while the index is
 * built. Inputs are drawn by a hash of entity ids and `rng`.
 */
export async function searchMeasures(pool: pg.Pool, kbId: number, runs: number, rng: () => number, { bm25 = true, fullText = true } = {}): Promise<Timing[]> {
  const { names, pairs, singles, questions } = await searchInputs(pool, kbId, runs, rng);
  const timings: Timing[] = [];
  if (bm25) timings.push(...(await bm25Measures(pool, kbId, { names, pairs, singles, questions })));
  if (fullText) {
    for (const [label, queries] of [['names', names], ['two document words', pairs]] as const) {
      timings.push(await time(`full-text search (while the index is built), ${label}`, queries, (q) => searchFullText(pool, kbId, { query: q, limit: 20, offset: 0 })));
    }
  }
  return timings;
}

export interface SearchInputs {
  names: string[];
  pairs: string[];
  singles: string[];
  questions: string[];
}

/** The search measures' queries: up to `runs` of each kind (see searchMeasures). */
export async function searchInputs(pool: pg.Pool, kbId: number, runs: number, rng: () => number): Promise<SearchInputs> {
  const pick = <T,>(xs: T[]): T => xs[Math.floor(rng() * xs.length)]!;
  const names = (await pool.query<{ name: string }>('SELECT name FROM entity WHERE kb_id = $1 ORDER BY hashint4(id + 7) LIMIT $2', [kbId, runs])).rows.map((r) => r.name);
  const descriptions = (await pool.query<{ text: string }>(
    `SELECT left(text, 20000) AS text FROM entity WHERE kb_id = $1 ORDER BY hashint4(id + 11) LIMIT $2`, [kbId, runs])).rows
    .map((r) => prose(r.text).slice(0, 600).split(/[^A-Za-z]+/).filter(Boolean));
  const words = descriptions.map((d) => d.filter((w) => w.length > 4));
  const pairs = words.filter((w) => w.length > 3).map((w) => { const i = Math.floor(rng() * (w.length - 1)); return `${w[i]} ${w[i + 1]}`; });
  const singles = words.filter((w) => w.length > 0).map((w) => pick(w));
  const questions = descriptions.map((d) => [...new Set(d.map((w) => w.toLowerCase()))].slice(0, 20)).filter((q) => q.length === 20).map((q) => `${q.join(' ')}?`);
  return { names, pairs, singles, questions };
}

async function bm25Measures(pool: pg.Pool, kbId: number, inputs: SearchInputs): Promise<Timing[]> {
  const { names, pairs, singles, questions } = inputs;
  const started = performance.now();
  const index = await ensureIndex(pool, kbId, false);
  console.log(`Ranking index: ${index.docs.toLocaleString('en')} documents (ready or built in ${((performance.now() - started) / 1000).toFixed(1)} s).`);
  // As the app server does at start (warmSearchIndexes): document lengths and the common terms' postings.
  const warming = performance.now();
  const kept = await keepCommonPostings(pool, index);
  console.log(`Read ahead as at the app's start: ${kept.toLocaleString('en')} postings in ${((performance.now() - warming) / 1000).toFixed(1)} s; process RSS ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MB.`);
  const search = (query: string) => searchEntities(pool, kbId, { query, limit: 20, offset: 0 });
  const timings: Timing[] = [];
  for (const [label, queries] of [['names', names], ['two document words', pairs], ['one document word', singles], ['questions of 20 words', questions], ['a quoted phrase (strict)', pairs.map((q) => `"${q}"`)]] as const) {
    timings.push(await time(`BM25 search, ${label}`, queries, search));
  }
  let broad = 0;
  for (const q of questions) if ((await search(q)).totalIsLowerBound) broad += 1;
  console.log(`Questions with more postings than the SQL budget (scored in memory): ${broad} of ${questions.length}.`);
  return timings;
}
