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
 * A query's terms (each distinct word once), weight idf · (k1 + 1) and postings, in the order every scorer sums
 * them: rarest first (fewest postings; ties in the query's order), the order the pruning below needs.
 */
export type QueryTerms = { w: number; p: Postings }[];

/** Adds one term's weights into `scores`, listing in `touched` (from `count` on) the slots it scores first; the new count. */
function addTerm({ w, p }: QueryTerms[number], first: number, norm: Float64Array, scores: Float64Array, touched: Int32Array, count: number): number {
  const { entities, tfs } = p;
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
/** Postings a search of one remaining term for one candidate is reckoned to cost, next to adding one posting. */
const SEEK_COST = 8;

/**
 * The `depth` best of the query, exactly as `scoreAll` would rank them, without adding up every posting of
 * its commonest words (MaxScore). Terms are added in order, rarest first; once the weights the remaining
 * terms could still add (each at most idf · (k1 + 1)) sum below the depth-th best partial score, no entity
 * untouched so far can reach the top, nor any touched one whose partial score plus that bound falls short.
 * When the few left are cheaper to finish than the remaining postings are to add, each goes on from its
 * partial score through the remaining terms, its count in each found by a galloping search of the term's
 * postings: the same additions in the same order as `scoreAll`'s, so the same scores to the last bit.
 * Otherwise every posting is added, as `scoreAll` does. `added`: the postings added up in full.
 */
export function topScores(terms: QueryTerms, lengths: Work, norm: Float64Array, depth: number): { top: Scored[]; added: number } {
  const { first, scores, touched } = lengths;
  // What the terms from i on could add at most, and how many postings they hold.
  const rest = new Float64Array(terms.length + 1);
  const restPostings = new Float64Array(terms.length + 1);
  for (let i = terms.length - 1; i >= 0; i--) {
    rest[i] = rest[i + 1]! + terms[i]!.w;
    restPostings[i] = restPostings[i + 1]! + terms[i]!.p.entities.length;
  }
  let count = 0;
  let added = 0;
  // No partial score exceeds the weights added so far: while the remaining terms could add as much, no look can succeed.
  let addedWeight = 0;
  let top: Scored[] | null = null;
  for (let done = 0; done < terms.length && !top;) {
    count = addTerm(terms[done]!, first, norm, scores, touched, count);
    added += terms[done]!.p.entities.length;
    addedWeight += terms[done]!.w;
    done += 1;
    // Worth a look only when the terms left hold more postings than a pass over the touched slots costs.
    if (count < depth || restPostings[done]! < 2 * count || rest[done]! >= addedWeight) continue;
    const kth = new TopK(depth);
    for (let k = 0; k < count; k++) kth.push(scores[touched[k]!]!, touched[k]!, 0);
    const floor = kth.lowest() * (1 - SLACK);
    if (!(rest[done]! < floor)) continue;
    const min = floor - rest[done]! * (1 + SLACK);
    let left = 0;
    for (let k = 0; k < count; k++) if (scores[touched[k]!]! >= min) left += 1;
    if (left * (terms.length - done) * SEEK_COST < restPostings[done]!) {
      top = finishTop(terms.slice(done), candidates(scores, touched, count, min), lengths, norm, depth);
    }
  }
  top ??= topOf(scores, touched, count, first, depth);
  for (let k = 0; k < count; k++) scores[touched[k]!] = 0;
  return { top, added };
}

/** The touched slots whose partial score is at least `min`, rising. */
function candidates(scores: Float64Array, touched: Int32Array, count: number, min: number): Int32Array {
  const kept: number[] = [];
  for (let k = 0; k < count; k++) if (scores[touched[k]!]! >= min) kept.push(touched[k]!);
  return Int32Array.from(kept).sort();
}

/** The first index at or after `from` in rising `list` whose value is at least `target` (galloping, then binary search). */
function seek(list: Int32Array, from: number, target: number): number {
  let lo = from;
  let step = 1;
  let hi = from;
  while (hi < list.length && list[hi]! < target) {
    lo = hi + 1;
    hi += step;
    step *= 2;
  }
  hi = Math.min(hi, list.length);
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]! < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The `depth` best of the candidate slots (rising), each going on from its partial score through the `remaining` terms in order. */
function finishTop(remaining: QueryTerms, slots: Int32Array, { first, scores }: Work, norm: Float64Array, depth: number): Scored[] {
  const cursor = new Int32Array(remaining.length);
  const top = new TopK(depth);
  for (let c = 0; c < slots.length; c++) {
    const slot = slots[c]!;
    const entity = slot + first;
    let score = scores[slot]!;
    for (let t = 0; t < remaining.length; t++) {
      const { w, p } = remaining[t]!;
      const at = (cursor[t] = seek(p.entities, cursor[t]!, entity));
      if (p.entities[at] !== entity) continue;
      const tf = p.tfs[at]!;
      score += (w * tf) / (tf + norm[slot]!);
    }
    top.push(score, entity, slot);
  }
  return top.sorted().map(({ id, score }) => ({ entityId: id, score }));
}
