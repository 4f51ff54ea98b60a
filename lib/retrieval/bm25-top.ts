import { TopK } from './top-k';

// BM25's ranking over postings in memory: the whole ranking, or its best few without reading every posting.

/**
 * One term's postings: the entities it occurs in (rising) and how often, in the narrowest array that holds
 * the counts (a byte for nearly every term), so a posting takes 5 bytes of the cache.
 */
export interface Postings {
  entities: Int32Array;
  tfs: Uint8Array | Uint16Array | Int32Array;
}

/**
 * Scoring's work arrays over one index's documents (slot = entity id less `first`): a score per document,
 * zero between queries, and the slots a query touched.
 */
export interface Work {
  first: number;
  scores: Float64Array;
  touched: Int32Array;
}

export interface Scored {
  entityId: number;
  score: number;
}

/**
 * A query's terms (each distinct word once), weight idf · (k1 + 1) and postings, in the order every scorer sums
 * them: rarest first (fewest postings; ties in the query's order), the order the pruning below needs.
 */
export type QueryTerms = { w: number; p: Postings }[];

/** Adds one term's weights into `scores`, listing in `touched` (from `count` on) the slots it scores first; the new count. */
function addTerm({ w, p }: QueryTerms[number], first: number, norm: Float64Array, scores: Float64Array, touched: Int32Array, count: number): number {
  // One loop per count width, so each stays monomorphic (nearly every term's counts are bytes).
  return p.tfs instanceof Uint8Array
    ? addCounts(w, p.entities, p.tfs, first, norm, scores, touched, count)
    : addWideCounts(w, p.entities, p.tfs, first, norm, scores, touched, count);
}

function addCounts(w: number, entities: Int32Array, tfs: Uint8Array, first: number, norm: Float64Array, scores: Float64Array, touched: Int32Array, count: number): number {
  for (let i = 0; i < entities.length; i++) {
    const slot = entities[i]! - first;
    const tf = tfs[i]!;
    if (scores[slot] === 0) touched[count++] = slot;
    scores[slot]! += (w * tf) / (tf + norm[slot]!);
  }
  return count;
}

function addWideCounts(w: number, entities: Int32Array, tfs: Uint16Array | Int32Array, first: number, norm: Float64Array, scores: Float64Array, touched: Int32Array, count: number): number {
  for (let i = 0; i < entities.length; i++) {
    const slot = entities[i]! - first;
    const tf = tfs[i]!;
    if (scores[slot] === 0) touched[count++] = slot;
    scores[slot]! += (w * tf) / (tf + norm[slot]!);
  }
  return count;
}

/** Every entity's score (the full ranking's), seen by `visit` before the work arrays are cleared. */
export function scoreAll<T>(terms: QueryTerms, { first, scores, touched }: Work, norm: Float64Array,
  visit: (scores: Float64Array, touched: Int32Array, count: number, first: number) => T): T {
  let count = 0;
  for (const term of terms) count = addTerm(term, first, norm, scores, touched, count);
  const result = visit(scores, touched, count, first);
  for (let k = 0; k < count; k++) scores[touched[k]!] = 0;
  return result;
}

/** Relative slack on the bounds below, far above the rounding of sums taken in another order. */
const SLACK = 1e-9;

/**
 * A term in at least this share of the documents is also kept as a byte per document (its count, 0 where
 * absent, 255 for 255 or more): no larger than its postings at 5 bytes each, and read by slot in one step.
 */
export const DENSE_SHARE = 1 / 5;
export const isDense = (p: Postings, documents: number) => p.entities.length >= documents * DENSE_SHARE;

interface Kept {
  /** The highest tf / (tf + norm) of any posting, for `norm`. */
  norm?: Float64Array;
  max?: number;
  dense?: Uint8Array;
}
// Kept with the postings they were computed from (bm25-score counts the dense bytes in its cache's size).
const kept = new WeakMap<Postings, Kept>();
const keptOf = (p: Postings) => {
  let k = kept.get(p);
  if (!k) kept.set(p, (k = {}));
  return k;
};

/** The most the term adds to any document, without its weight: its highest tf / (tf + norm) (one pass, kept per norm). */
function maxImpact(p: Postings, first: number, norm: Float64Array): number {
  const k = keptOf(p);
  if (k.norm === norm) return k.max!;
  const { entities, tfs } = p;
  let max = 0;
  for (let i = 0; i < entities.length; i++) {
    const tf = tfs[i]!;
    const impact = tf / (tf + norm[entities[i]! - first]!);
    if (impact > max) max = impact;
  }
  k.norm = norm;
  k.max = max;
  return max;
}

/** A dense term's counts by slot (see DENSE_SHARE), made on first use. */
export function denseCounts(p: Postings, first: number, documents: number): Uint8Array {
  const k = keptOf(p);
  if (k.dense?.length === documents) return k.dense;
  const dense = new Uint8Array(documents);
  const { entities, tfs } = p;
  for (let i = 0; i < entities.length; i++) dense[entities[i]! - first] = Math.min(255, tfs[i]!);
  k.dense = dense;
  return dense;
}

/** The bytes of the term's dense counts, if made. */
export const denseBytes = (p: Postings) => kept.get(p)?.dense?.byteLength ?? 0;

/** Where `id` is in the rising `ids`, or where it would go. */
export function positionOf(ids: Int32Array, id: number): number {
  let lo = 0;
  let hi = ids.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ids[mid]! < id) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** A count kept as 255 in a dense array: the posting's own, found by binary search. */
const fullCount = ({ entities, tfs }: Postings, entity: number): number => tfs[positionOf(entities, entity)]!;

/** A term's count in the document of slot `slot` (0 if absent): from its dense counts when it has them, else by binary search. */
function countIn(p: Postings, dense: Uint8Array | undefined, slot: number, first: number): number {
  if (dense) {
    const count = dense[slot]!;
    return count === 255 ? fullCount(p, slot + first) : count;
  }
  const at = positionOf(p.entities, slot + first);
  return p.entities[at] === slot + first ? p.tfs[at]! : 0;
}

/** Documents scored in full to set the first floor. */
const SAMPLE = 256;
/** Postings of the rarest terms added up to choose them. */
const SAMPLE_POSTINGS = 32_768;
/**
 * Touched documents are visited in slot order, by one pass over the scores, once they are more than one in
 * this many: in order, the array's reads are cheaper than half a million of them scattered (a 20-word question
 * on MAG touches about a quarter of its 1.9M documents; docs/benchmarks.md).
 */
const SCAN_SHARE = 8;

/**
 * A lower bound on the depth-th best score, or -Infinity: the depth-th best of a sample scored in full (each
 * term's count read from its dense bytes or found by binary search). The sample: the SAMPLE documents with
 * the best partial scores from the rarest terms (added up to SAMPLE_POSTINGS postings, at least one term), and
 * the first SAMPLE postings' documents of the terms taken rarest first (each way alone set a lower floor on
 * MAG-shaped questions than both together).
 */
function sampleFloor(terms: QueryTerms, { first, scores, touched }: Work, norm: Float64Array, depth: number, dense: (Uint8Array | undefined)[]): number {
  const size = Math.max(SAMPLE, depth);
  let count = 0;
  let c = 0;
  for (let postings = 0; c < terms.length && (c === 0 || postings + terms[c]!.p.entities.length <= SAMPLE_POSTINGS); c++) {
    count = addTerm(terms[c]!, first, norm, scores, touched, count);
    postings += terms[c]!.p.entities.length;
  }
  const best = new TopK(size);
  for (let k = 0; k < count; k++) {
    best.push(scores[touched[k]!]!, touched[k]! + first, touched[k]!);
    scores[touched[k]!] = 0;
  }
  const slots = new Set(best.sorted().map((b) => b.slot));
  for (let t = 0, taken = 0; t < terms.length && taken < size; t++) {
    const { entities } = terms[t]!.p;
    for (let i = 0; i < entities.length && taken < size; i++, taken++) slots.add(entities[i]! - first);
  }
  if (slots.size < depth) return -Infinity;
  const top = new TopK(depth);
  for (const slot of slots) {
    let score = 0;
    for (let t = 0; t < terms.length; t++) {
      const { w, p } = terms[t]!;
      const tf = countIn(p, dense[t], slot, first);
      if (tf) score += (w * tf) / (tf + norm[slot]!);
    }
    top.push(score, slot + first, slot);
  }
  return top.lowest() * (1 - SLACK);
}

/**
 * The `depth` best of the query, exactly as `scoreAll` would rank them, without adding up the postings of its
 * commonest words (MaxScore). Each term has a bound: its weight times its highest impact (tf / (tf + norm)). A
 * first floor comes from scoring a sample in full (`sampleFloor`); the commonest terms (last in the summing
 * order, rarest first) whose bounds sum below it are left out of the term-at-a-time sum over the others. Each
 * touched document then goes on from its partial score through those terms in order, each count read from the
 * term's byte per document (terms in at least DENSE_SHARE of the documents) or found by binary search, and is
 * dropped as soon as its score plus the bounds of the terms left falls below the floor (the depth-th best so
 * far, once higher). Touched documents are taken in the order they were first touched (rarest term first, so
 * the best come early), or, when they are more than one in SCAN_SHARE of all, in slot order by one pass over
 * the scores. The same additions in the same order, so the same scores to the last bit. A document holding
 * none of the summed terms scores at most the others' bounds, below the floor. `added`: the postings added
 * term at a time.
 */
export function topScores(terms: QueryTerms, work: Work, norm: Float64Array, depth: number): { top: Scored[]; added: number } {
  const { first, scores, touched } = work;
  const documents = scores.length;
  const dense = terms.map(({ p }) => (isDense(p, documents) ? denseCounts(p, first, documents) : undefined));
  let floor = terms.length > 1 && depth > 0 ? sampleFloor(terms, work, norm, depth, dense) : -Infinity;
  // The summed terms are those before `split`; the bounds of those after it sum to `rest`, below the floor.
  let split = terms.length;
  let rest = 0;
  const bounds = new Float64Array(terms.length);
  while (split > 1) {
    const t = terms[split - 1]!;
    const bound = t.w * maxImpact(t.p, first, norm) * (1 + SLACK);
    if (!(rest + bound < floor)) break;
    rest += bound;
    bounds[--split] = bound;
  }
  let count = 0;
  let added = 0;
  for (let c = 0; c < split; c++) {
    count = addTerm(terms[c]!, first, norm, scores, touched, count);
    added += terms[c]!.p.entities.length;
  }
  const top = new TopK(depth);
  const scan = count * SCAN_SHARE > documents;
  for (let k = 0, end = scan ? documents : count; k < end; k++) {
    const slot = scan ? k : touched[k]!;
    let score = scores[slot]!;
    // In a scan, an untouched document (every touched one scores above 0).
    if (score === 0) continue;
    scores[slot] = 0;
    let left = rest;
    for (let c = split; c < terms.length && score + left >= floor; c++) {
      left -= bounds[c]!;
      const tf = countIn(terms[c]!.p, dense[c], slot, first);
      if (tf) score += (terms[c]!.w * tf) / (tf + norm[slot]!);
    }
    if (score + left < floor) continue;
    top.push(score, slot + first, slot);
    if (top.size === depth) floor = Math.max(floor, top.lowest() * (1 - SLACK));
  }
  return { top: top.sorted().map(({ id, score }) => ({ entityId: id, score })), added };
}

/**
 * Each rising slot's count of the term (0 if absent), into `out`: from its dense counts when made (a byte per
 * document, see DENSE_SHARE), else by a galloping search on from the previous slot's place.
 */
export function countsAt(p: Postings, slots: Int32Array, first: number, out: Int32Array): void {
  const dense = kept.get(p)?.dense;
  if (dense) {
    for (let k = 0; k < slots.length; k++) out[k] = countIn(p, dense, slots[k]!, first);
    return;
  }
  const { entities, tfs } = p;
  let at = 0;
  for (let k = 0; k < slots.length; k++) {
    const target = slots[k]! + first;
    let lo = at;
    let hi = at;
    let step = 1;
    while (hi < entities.length && entities[hi]! < target) {
      lo = hi + 1;
      hi += step;
      step *= 2;
    }
    hi = Math.min(hi, entities.length);
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (entities[mid]! < target) lo = mid + 1;
      else hi = mid;
    }
    at = lo;
    out[k] = entities[lo] === target ? tfs[lo]! : 0;
  }
}
