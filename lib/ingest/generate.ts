import fs from 'node:fs';
import path from 'node:path';
import { generateAmazon } from './generate/amazon';
import { generateMag } from './generate/mag';
import { generatePrime, PRIME_RELATION_COUNT, PRIME_TYPE_COUNT } from './generate/prime';
import { PUBLISHED, SHAPES, type Shape } from './generate/published';
import { round } from './generate/random';
import { DEFAULT_SEED, type ShapeRun } from './generate/shape';

/**
 * A synthetic knowledge base in the native format (entities.jsonl + edges.tsv), shaped like one of
 * STaRK's three: Prime (the default), MAG or Amazon. Sizes are the published ones times `scale`, or
 * exactly `entities`/`edges`. Everything is invented; the same seed yields the same bytes. Edges are
 * written source by source (lib/ingest/generate/graph.ts), so memory grows with the entities only.
 * With `queries`, a STaRK-format query set whose answers come from the generated graph is written too.
 */

export { PUBLISHED, SHAPES, type Shape };

export interface GenerateOptions {
  /** Default 'prime'. */
  shape?: Shape;
  /** Multiplies the published sizes (default 1); ignored for a size given explicitly. */
  scale?: number;
  entities?: number;
  /** Default: the shape's published edges per entity times `entities`. */
  edges?: number;
  seed?: number;
  /** Prime only: entity types (default 10): the built-in ones first, then generic `entity_type_N`. */
  types?: number;
  /** Prime only: relations (default 18): the built-in ones whose types exist, then generic `relation_N`. */
  relations?: number;
  outDir: string;
  /** Called every ~10k entities while writing entities and every ~100k edges, and once at the end. */
  onProgress?: (written: { entities: number; edges: number }) => void;
  /** Also write this many queries as a STaRK QA CSV with split files (default 0). */
  queries?: number;
}

export interface GenerateSummary {
  shape: Shape;
  entities: number;
  edges: number;
  entityTypes: Record<string, number>;
  relations: Record<string, number>;
  maxDegree: number;
  hubs: number /* entities with >= 100k edges */;
  /** Approximate number of words in all names and documents (STaRK counts "tokens" of text). */
  tokens: number;
  /** `queries`: the STaRK QA CSV and the folder of its split files (train/val/test.index). */
  files: { entities: string; edges: string; queries?: { csv: string; splits: string } };
  /** Queries written (0 without `queries`). */
  queries: number;
  bytes: number;
  seconds: number;
  /**
   * Edge targets the skewed draw could not place within its retry budget (repeats), placed by a
   * uniform fallback instead. Informational: the requested total is always reached.
   */
  fallbackDraws: number;
}

export { DEFAULT_SEED };
export { HUB_DEGREE } from './generate/graph';
export { describeSchema, edgeCapacity } from './generate/prime';

const MAX_ENTITIES = 50_000_000;
const MAX_TYPES = 1000;
const MAX_RELATIONS = 1000;
const MAX_SCALE = 10;
const MAX_QUERIES = 1_000_000;

function positiveInt(name: string, value: unknown, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${name} must be an integer from ${min} to ${max}, got ${String(value)}`);
  }
  return value;
}

/** The entities and edges a run writes: explicit sizes win, else the published ones times the scale. */
export function plannedSize(opts: Pick<GenerateOptions, 'shape' | 'scale' | 'entities' | 'edges'>): { entities: number; edges: number } {
  const published = PUBLISHED[opts.shape ?? 'prime'];
  const scale = opts.scale ?? 1;
  if (typeof scale !== 'number' || !(scale > 0) || scale > MAX_SCALE) throw new Error(`scale must be a number above 0 and at most ${MAX_SCALE}, got ${String(scale)}`);
  const entities = opts.entities ?? Math.max(1, Math.round(published.entities * scale));
  const edges = opts.edges ?? Math.round((published.edges * entities) / published.entities);
  return { entities, edges };
}

export async function generateKnowledgeBase(opts: GenerateOptions): Promise<GenerateSummary> {
  const began = performance.now();
  const shape = opts.shape ?? 'prime';
  if (!SHAPES.includes(shape)) throw new Error(`shape must be one of ${SHAPES.join(', ')}, got ${String(shape)}`);
  const size = plannedSize(opts);
  const entities = positiveInt('entities', size.entities, 1, MAX_ENTITIES);
  const edges = positiveInt('edges', size.edges, 0, Number.MAX_SAFE_INTEGER);
  const queries = positiveInt('queries', opts.queries ?? 0, 0, MAX_QUERIES);
  const seed = opts.seed ?? DEFAULT_SEED;
  if (!Number.isSafeInteger(seed)) throw new Error(`seed must be an integer, got ${String(seed)}`);
  if (shape !== 'prime' && (opts.types !== undefined || opts.relations !== undefined)) {
    throw new Error(`types and relations apply to the prime shape only; ${shape} has its own schema`);
  }

  fs.mkdirSync(opts.outDir, { recursive: true });
  const files = { entities: path.resolve(opts.outDir, 'entities.jsonl'), edges: path.resolve(opts.outDir, 'edges.tsv') };
  const progress = opts.onProgress ?? (() => {});
  const run: ShapeRun = { entities, edges, seed, outDir: path.resolve(opts.outDir), files, progress, queries };
  const out = shape === 'mag'
    ? await generateMag(run)
    : shape === 'amazon'
      ? await generateAmazon(run)
      : await generatePrime({
          ...run,
          types: positiveInt('types', opts.types ?? PRIME_TYPE_COUNT, 1, MAX_TYPES),
          relations: positiveInt('relations', opts.relations ?? PRIME_RELATION_COUNT, 1, MAX_RELATIONS),
        });
  progress({ entities, edges: out.edges });

  let bytes = fs.statSync(files.entities).size + fs.statSync(files.edges).size;
  if (out.queries) bytes += fs.statSync(out.queries.csv).size;
  return {
    shape,
    entities,
    edges: out.edges,
    entityTypes: out.entityTypes,
    relations: out.relations,
    maxDegree: out.maxDegree,
    hubs: out.hubs,
    tokens: out.tokens,
    files: out.queries ? { ...files, queries: { csv: out.queries.csv, splits: out.queries.splits } } : files,
    queries: out.queries?.count ?? 0,
    bytes,
    seconds: round((performance.now() - began) / 1000, 2),
    fallbackDraws: out.fallbackDraws,
  };
}
