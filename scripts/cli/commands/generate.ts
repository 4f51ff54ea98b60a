import cliProgress from 'cli-progress';
import { edgeCapacity, generateKnowledgeBase, HUB_DEGREE, type GenerateSummary } from '../../../lib/ingest/generate';
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

const fmt = (n: number) => n.toLocaleString('en-US');
const megabytes = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MB`;
/** An entity takes about as long to write as this many edges: weights the progress bar. */
const ENTITY_COST = 20;

export async function run(opts: { entities: string | number; edges: string | number; out: string; seed?: string | number; json?: boolean }): Promise<void> {
  const entities = count('entities', opts.entities);
  const edges = count('edges', opts.edges);
  const seed = seedOf(opts.seed);
  if (typeof opts.out !== 'string' || opts.out.trim() === '') throw new Error('--out must name a directory');
  const capacity = edgeCapacity(entities, { seed });
  if (edges > capacity) {
    throw new Error(`--edges ${fmt(edges)} cannot be satisfied: ${fmt(entities)} entities hold at most ${fmt(capacity)} distinct edges ` +
      '(no duplicate or self-loop edges); ask for fewer edges or more entities');
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
  bar?.start(entities * ENTITY_COST + edges, 0, { entitiesDone: '0', edgesDone: '0' });
  let summary: GenerateSummary;
  try {
    summary = await generateKnowledgeBase({
      entities,
      edges,
      seed,
      outDir: opts.out,
      onProgress: (w) => bar?.update(w.entities * ENTITY_COST + w.edges, { entitiesDone: fmt(w.entities), edgesDone: fmt(w.edges) }),
    });
  } finally {
    bar?.stop();
  }

  report(!!opts.json, summary, () => [
    `Generated ${fmt(summary.entities)} entities and ${fmt(summary.edges)} edges in ${summary.seconds.toFixed(1)} s (${megabytes(summary.bytes)})`,
    `  ${summary.files.entities}`,
    `  ${summary.files.edges}`,
    `Entity types (${Object.keys(summary.entityTypes).length}): ${Object.entries(summary.entityTypes).map(([t, n]) => `${t} ${fmt(n)}`).join(', ')}`,
    `Relations (${Object.keys(summary.relations).length}): ${Object.entries(summary.relations).map(([r, n]) => `${r} ${fmt(n)}`).join(', ')}`,
    `Max degree ${fmt(summary.maxDegree)}; ${fmt(summary.hubs)} hub${summary.hubs === 1 ? '' : 's'} with ${fmt(HUB_DEGREE)}+ edges`,
  ].join('\n'));
}
