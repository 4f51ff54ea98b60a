import os from 'node:os';
import type { Queryable } from '../db/transaction';
import { readTermAdjacency, type AdjacencyLookup } from './bm25-adjacent';
import { blocksByTerm, int4ArrayLength, readInt4Array } from './bm25-blocks';
import { idf, type Bm25Params } from './bm25';
import type { Bm25Index } from './bm25-index';
import { analyse } from './tokenise';
import { countsAt, denseBytes, denseCounts, isDense, positionOf, scoreAll, topScores, type Postings, type QueryTerms, type Scored, type Work } from './bm25-top';
import { TopK } from './top-k';

/** Every document's length, by entity id less `first` (entity ids of a knowledge base form a compact range), and the work arrays. */
interface Lengths extends Work {
  lengths: Int32Array;
  /** k1 · (1 − b + b · length / avgLength) per document, for `params`. */
  norm?: { params: Bm25Params; values: Float64Array };
}

// Read postings and lengths are kept in this process (an index never changes once ready; a rebuild gets a new
// id), so common terms are read from the database once, not for every query. Postings are kept up to
// SKB_BM25_CACHE_MB megabytes, least recently used first out; by default an eighth of the machine's memory, at
// least 1,024 MB (3 GB on a 24 GiB machine: nearly all of an index of STaRK-Amazon's 1M long documents, 397M
// postings, whose mid-frequency words read from the database cost a 20-word question hundreds of
// milliseconds). Lengths of the last few indexes used, with their length normalisation for the last parameters asked.
const CACHE_MB = Number(process.env.SKB_BM25_CACHE_MB ?? Math.max(1024, Math.round(os.totalmem() / 8 / 2 ** 20)));
if (!(CACHE_MB >= 0)) throw new Error(`SKB_BM25_CACHE_MB must be a number of megabytes, found ${JSON.stringify(process.env.SKB_BM25_CACHE_MB)}`);
const CACHE_BYTES = CACHE_MB * 2 ** 20;
/** What a kept posting takes on average (a 4-byte entity id, a 1-byte count); read-ahead sizes use it. */
const POSTING_BYTES = 5;
/** How many postings the cache holds at about POSTING_BYTES each. */
export const cachedPostingCapacity = () => Math.floor(CACHE_BYTES / POSTING_BYTES);
const LENGTH_INDEXES = 4;
const globalForCache = globalThis as unknown as { __skbBm25Postings?: Map<string, Postings>; __skbBm25Lengths?: Map<string, Lengths>; __skbBm25CachedBytes?: { n: number } };
const postingCache = (globalForCache.__skbBm25Postings ??= new Map());
const lengthCache = (globalForCache.__skbBm25Lengths ??= new Map());
const cached = (globalForCache.__skbBm25CachedBytes ??= { n: 0 });
/** An index's key in the caches: its id, and statistics that tell apart indexes of the same id in other databases (tests use several). */
const cacheKey = (index: Bm25Index) => `${index.id}:${index.docs}:${index.avgLength}`;
/** Kept terms' adjacency (`bm25-adjacent.ts`), in posting order: read on the first phrase that needs it. */
const adjacencyKept = new WeakMap<Postings, Uint16Array>();
/** A kept term's bytes: its postings, its byte per document when it is dense (see DENSE_SHARE), its adjacency if read. */
const bytesOf = (p: Postings) => p.entities.byteLength + p.tfs.byteLength + denseBytes(p) + (adjacencyKept.get(p)?.byteLength ?? 0);

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

/** A term's postings as kept: counts in the narrowest array that holds the largest. */
function toPostings(entities: Int32Array, counts: Int32Array): Postings {
  let max = 0;
  for (let i = 0; i < counts.length; i++) if (counts[i]! > max) max = counts[i]!;
  const tfs = max <= 0xff ? Uint8Array.from(counts) : max <= 0xffff ? Uint16Array.from(counts) : counts;
  return { entities, tfs };
}

/**
 * These terms' postings, entity ids rising, from their blocks (0036_bm25_posting_blocks) in key order. Each
 * block's arrays come as `array_send` bytes, which are copied out as they are rather than parsed from
 * text digit by digit. (A binary-format result would carry them without the hex, but node-postgres decodes
 * every field as UTF-8 first, which mangles bytes past 127.)
 */
async function readBlocks(db: Queryable, indexId: number, termIds: number[]): Promise<Map<number, { entities: Int32Array; counts: Int32Array }>> {
  const { rows } = await db.query<{ id: number; e: Buffer; f: Buffer }>(
    `SELECT term_id AS id, array_send(entity_ids) AS e, array_send(tfs) AS f FROM bm25_block
      WHERE index_id = $1 AND term_id = ANY($2::int[]) ORDER BY term_id, last_entity`, [indexId, termIds]);
  const result = new Map<number, { entities: Int32Array; counts: Int32Array }>();
  for (const [id, blocks] of blocksByTerm(rows)) {
    const n = blocks.reduce((sum, b) => sum + int4ArrayLength(b.e), 0);
    const entities = new Int32Array(n);
    const counts = new Int32Array(n);
    let at = 0;
    for (const b of blocks) {
      readInt4Array(b.f, counts, at);
      at += readInt4Array(b.e, entities, at);
    }
    result.set(id, { entities, counts });
  }
  return result;
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

/** The postings of these terms, from the cache or read in one query (dense terms with their byte per document). */
async function postingsOf(db: Queryable, index: Bm25Index, termIds: number[], { first, lengths }: Lengths): Promise<Map<number, Postings>> {
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
  for (const [id, read] of await readBlocks(db, index.id, missing)) {
    const postings = toPostings(read.entities, read.counts);
    if (isDense(postings, lengths.length)) denseCounts(postings, first, lengths.length);
    result.set(id, postings);
    postingCache.set(`${prefix}:${id}`, postings);
    cached.n += bytesOf(postings);
  }
  for (const [key, p] of postingCache) {
    if (cached.n <= CACHE_BYTES) break;
    postingCache.delete(key);
    cached.n -= bytesOf(p);
  }
  return result;
}

/**
 * Reads the document lengths and these terms' postings into the process's caches ahead of the first query
 * that needs them; how many postings are now kept for them.
 */
export async function keepPostings(db: Queryable, index: Bm25Index, termIds: number[]): Promise<number> {
  const postings = await postingsOf(db, index, termIds, await documentLengths(db, index));
  let n = 0;
  for (const p of postings.values()) n += p.entities.length;
  return n;
}

/**
 * The adjacency of these terms in their documents, from bytes kept with their postings in this process: read whole
 * for a term on the first phrase that needs it. Terms of an index that stores none are read again each time (their
 * blocks' NULLs), and tell nothing.
 */
export async function phraseAdjacency(db: Queryable, index: Bm25Index, termIds: number[]): Promise<AdjacencyLookup> {
  const postings = await postingsOf(db, index, termIds, await documentLengths(db, index));
  const missing = termIds.filter((id) => postings.has(id) && !adjacencyKept.has(postings.get(id)!));
  if (missing.length) {
    for (const [id, adjacent] of await readTermAdjacency(db, index.id, missing)) {
      const p = postings.get(id)!;
      if (!adjacent) continue;
      adjacencyKept.set(p, adjacent);
      if (postingCache.get(`${cacheKey(index)}:${id}`) === p) cached.n += adjacent.byteLength;
    }
  }
  return (termId, entityId) => {
    const p = postings.get(termId);
    const adjacent = p && adjacencyKept.get(p);
    if (!adjacent) return undefined;
    const at = positionOf(p.entities, entityId);
    return p.entities[at] === entityId ? adjacent[at] : undefined;
  };
}

/**
 * For each of `entityIds`, the numbers (`n`) of the `terms` it holds, rising: read from the postings kept in
 * this process, as scoring read them.
 */
export async function termsHeld(db: Queryable, index: Bm25Index, terms: { n: number; id: number }[], entityIds: number[]): Promise<number[][]> {
  const lengths = await documentLengths(db, index);
  const postings = await postingsOf(db, index, terms.map((t) => t.id), lengths);
  // countsAt walks the slots rising.
  const order = entityIds.map((id, k) => ({ id, k })).sort((a, b) => a.id - b.id);
  const slots = Int32Array.from(order, (o) => o.id - lengths.first);
  const held = entityIds.map((): number[] => []);
  const counts = new Int32Array(slots.length);
  for (const t of [...terms].sort((a, b) => a.n - b.n)) {
    const p = postings.get(t.id);
    if (!p) continue;
    countsAt(p, slots, lengths.first, counts);
    for (let i = 0; i < order.length; i++) if (counts[i]! > 0) held[order[i]!.k]!.push(t.n);
  }
  return held;
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

/**
 * Okapi BM25 over the index, term at a time: every distinct query term (analysed as the index's documents
 * were) counts once, any term may match, and the term weights (see `termWeight`) are summed per entity, rarest
 * term first, into an array over the documents. Only the postings of the query's terms are read.
 * `rank` sees each query's terms and the work arrays; what it leaves in `scores` it must clear.
 */
async function accumulate<T>(db: Queryable, index: Bm25Index, params: Bm25Params, texts: string[],
  rank: (terms: QueryTerms, lengths: Lengths, norm: Float64Array) => T, known?: KnownTerms): Promise<T[]> {
  const queries = texts.map((text) => [...new Set(analyse(text, index.analyzer))]);
  const words = [...new Set(queries.flat())];
  const { rows: terms } = known
    ? { rows: words.flatMap((term) => { const t = known.get(term); return t ? [{ term, id: t.id, df: t.df }] : []; }) }
    : words.length
      ? await db.query<{ id: number; term: string; df: number }>('SELECT id, term, df FROM bm25_term WHERE index_id = $1 AND term = ANY($2::text[])', [index.id, words])
      : { rows: [] };
  const byWord = new Map(terms.map((t) => [t.term, t]));
  const lengths = await documentLengths(db, index);
  const postings = await postingsOf(db, index, terms.map((t) => t.id), lengths);
  const norm = lengthNorm(lengths, index, params);
  return queries.map((query) => rank(query.flatMap((word): QueryTerms => {
    const term = byWord.get(word);
    const p = term && postings.get(term.id);
    return p ? [{ w: idf(index.docs, term.df) * (params.k1 + 1), p }] : [];
  }).sort((a, b) => a.p.entities.length - b.p.entities.length), lengths, norm));
}

/** The index's terms among a query's words, already read (search reads them for its own use): a word missing is in no document. */
export type KnownTerms = ReadonlyMap<string, { id: number; df: number }>;

/**
 * For each text, the top `depth` entities by BM25 with their scores, best first, ties to the lower entity id.
 * `known`: the texts' terms, when the caller has read them.
 */
export async function scoreBm25(db: Queryable, index: Bm25Index, params: Bm25Params, texts: string[], depth: number, known?: KnownTerms): Promise<Scored[][]> {
  return accumulate(db, index, params, texts, (terms, lengths, norm) => topScores(terms, lengths, norm, depth).top, known);
}

/**
 * Where BM25 ranks each of `entityIds` for `text` in the full ranking (1 + the entities scoring higher, or the
 * same with a lower id), and how many entities share a word with the text; an entity sharing none has no rank
 * (left out of the map).
 */
export async function bm25Positions(db: Queryable, index: Bm25Index, params: Bm25Params, text: string, entityIds: number[]): Promise<{ ranks: Map<number, number>; matched: number }> {
  const [result] = await accumulate(db, index, params, [text], (terms, lengths, norm) => scoreAll(terms, lengths, norm, (scores, touched, count, first) => {
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
  }));
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

/** A term of a strict query: its number in the query's term list (1-based), id and document frequency. */
export interface StrictTerm {
  n: number;
  id: number;
  df: number;
}

export interface StrictCandidate extends Scored {
  /** The numbers of the terms it holds, rising. */
  present: number[];
}

/** Scores as the statements rank them: rounded to a billionth (sums in another order differ in the last bits). */
export const rank = (score: number) => Math.round(score * 1e9);
/** Best first by `rank`, ties to the lower id. */
export const byRank = (a: Scored, b: Scored) => rank(b.score) - rank(a.score) || a.entityId - b.entityId;

/**
 * The best `n` of matches sorted by `byRank`, with every match that ties with the last (within one unit of
 * the rounding, which JavaScript and PostgreSQL may round apart), so a statement's ties at the cut are all there.
 */
export function cutAtRank<T extends Scored>(sorted: T[], n: number): T[] {
  if (sorted.length <= n) return sorted;
  let end = n;
  while (end < sorted.length && rank(sorted[n - 1]!.score) - rank(sorted[end]!.score) <= 1) end++;
  return sorted.slice(0, end);
}

/**
 * Work arrays of `strictCandidates` up to WORK_BYTES, kept for the next call: its work is synchronous once the
 * postings are in, so calls never share them. For two words in 640,000 of Amazon's documents it allocated 15 MB
 * a query, and collecting them took a tenth of its time.
 */
const WORK_BYTES = 64 * 2 ** 20;
let workBuffer = new ArrayBuffer(0);

/** `ints` int arrays and a float array of n each, over the kept buffer when they fit in WORK_BYTES. */
function workArrays(n: number, ints: number): { int: (i: number) => Int32Array; scores: Float64Array } {
  const bytes = n * (4 * ints + 8);
  let buffer = workBuffer;
  if (buffer.byteLength < bytes) {
    buffer = new ArrayBuffer(bytes);
    if (bytes <= WORK_BYTES) workBuffer = buffer;
  }
  return { int: (i) => new Int32Array(buffer, 8 * n + 4 * n * i, n), scores: new Float64Array(buffer, 0, n) };
}

/** Terms up to which a candidate's terms are a bit mask (whose verdict is worked out once per mask). */
const MASK_TERMS = 30;

/**
 * The entities that may satisfy a strict query, from the postings kept in this process: those holding one of
 * the `driver` terms, kept when `decide` (given whether it holds term n) says true, or null (a phrase whose
 * words it holds, to check in its text); `unsure` says whether any was null. Each is scored by BM25 over the
 * terms numbered 1 to `words` (summed rarest first, as `scoreAll` sums). `rows`: the best `keep` of them by
 * `byRank` with the ties at the cut (`cutAtRank`), or all when `keep` is null, best first; `matched`: how many.
 */
export async function strictCandidates(db: Queryable, index: Bm25Index, params: Bm25Params, terms: StrictTerm[], driver: number[], words: number,
  decide: (holds: (n: number) => boolean) => boolean | null, keep: number | null): Promise<{ rows: StrictCandidate[]; matched: number; unsure: boolean }> {
  const lengths = await documentLengths(db, index);
  const postings = await postingsOf(db, index, terms.map((t) => t.id), lengths);
  const norm = lengthNorm(lengths, index, params);
  const { first } = lengths;
  const lists = driver.flatMap((id) => postings.get(id)?.entities ?? []);
  let ids: Int32Array;
  if (lists.length === 1) ids = lists[0]!;
  else {
    const all = new Int32Array(lists.reduce((a, l) => a + l.length, 0));
    lists.reduce((at, l) => (all.set(l, at), at + l.length), 0);
    all.sort();
    let n = 0;
    for (let i = 0; i < all.length; i++) if (i === 0 || all[i] !== all[i - 1]) all[n++] = all[i]!;
    ids = all.subarray(0, n);
  }
  const ordered = [...terms].sort((a, b) => a.n - b.n);
  const work = workArrays(ids.length, ordered.length + 2);
  const slots = work.int(0);
  for (let k = 0; k < ids.length; k++) slots[k] = ids[k]! - first;
  // Each term's count in every candidate, in term-number order.
  const counts = ordered.map((t, i) => {
    const p = postings.get(t.id);
    const out = work.int(i + 2);
    // The only driver's counts are its own, in order.
    if (p && p.entities === ids) out.set(p.tfs);
    else if (p) countsAt(p, slots, first, out);
    else out.fill(0);
    return out;
  });
  const at = new Map(ordered.map((t, i) => [t.n, i]));
  const summed = ordered.filter((t) => t.n <= words && postings.has(t.id))
    .sort((a, b) => postings.get(a.id)!.entities.length - postings.get(b.id)!.entities.length || a.n - b.n)
    .map((t) => ({ w: idf(index.docs, t.df) * (params.k1 + 1), counts: counts[at.get(t.n)!]! }));
  // Verdicts by the mask of terms held (bit i for the i-th term by number), worked out once per mask: 1 no, 2 yes, 3 unsure.
  const verdicts = new Map<number, number>();
  const masked = ordered.length <= MASK_TERMS;
  let lastMask = -1;
  let lastCode = 0;
  const kept = work.int(1);
  const { scores } = work;
  let matched = 0;
  let unsure = false;
  // The best `keep` so far, offered each match as it is scored.
  const top = keep !== null ? new TopK(keep) : null;
  for (let k = 0; k < slots.length; k++) {
    let code: number | undefined;
    let mask = 0;
    if (masked) {
      for (let i = 0; i < counts.length; i++) if (counts[i]![k]! > 0) mask |= 1 << i;
      // Neighbouring candidates mostly hold the same terms.
      code = mask === lastMask ? lastCode : verdicts.get(mask);
    }
    if (code === undefined) {
      const verdict = decide((n) => counts[at.get(n)!]![k]! > 0);
      code = verdict === false ? 1 : verdict ? 2 : 3;
      if (masked) verdicts.set(mask, code);
    }
    if (masked) {
      lastMask = mask;
      lastCode = code;
    }
    const verdict = code === 1 ? false : code === 2 ? true : null;
    if (verdict === false) continue;
    if (verdict === null) unsure = true;
    const slot = slots[k]!;
    let score = 0;
    for (const { w, counts: c } of summed) {
      const tf = c[k]!;
      if (tf) score += (w * tf) / (tf + norm[slot]!);
    }
    top?.push(score, ids[k]!, matched);
    kept[matched] = k;
    scores[matched++] = score;
  }
  // The best `keep` and the ties at the cut: those within a unit of the keep-th best's rank. A score well below
  // that (two units, far beyond the rounding's error) is passed over without rounding it.
  const floor = top && matched > keep! ? rank(top.lowest()) - 1 : -Infinity;
  const clearlyBelow = (floor - 2) / 1e9;
  const rows: StrictCandidate[] = [];
  for (let m = 0; m < matched; m++) {
    if (scores[m]! < clearlyBelow || rank(scores[m]!) < floor) continue;
    const k = kept[m]!;
    rows.push({ entityId: ids[k]!, score: scores[m]!, present: ordered.flatMap((t, i) => (counts[i]![k]! > 0 ? [t.n] : [])) });
  }
  rows.sort(byRank);
  return { rows: keep === null ? rows : cutAtRank(rows, keep), matched, unsure };
}

/** Every entity sharing a word with the text and its score, in no order: the whole ranking, for a query with few postings. */
export async function scoreEvery(db: Queryable, index: Bm25Index, params: Bm25Params, text: string, known?: KnownTerms): Promise<Scored[]> {
  const [all] = await accumulate(db, index, params, [text], (terms, lengths, norm) => scoreAll(terms, lengths, norm,
    (scores, touched, count, first) => Array.from(touched.subarray(0, count), (slot) => ({ entityId: slot + first, score: scores[slot]! }))), known);
  return all!;
}
