import { allocate } from './allocate';
import { targetSampler, type GraphPlan } from './graph';
import { logNormal, stream } from './random';

/** A shape's schema: relative type sizes and, per relation, its share of the edges and how its degrees spread. */
export interface ShapeSpec {
  types: readonly { name: string; share: number }[];
  relations: readonly {
    name: string;
    source: string;
    target: string;
    share: number;
    /** Spread (log-normal sigma) of the sources' out-degrees. */
    sigma: number;
    /** Most targets one source may have (e.g. one brand per product). */
    maxOut?: number;
    /** Target popularity: Zipf-Mandelbrot (rank + q)^-s; s = 0 is uniform. */
    zipf: { s: number; q: number };
  }[];
}

/**
 * Sizes every type and relation for `entities` and `edges` (types in proportion to their shares, at
 * least one entity each when there are enough; relations likewise, none above its capacity) and draws
 * each source's out-degree and each relation's target popularity order.
 */
export function planGraph(spec: ShapeSpec, entities: number, edges: number, seed: number): GraphPlan {
  const n = spec.types.length;
  // In proportion (so scale 1 gives the published sizes exactly), then at least one entity per type
  // when there are enough, taken from the largest.
  const counts = allocate(entities, spec.types.map((t) => t.share), spec.types.map(() => Infinity));
  for (let i = 0; i < Math.min(n, entities); i++) {
    if (counts[i]! > 0) continue;
    const largest = counts.indexOf(Math.max(...counts));
    counts[largest]! -= 1;
    counts[i] = 1;
  }
  const types: GraphPlan['types'] = [];
  let at = 0;
  spec.types.forEach((t, i) => {
    types.push({ name: t.name, count: counts[i]!, start: at });
    at += counts[i]!;
  });
  const index = new Map(spec.types.map((t, i) => [t.name, i]));
  const relations = spec.relations.map((r) => ({ ...r, source: index.get(r.source)!, target: index.get(r.target)! }));
  const perSource = relations.map((r) => Math.min(r.maxOut ?? Infinity, counts[r.target]! - (r.source === r.target ? 1 : 0)));
  const capacity = relations.map((r, i) => counts[r.source]! * Math.max(0, perSource[i]!));
  const fit = capacity.reduce((a, b) => a + b, 0);
  if (edges > fit) {
    throw new Error(`${edges} edges cannot be generated over ${entities} entities in this shape: at most ${fit} distinct edges fit (no duplicates, no self loops)`);
  }
  const perRelation = allocate(edges, relations.map((r) => r.share), capacity);

  const degreeRng = stream(seed, 'degrees');
  const outDegrees = relations.map((r, ri) => {
    const sources = counts[r.source]!;
    const weights = new Float64Array(sources);
    for (let i = 0; i < sources; i++) weights[i] = logNormal(degreeRng, 1, r.sigma);
    return Int32Array.from(allocate(perRelation[ri]!, weights, new Float64Array(sources).fill(Math.max(0, perSource[ri]!))));
  });
  const samplerRng = stream(seed, 'popularity');
  const samplers = relations.map((r) => (counts[r.target]! > 0 ? targetSampler(types[r.target]!.start, counts[r.target]!, samplerRng, r.zipf.s, r.zipf.q) : undefined));
  return { types, relations: relations.map(({ name, source, target }) => ({ name, source, target })), outDegrees, samplers };
}

/** Per source (by local index), where its out-list of `relation` starts in a flat array of targets (the last entry is the total). */
export function outListOffsets(plan: GraphPlan, relation: number): Int32Array {
  const degrees = plan.outDegrees[relation]!;
  const offsets = new Int32Array(degrees.length + 1);
  for (let i = 0; i < degrees.length; i++) offsets[i + 1] = offsets[i]! + degrees[i]!;
  return offsets;
}
