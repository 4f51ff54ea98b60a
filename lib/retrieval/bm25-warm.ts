import type { Queryable } from '../db/transaction';
import { cachedPostingCapacity, keepPostings } from './bm25-score';
import { DEFAULT_ANALYZER } from './tokenise';
import type { Bm25Index } from './bm25-index';

/**
 * Terms in at least this share of an index's documents are read ahead, commonest first: at STaRK-Prime size a
 * word in every document takes hundreds of milliseconds to read cold, and a pasted question or a draft holds
 * dozens of words in a few hundred documents or more, read together on a first query. Rarer terms read in a
 * few milliseconds when first asked for.
 */
const COMMON_SHARE = 0.001;
/** Postings read ahead per index at most: three quarters of what the scorer keeps in all. */
const warmBudget = () => Math.floor(0.75 * cachedPostingCapacity());

/**
 * Postings read per statement: a result is held in full before it is parsed (as hex, 32 bytes a posting), so the
 * read-ahead goes in slices of about 130 MB.
 */
const READ_SLICE = 4_000_000;

/** Keeps an index's document lengths and its commonest terms' postings in this process; how many postings. */
export async function keepCommonPostings(db: Queryable, index: Bm25Index): Promise<number> {
  const { rows } = await db.query<{ id: number; running: string }>(
    `SELECT id, running FROM (
       SELECT id, sum(df) OVER (ORDER BY df DESC, id) AS running FROM bm25_term
        WHERE index_id = $1 AND df >= $2) t
      WHERE running <= $3 ORDER BY running`, [index.id, Math.max(1, Math.ceil(index.docs * COMMON_SHARE)), warmBudget()]);
  let kept = 0;
  for (let from = 0; from < rows.length;) {
    const end = Number(rows[from]!.running) + READ_SLICE;
    let to = from + 1;
    while (to < rows.length && Number(rows[to]!.running) <= end) to++;
    kept += await keepPostings(db, index, rows.slice(from, to).map((r) => r.id));
    from = to;
  }
  return kept;
}

/**
 * Reads ahead the default index (the one explorer search and the workspace difficulty check use) of every
 * knowledge base, so the first questions after a start answer as fast as later ones; how many postings are
 * kept. Errors are logged: a cold cache is only slower.
 */
export async function warmSearchIndexes(db: Queryable): Promise<number> {
  let kept = 0;
  try {
    const { rows } = await db.query<Bm25Index>(
      `SELECT i.id, i.docs, i.avg_length AS "avgLength", json_build_object('stopWords', i.stop_words, 'stemming', i.stemming) AS analyzer
         FROM bm25_index i JOIN knowledge_base k ON k.id = i.kb_id AND i.kb_version = k.updated_at
        WHERE i.status = 'READY' AND NOT i.relations AND i.stop_words = $1 AND i.stemming = $2
        ORDER BY k.entity_count DESC`, [DEFAULT_ANALYZER.stopWords, DEFAULT_ANALYZER.stemming]);
    for (const index of rows) kept += await keepCommonPostings(db, index);
  } catch (err) {
    console.warn(`Reading the search indexes ahead: ${(err as Error).message}`);
  }
  return kept;
}
