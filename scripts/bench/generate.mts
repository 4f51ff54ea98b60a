// Generator benchmark and text statistics: generates a knowledge base of a shape at a scale, then reads it
// back and prints what the docs compare with STaRK's published statistics.
//
//   npx tsx scripts/bench/generate.mts --shape mag|amazon|prime [--scale 1] [--queries N] [--dir /tmp/skb-generate]
//
// Reports: wall time, peak resident memory of the generation (before the read-back), bytes written; words of
// text (the summary's count), words per document by type (mean, median, p90, p99, max); vocabulary (distinct
// lower-cased words) at 1M, 10M, 100M words and in all, the most frequent word's share; per relation, the
// largest in-degrees and how many targets reach 10,000.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { parseArgs } from 'node:util';
import { generateKnowledgeBase, SHAPES, type Shape } from '../../lib/ingest/generate';

const { values } = parseArgs({
  options: {
    shape: { type: 'string', default: 'mag' },
    scale: { type: 'string', default: '1' },
    queries: { type: 'string', default: '0' },
    dir: { type: 'string', default: path.join(os.tmpdir(), 'skb-generate') },
  },
});
const shape = values.shape as Shape;
if (!SHAPES.includes(shape)) throw new Error(`--shape: one of ${SHAPES.join(', ')}`);
const scale = Number(values.scale);
const outDir = path.join(values.dir, `${shape}-${scale}`);

const loadBefore = fs.readFileSync('/proc/loadavg', 'utf8').trim();
const began = performance.now();
const summary = await generateKnowledgeBase({ shape, scale, queries: Number(values.queries), outDir });
const seconds = (performance.now() - began) / 1000;
const peakMb = process.resourceUsage().maxRSS / 1024;
console.log(`${shape} scale ${scale}: ${summary.entities.toLocaleString('en')} entities, ${summary.edges.toLocaleString('en')} edges, ${summary.queries} queries`);
console.log(`  ${seconds.toFixed(1)} s, peak RSS ${peakMb.toFixed(0)} MB, ${(summary.bytes / 1e9).toFixed(2)} GB, load before ${loadBefore}, after ${fs.readFileSync('/proc/loadavg', 'utf8').trim()}`);
console.log(`  ${summary.tokens.toLocaleString('en')} words of text (${(summary.tokens / summary.entities).toFixed(1)} per entity); max degree ${summary.maxDegree.toLocaleString('en')}, ${summary.hubs} hubs`);

// Text: words per document by type, vocabulary growth.
const wordsOf = (v: unknown, out: string[]): void => {
  if (typeof v === 'string') out.push(...v.toLowerCase().split(/[^a-z0-9]+/).filter(Boolean));
  else if (Array.isArray(v)) for (const x of v) wordsOf(x, out);
  else if (v && typeof v === 'object') for (const x of Object.values(v)) wordsOf(x, out);
};
const lengths = new Map<string, number[]>();
const vocabulary = new Map<string, number>();
let seen = 0;
const checkpoints = [1e6, 1e7, 1e8];
const growth: string[] = [];
const lines = readline.createInterface({ input: fs.createReadStream(summary.files.entities), crlfDelay: Infinity });
for await (const line of lines) {
  const e = JSON.parse(line) as { type: string; name: string; document: unknown };
  const words: string[] = [];
  wordsOf([e.name, e.document], words);
  (lengths.get(e.type) ?? lengths.set(e.type, []).get(e.type)!).push(words.length);
  for (const w of words) {
    vocabulary.set(w, (vocabulary.get(w) ?? 0) + 1);
    if (++seen === checkpoints[0]) growth.push(`${checkpoints.shift()!.toExponential(0)} words: ${vocabulary.size.toLocaleString('en')}`);
  }
}
for (const [type, list] of lengths) {
  list.sort((a, b) => a - b);
  const q = (p: number) => list[Math.min(list.length - 1, Math.floor(p * list.length))]!;
  const mean = list.reduce((a, b) => a + b, 0) / list.length;
  console.log(`  ${type.padEnd(15)} words per document: mean ${mean.toFixed(1)}, median ${q(0.5)}, p90 ${q(0.9)}, p99 ${q(0.99)}, max ${list.at(-1)}`);
}
const top = [...vocabulary.entries()].sort((a, b) => b[1] - a[1]).slice(0, 5);
console.log(`  vocabulary ${vocabulary.size.toLocaleString('en')} distinct words in ${seen.toLocaleString('en')} (${growth.join('; ')}); top: ${top.map(([w, n]) => `${w} ${((100 * n) / seen).toFixed(1)}%`).join(', ')}`);

// Degrees: in-degree per relation.
const inDegree = new Map<string, Int32Array>();
const edges = readline.createInterface({ input: fs.createReadStream(summary.files.edges), crlfDelay: Infinity });
let header = true;
for await (const line of edges) {
  if (header) {
    header = false;
    continue;
  }
  const first = line.indexOf('\t');
  const second = line.indexOf('\t', first + 1);
  const relation = line.slice(first + 1, second);
  const counts = inDegree.get(relation) ?? inDegree.set(relation, new Int32Array(summary.entities)).get(relation)!;
  counts[Number(line.slice(second + 1))]!++;
}
for (const [relation, counts] of inDegree) {
  const sorted = Int32Array.from(counts).sort().reverse();
  const over = sorted.findIndex((d) => d < 10_000);
  console.log(`  ${relation.padEnd(15)} largest in-degrees ${Array.from(sorted.subarray(0, 5)).map((d) => d.toLocaleString('en')).join(', ')}; ${over < 0 ? sorted.length : over} at 10,000+`);
}
