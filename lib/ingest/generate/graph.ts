import type { Rng } from './random';
import { writeLines } from './sink';

/**
 * The edge pass shared by every shape: edges are generated and written source by source, so the
 * output is sorted by source and the duplicate check only needs the current source's out-list (a
 * stamp array over the entities): memory grows with the number of entities, never with the edges.
 */

/** Entities with at least this many edges are counted as hubs in a summary. */
export const HUB_DEGREE = 100_000;

/**
 * Heavy-tailed target choice: Zipf-Mandelbrot weights (rank + q)^-s over a seeded permutation of a
 * type's entities, sampled in O(1) with Vose's alias method. The offset q flattens the very top, so
 * several entities (not just one) collect a large share; s = 0 is uniform.
 */
export interface TargetSampler {
  /** Global entity index by popularity rank. */
  byRank: Int32Array;
  prob: Float64Array;
  alias: Int32Array;
}

export function targetSampler(start: number, count: number, rng: Rng, s: number, q: number): TargetSampler {
  const byRank = new Int32Array(count);
  for (let i = 0; i < count; i++) byRank[i] = start + i;
  for (let i = count - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    const tmp = byRank[i]!;
    byRank[i] = byRank[j]!;
    byRank[j] = tmp;
  }
  const { prob, alias } = aliasTable(count, (r) => Math.pow(r + 1 + q, -s));
  return { byRank, prob, alias };
}

/** Vose's alias tables for `count` outcomes weighted by `weight(i)`. */
export function aliasTable(count: number, weight: (i: number) => number): { prob: Float64Array; alias: Int32Array } {
  const scaled = new Float64Array(count);
  let sum = 0;
  for (let r = 0; r < count; r++) sum += scaled[r] = weight(r);
  for (let r = 0; r < count; r++) scaled[r] = (scaled[r]! * count) / sum;
  const prob = new Float64Array(count);
  const alias = new Int32Array(count);
  const small: number[] = [];
  const large: number[] = [];
  for (let r = count - 1; r >= 0; r--) (scaled[r]! < 1 ? small : large).push(r);
  while (small.length && large.length) {
    const s = small.pop()!;
    const l = large.pop()!;
    prob[s] = scaled[s]!;
    alias[s] = l;
    scaled[l] = scaled[l]! + scaled[s]! - 1;
    (scaled[l]! < 1 ? small : large).push(l);
  }
  for (const r of large) prob[r] = 1;
  for (const r of small) prob[r] = 1;
  return { prob, alias };
}

/** Types numbered contiguously (type t holds entities start[t] .. start[t] + counts[t] - 1) and typed relations. */
export interface GraphPlan {
  types: { name: string; count: number; start: number }[];
  relations: { name: string; source: number; target: number }[];
  /** Per relation, the out-degree of each of its source type's entities (by local index). */
  outDegrees: Int32Array[];
  /** Per relation, its target sampler (relations may share one). */
  samplers: (TargetSampler | undefined)[];
}

export interface EdgePassResult {
  written: number;
  degree: Int32Array;
  relationEdges: number[];
  fallbackDraws: number;
}

const ZIPF_TRIES = 48;
/** After this many exhausted draws within one out-list, the rest of it is drawn uniformly. */
const FALLBACKS_BEFORE_UNIFORM = 4;

/**
 * Writes `edges.tsv`. `onEdges` sees each source's out-list of one relation (sorted target indexes,
 * valid only during the call) so a shape can note what its queries need without keeping the graph.
 */
export async function writeEdges(
  file: string,
  plan: GraphPlan,
  rng: Rng,
  progress: (edges: number) => void,
  onEdges?: (source: number, relation: number, targets: Int32Array) => void,
): Promise<EdgePassResult> {
  const entities = plan.types.reduce((sum, t) => sum + t.count, 0);
  const outgoing = plan.types.map((_, t) => plan.relations.map((r, ri) => ({ r, ri })).filter((x) => x.r.source === t));
  const degree = new Int32Array(entities);
  const stamp = new Uint32Array(entities);
  let mark = 0;
  let chosen = new Int32Array(1024);
  const relationEdges = new Array<number>(plan.relations.length).fill(0);
  let fallbackDraws = 0;
  let written = 0;
  let nextReport = 100_000;
  await writeLines(file, async (sink) => {
    await sink.write('source\trelation\ttarget\n');
    for (let t = 0; t < plan.types.length; t++) {
      const { start, count } = plan.types[t]!;
      for (let local = 0; local < count; local++) {
        const s = start + local;
        for (const { r, ri } of outgoing[t]!) {
          const k = plan.outDegrees[ri]![local]!;
          if (k === 0) continue;
          const tStart = plan.types[r.target]!.start;
          const tCount = plan.types[r.target]!.count;
          const cap = tCount - (r.source === r.target ? 1 : 0);
          if (chosen.length < k) chosen = new Int32Array(Math.max(k, chosen.length * 2));
          mark++;
          const ok = (c: number) => c !== s && stamp[c] !== mark;
          let n = 0;
          if (2 * k > cap) {
            // Dense: exclude cap - k random targets, take all others (in id order).
            let exclude = cap - k;
            while (exclude > 0) {
              const c = tStart + Math.floor(rng() * tCount);
              if (ok(c)) {
                stamp[c] = mark;
                exclude--;
              }
            }
            for (let c = tStart; c < tStart + tCount; c++) if (ok(c)) chosen[n++] = c;
          } else {
            const { byRank, prob, alias } = plan.samplers[ri]!;
            let misses = 0;
            while (n < k) {
              let c = -1;
              if (misses < FALLBACKS_BEFORE_UNIFORM) {
                for (let attempt = 0; attempt < ZIPF_TRIES; attempt++) {
                  const u = rng() * tCount;
                  const rank = Math.floor(u);
                  const candidate = byRank[u - rank < prob[rank]! ? rank : alias[rank]!]!;
                  if (ok(candidate)) {
                    c = candidate;
                    break;
                  }
                }
              }
              if (c < 0) {
                // Out of retries (a popular target repeated): uniform redraws, which succeed at least
                // half the time here, then a linear probe so that this always terminates.
                misses++;
                fallbackDraws++;
                for (let attempt = 0; attempt < 64 && c < 0; attempt++) {
                  const candidate = tStart + Math.floor(rng() * tCount);
                  if (ok(candidate)) c = candidate;
                }
                if (c < 0) {
                  const from = Math.floor(rng() * tCount);
                  for (let d = 0; d < tCount && c < 0; d++) {
                    const candidate = tStart + ((from + d) % tCount);
                    if (ok(candidate)) c = candidate;
                  }
                }
              }
              stamp[c] = mark;
              chosen[n++] = c;
            }
            chosen.subarray(0, n).sort();
          }
          const prefix = `${s}\t${r.name}\t`;
          let lines = '';
          for (let j = 0; j < n; j++) {
            const c = chosen[j]!;
            degree[c]!++;
            lines += `${prefix}${c}\n`;
          }
          degree[s]! += n;
          relationEdges[ri]! += n;
          written += n;
          onEdges?.(s, ri, chosen.subarray(0, n));
          await sink.write(lines);
          if (written >= nextReport) {
            progress(written);
            nextReport = (Math.floor(written / 100_000) + 1) * 100_000;
          }
        }
      }
    }
  });
  return { written, degree, relationEdges, fallbackDraws };
}

/** The largest degree and the number of hubs. */
export function degreeSummary(degree: Int32Array): { maxDegree: number; hubs: number } {
  let maxDegree = 0;
  let hubs = 0;
  for (let i = 0; i < degree.length; i++) {
    const d = degree[i]!;
    if (d > maxDegree) maxDegree = d;
    if (d >= HUB_DEGREE) hubs++;
  }
  return { maxDegree, hubs };
}

/** Writes `entities.jsonl`, one line per entity in id order from `line(type, local index, id)`. */
export async function writeEntities(
  file: string,
  plan: Pick<GraphPlan, 'types'>,
  line: (type: number, local: number, id: number) => string,
  progress: (entities: number) => void,
): Promise<void> {
  await writeLines(file, async (sink) => {
    let written = 0;
    for (let t = 0; t < plan.types.length; t++) {
      const { start, count } = plan.types[t]!;
      for (let local = 0; local < count; local++) {
        await sink.write(line(t, local, start + local));
        written++;
        if (written % 10_000 === 0) progress(written);
      }
    }
  });
}
