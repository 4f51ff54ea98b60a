import cliProgress from 'cli-progress';
import { edgeCapacity, generateKnowledgeBase, HUB_DEGREE, plannedSize, type GenerateSummary, type Shape } from '../../../lib/ingest/generate';
import { report } from '../output';

/** A count given on the command line: a positive integer, digits optionally grouped with `_` or `,`. */
function count(name: string, value: string | number): number {
  const n = typeof value === 'number' ? value : /^\s*\d[\d_,]*\s*$/.test(value) ? Number(value.replace(/[\s_,]/g, '')) : NaN;
  if (!Number.isSafeInteger(n) || n < 1) throw new Error(`--${name} must be a positive integer, got "${String(value)}"`);
  return n;
}

function seedOf(value: string | number | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = typeof value === 'number' ? value : /^\s*\d+\s*$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`--seed must be a non-negative integer, got "${String(value)}"`);
  return n;
}

function scaleOf(value: string | number | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = typeof value === 'number' ? value : /^\s*(\d+(\.\d*)?|\.\d+)\s*$/.test(value) ? Number(value) : NaN;
  if (!(n > 0) || n > 10) throw new Error(`--scale must be a number above 0 and at most 10, got "${String(value)}"`);
  return n;
}

const fmt = (n: number) => n.toLocaleString('en-US');
const megabytes = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MB`;
/** An entity takes about as long to write as this many edges (Prime; MAG and Amazon documents are longer): weights the progress bar. */
const ENTITY_COST: Record<Shape, number> = { prime: 20, mag: 40, amazon: 400 };

export interface GenerateCliOptions {
  shape?: Shape;
  scale?: string | number;
  entities?: string | number;
  edges?: string | number;
  queries?: string | number;
  out: string;
  seed?: string | number;
  json?: boolean;
}

export async function run(opts: GenerateCliOptions): Promise<void> {
  const shape = opts.shape ?? 'prime';
  const scale = scaleOf(opts.scale);
  const size = plannedSize({
    shape,
    scale,
    entities: opts.entities === undefined ? undefined : count('entities', opts.entities),
    edges: opts.edges === undefined ? undefined : count('edges', opts.edges),
  });
  const { entities, edges } = size;
  const queries = opts.queries === undefined ? 0 : count('queries', opts.queries);
  const seed = seedOf(opts.seed);
  if (typeof opts.out !== 'string' || opts.out.trim() === '') throw new Error('--out must name a directory');
  if (shape === 'prime') {
    const capacity = edgeCapacity(entities, { seed });
    if (edges > capacity) {
      throw new Error(`--edges ${fmt(edges)} cannot be satisfied: ${fmt(entities)} entities hold at most ${fmt(capacity)} distinct edges ` +
        '(no duplicate or self-loop edges); ask for fewer edges or more entities');
    }
  }

  const bar = process.stderr.isTTY && !opts.json
    ? new cliProgress.SingleBar({
        stream: process.stderr,
        format: 'Generating |{bar}| {percentage}% | {entitiesDone} entities, {edgesDone} edges | ETA {eta_formatted}',
        hideCursor: true,
        clearOnComplete: true,
        etaBuffer: 50,
      }, cliProgress.Presets.shades_classic)
    : null;
  const cost = ENTITY_COST[shape];
  bar?.start(entities * cost + edges, 0, { entitiesDone: '0', edgesDone: '0' });
  let summary: GenerateSummary;
  try {
    summary = await generateKnowledgeBase({
      shape,
      entities,
      edges,
      seed,
      queries,
      outDir: opts.out,
      onProgress: (w) => bar?.update(w.entities * cost + w.edges, { entitiesDone: fmt(w.entities), edgesDone: fmt(w.edges) }),
    });
  } finally {
    bar?.stop();
  }

  report(!!opts.json, summary, () => [
    `Generated ${fmt(summary.entities)} entities and ${fmt(summary.edges)} edges in ${summary.seconds.toFixed(1)} s (${megabytes(summary.bytes)}; ${summary.shape} shape, about ${fmt(summary.tokens)} words of text)`,
    `  ${summary.files.entities}`,
    `  ${summary.files.edges}`,
    ...(summary.files.queries ? [`  ${summary.files.queries.csv} (${fmt(summary.queries)} queries; splits in ${summary.files.queries.splits})`] : []),
    `Entity types (${Object.keys(summary.entityTypes).length}): ${Object.entries(summary.entityTypes).map(([t, n]) => `${t} ${fmt(n)}`).join(', ')}`,
    `Relations (${Object.keys(summary.relations).length}): ${Object.entries(summary.relations).map(([r, n]) => `${r} ${fmt(n)}`).join(', ')}`,
    `Max degree ${fmt(summary.maxDegree)}; ${fmt(summary.hubs)} hub${summary.hubs === 1 ? '' : 's'} with ${fmt(HUB_DEGREE)}+ edges`,
  ].join('\n'));
}
