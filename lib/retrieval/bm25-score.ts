import type { Queryable } from '../db/transaction';
import { idf, type Bm25Params } from './bm25';
import type { Bm25Index } from './bm25-index';
import { analyse } from './tokenise';
import { TopK } from './top-k';

/** One term's postings: the entities it occurs in and how often. */
interface Postings {
  entities: Int32Array;
  tfs: Int32Array;
}

/** Every document's length, by entity id less `first` (entity ids of a knowledge base form a compact range). */
interface Lengths {
  first: number;
  lengths: Int32Array;
  /** k1 · (1 − b + b · length / avgLength) per document, for `params`. */
  norm?: { params: Bm25Params; values: Float64Array };
  /** Scoring's work arrays (a score per document, zero between queries; the slots a query touched). */
  scores: Float64Array;
  touched: Int32Array;
}

export interface Scored {
  entityId: number;
  score: number;
}

// Read postings and lengths are kept in this process (an index never changes once ready; a rebuild gets a new
// id), so common terms are read from the database once, not for every query. Up to POSTING_BUDGET postings
// (8 bytes each: the whole index of 130k documents of STaRK-Prime's size fits), least recently used first out;
// lengths of the last few indexes used, with their length normalisation for the last parameters asked.
const POSTING_BUDGET = 16_000_000;
const LENGTH_INDEXES = 4;
const globalForCache = globalThis as unknown as { __skbBm25Postings?: Map<string, Postings>; __skbBm25Lengths?: Map<string, Lengths>; __skbBm25Cached?: { n: number } };
const postingCache = (globalForCache.__skbBm25Postings ??= new Map());
const lengthCache = (globalForCache.__skbBm25Lengths ??= new Map());
const cached = (globalForCache.__skbBm25Cached ??= { n: 0 });
/** An index's key in the caches: its id, and statistics that tell apart indexes of the same id in other databases (tests use several). */
const cacheKey = (index: Bm25Index) => `${index.id}:${index.docs}:${index.avgLength}`;

/** Packed (int4, int4) pairs as PostgreSQL sends them (big-endian), unpacked. */
function unpack(buf: Buffer): [Int32Array, Int32Array] {
  const n = buf.length / 8;
  const a = new Int32Array(n);
  const b = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    a[i] = buf.readInt32BE(8 * i);
    b[i] = buf.readInt32BE(8 * i + 4);
  }
  return [a, b];
}

async function documentLengths(db: Queryable, index: Bm25Index): Promise<Lengths> {
  const key = cacheKey(index);
  const hit = lengthCache.get(key);
  if (hit) {
    lengthCache.delete(key);
    lengthCache.set(key, hit);
    return hit;
  }
  const { rows: [row] } = await db.query<{ first: number | null; last: number | null; packed: Buffer | null }>(
    `SELECT min(entity_id) AS first, max(entity_id) AS last, string_agg(int4send(entity_id) || int4send(length), ''::bytea) AS packed
       FROM bm25_doc WHERE index_id = $1`, [index.id]);
  const first = row?.first ?? 0;
  const lengths = new Int32Array(row?.last == null ? 0 : row.last - first + 1);
  if (row?.packed) {
    const [ids, ls] = unpack(row.packed);
    ids.forEach((id, i) => { lengths[id - first] = ls[i]!; });
  }
  const result = { first, lengths, scores: new Float64Array(lengths.length), touched: new Int32Array(lengths.length) };
  lengthCache.set(key, result);
  if (lengthCache.size > LENGTH_INDEXES) lengthCache.delete(lengthCache.keys().next().value!);
  return result;
}

/** The postings of these terms, from the cache or read in one query. */
async function postingsOf(db: Queryable, index: Bm25Index, termIds: number[]): Promise<Map<number, Postings>> {
  const prefix = cacheKey(index);
  const result = new Map<number, Postings>();
  const missing: number[] = [];
  for (const id of termIds) {
    const key = `${prefix}:${id}`;
    const hit = postingCache.get(key);
    if (hit) {
      postingCache.delete(key);
      postingCache.set(key, hit);
      result.set(id, hit);
    } else {
      missing.push(id);
    }
  }
  if (!missing.length) return result;
  const { rows } = await db.query<{ id: number; packed: Buffer }>(
    `SELECT term_id AS id, string_agg(int4send(entity_id) || int4send(tf), ''::bytea) AS packed
       FROM bm25_posting WHERE index_id = $1 AND term_id = ANY($2::int[]) GROUP BY term_id`, [index.id, missing]);
  for (const row of rows) {
    const [entities, tfs] = unpack(row.packed);
    const postings = { entities, tfs };
    result.set(row.id, postings);
    postingCache.set(`${prefix}:${row.id}`, postings);
    cached.n += entities.length;
  }
  for (const [key, p] of postingCache) {
    if (cached.n <= POSTING_BUDGET) break;
    postingCache.delete(key);
    cached.n -= p.entities.length;
  }
  return result;
}

/**
 * Reads the document lengths and these terms' postings into the process's caches ahead of the first query
 * that needs them; how many postings are now kept for them.
 */
export async function keepPostings(db: Queryable, index: Bm25Index, termIds: number[]): Promise<number> {
  const [, postings] = await Promise.all([documentLengths(db, index), postingsOf(db, index, termIds)]);
  let n = 0;
  for (const p of postings.values()) n += p.entities.length;
  return n;
}

/** Each document's length normalisation for these parameters, kept for the next call with the same. */
function lengthNorm(lengths: Lengths, index: Bm25Index, params: Bm25Params): Float64Array {
  if (lengths.norm?.params.k1 === params.k1 && lengths.norm.params.b === params.b) return lengths.norm.values;
  const values = new Float64Array(lengths.lengths.length);
  for (let i = 0; i < values.length; i++) values[i] = params.k1 * (1 - params.b + (params.b * lengths.lengths[i]!) / index.avgLength);
  lengths.norm = { params: { k1: params.k1, b: params.b }, values };
  return values;
}

/** Whether a scores higher than b: higher score, or the same and the lower entity id. */
const better = (a: Scored, b: Scored) => a.score > b.score || (a.score === b.score && a.entityId < b.entityId);

/** The `depth` best of `scores` (entities with a positive score), best first. */
function topOf(scores: Float64Array, touched: Int32Array, count: number, first: number, depth: number): Scored[] {
  const top = new TopK(depth);
  for (let k = 0; k < count; k++) {
    const slot = touched[k]!;
    top.push(scores[slot]!, slot + first, slot);
  }
  return top.sorted().map(({ id, score }) => ({ entityId: id, score }));
}

/**
 * Okapi BM25 over the index, term at a time: every distinct query term (analysed as the index's documents
 * were) counts once, any term may match, and the term weights (see `termWeight`) are summed per entity into
 * an array over the documents. Only the postings of the query's terms are read. `visit` sees each query's
 * scores (`scores[slot]`, entity id `slot + first`, positive for the `count` slots listed in `touched`)
 * before they are cleared for the next.
 */
async function accumulate<T>(db: Queryable, index: Bm25Index, params: Bm25Params, texts: string[],
  visit: (scores: Float64Array, touched: Int32Array, count: number, first: number) => T): Promise<T[]> {
  const queries = texts.map((text) => [...new Set(analyse(text, index.analyzer))]);
  const words = [...new Set(queries.flat())];
  const { rows: terms } = words.length
    ? await db.query<{ id: number; term: string; df: number }>('SELECT id, term, df FROM bm25_term WHERE index_id = $1 AND term = ANY($2::text[])', [index.id, words])
    : { rows: [] };
  const byWord = new Map(terms.map((t) => [t.term, t]));
  const [lengths, postings] = await Promise.all([documentLengths(db, index), postingsOf(db, index, terms.map((t) => t.id))]);
  const { first, scores, touched } = lengths;
  const norm = lengthNorm(lengths, index, params);
  return queries.map((query) => {
    let count = 0;
    for (const word of query) {
      const term = byWord.get(word);
      const p = term && postings.get(term.id);
      if (!p) continue;
      const w = idf(index.docs, term.df) * (params.k1 + 1);
      for (let i = 0; i < p.entities.length; i++) {
        const slot = p.entities[i]! - first;
        const tf = p.tfs[i]!;
        if (scores[slot] === 0) touched[count++] = slot;
        scores[slot]! += (w * tf) / (tf + norm[slot]!);
      }
    }
    const result = visit(scores, touched, count, first);
    for (let k = 0; k < count; k++) scores[touched[k]!] = 0;
    return result;
  });
}

/** For each text, the top `depth` entities by BM25 with their scores, best first, ties to the lower entity id. */
export async function scoreBm25(db: Queryable, index: Bm25Index, params: Bm25Params, texts: string[], depth: number): Promise<Scored[][]> {
  return accumulate(db, index, params, texts, (scores, touched, count, first) => topOf(scores, touched, count, first, depth));
}

/**
 * Where BM25 ranks each of `entityIds` for `text` in the full ranking (1 + the entities scoring higher, or the
 * same with a lower id), and how many entities share a word with the text; an entity sharing none has no rank
 * (left out of the map).
 */
export async function bm25Positions(db: Queryable, index: Bm25Index, params: Bm25Params, text: string, entityIds: number[]): Promise<{ ranks: Map<number, number>; matched: number }> {
  const [result] = await accumulate(db, index, params, [text], (scores, touched, count, first) => {
    const ranks = new Map<number, number>();
    for (const id of entityIds) {
      const target = { entityId: id, score: scores[id - first] ?? 0 };
      if (!(target.score > 0)) continue;
      let rank = 1;
      for (let k = 0; k < count; k++) {
        const slot = touched[k]!;
        if (better({ entityId: slot + first, score: scores[slot]! }, target)) rank += 1;
      }
      ranks.set(id, rank);
    }
    return { ranks, matched: count };
  });
  return result!;
}

/** `scoreBm25`'s rankings as external ids, for the baseline run. */
export async function rankBm25(db: Queryable, kbId: number, index: Bm25Index, params: Bm25Params, texts: string[], depth: number): Promise<string[][]> {
  const scored = await scoreBm25(db, index, params, texts, depth);
  const ids = [...new Set(scored.flat().map((s) => s.entityId))];
  const { rows } = await db.query<{ id: number; external_id: string }>('SELECT id, external_id FROM entity WHERE kb_id = $1 AND id = ANY($2::int[])', [kbId, ids]);
  const external = new Map(rows.map((r) => [r.id, r.external_id]));
  return scored.map((top) => top.map((s) => external.get(s.entityId)!));
}
