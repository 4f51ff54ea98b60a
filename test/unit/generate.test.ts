import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { describeSchema, edgeCapacity, generateKnowledgeBase, type GenerateSummary } from '../../lib/ingest/generate';
import { nativeSource } from '../../lib/ingest/readers/native';
import { IngestIssue } from '../../lib/ingest/source';
import { run } from '../../scripts/cli/commands/generate';

const ENTITIES = 2_000;
const EDGES = 30_000;

interface Entity {
  id: string;
  type: string;
  name: string;
  aliases: string[];
  document: Record<string, unknown>;
}

let root: string;
let summary: GenerateSummary;
let progress: { entities: number; edges: number }[];
let entities: Entity[];
let edges: [string, string, string][];
let edgeHeader: string;

const dir = (name: string) => path.join(root, name);
const bytes = (d: string, file: string) => fs.readFileSync(path.join(d, file));

function readEntities(d: string): Entity[] {
  return fs.readFileSync(path.join(d, 'entities.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Entity);
}

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'skb-generate-'));
  progress = [];
  summary = await generateKnowledgeBase({ entities: ENTITIES, edges: EDGES, seed: 7, outDir: dir('a'), onProgress: (w) => progress.push({ ...w }) });
  entities = readEntities(dir('a'));
  const lines = fs.readFileSync(path.join(dir('a'), 'edges.tsv'), 'utf8').split('\n');
  expect(lines.pop()).toBe('');
  edgeHeader = lines.shift()!;
  edges = lines.map((l) => l.split('\t') as [string, string, string]);
});

afterAll(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

describe('generateKnowledgeBase', () => {
  it('writes exactly the requested numbers of entities and edges', () => {
    expect(entities).toHaveLength(ENTITIES);
    expect(edgeHeader).toBe('source\trelation\ttarget');
    expect(edges).toHaveLength(EDGES);
    expect(summary.entities).toBe(ENTITIES);
    expect(summary.edges).toBe(EDGES);
    expect(Object.values(summary.entityTypes).reduce((a, b) => a + b, 0)).toBe(ENTITIES);
    expect(Object.values(summary.relations).reduce((a, b) => a + b, 0)).toBe(EDGES);
    expect(summary.files).toEqual({ entities: path.join(dir('a'), 'entities.jsonl'), edges: path.join(dir('a'), 'edges.tsv') });
    expect(summary.bytes).toBe(fs.statSync(summary.files.entities).size + fs.statSync(summary.files.edges).size);
    expect(summary.seconds).toBeGreaterThanOrEqual(0);
  });

  it('is shaped like STaRK-Prime: 10 entity types with skewed sizes, 18 relations', () => {
    const sizes = Object.values(summary.entityTypes);
    expect(sizes).toHaveLength(10);
    expect(Math.max(...sizes)).toBeGreaterThan(10 * Math.min(...sizes));
    expect(Object.keys(summary.relations)).toHaveLength(18);
    for (const n of Object.values(summary.relations)) expect(n).toBeGreaterThan(0);
    const types = new Map<string, number>();
    for (const e of entities) types.set(e.type, (types.get(e.type) ?? 0) + 1);
    expect(Object.fromEntries(types)).toEqual(summary.entityTypes);
  });

  it('writes entity lines with the native fields, unique ids and names unique per type', () => {
    const ids = new Set<string>();
    const names = new Set<string>();
    for (const e of entities) {
      expect(Object.keys(e)).toEqual(['id', 'type', 'name', 'aliases', 'document']);
      expect(typeof e.id).toBe('string');
      expect(e.name.length).toBeGreaterThan(0);
      expect(Array.isArray(e.aliases) && e.aliases.every((a) => typeof a === 'string')).toBe(true);
      expect(typeof e.document.description).toBe('string');
      expect(Array.isArray(e.document.synonyms)).toBe(true);
      ids.add(e.id);
      names.add(`${e.type}\u0000${e.name}`);
    }
    expect(ids.size).toBe(ENTITIES);
    expect(names.size).toBe(ENTITIES);
  });

  it('writes long, varied documents with text and numeric fields', () => {
    const descriptions = entities.map((e) => e.document.description as string);
    expect(new Set(descriptions).size).toBe(ENTITIES);
    expect(descriptions.every((d) => d.split('. ').length >= 3)).toBe(true);
    expect(entities.every((e) => Object.values(e.document).some((v) => typeof v === 'number'))).toBe(true);
    const long = entities.filter((e) => typeof e.document.full_text === 'string' && (e.document.full_text as string).length >= 2_000);
    expect(long.length).toBeGreaterThan(10);
    expect(long.length).toBeLessThan(ENTITIES / 10);
  });

  it('connects existing entities only, without duplicates or self loops, sorted by source', () => {
    const ids = new Set(entities.map((e) => e.id));
    const seen = new Set<string>();
    let previous = -1;
    const dangling: string[] = [];
    const loops: string[] = [];
    let unsorted = 0;
    for (const [s, r, t] of edges) {
      if (!ids.has(s) || !ids.has(t)) dangling.push(`${s} ${r} ${t}`);
      if (s === t) loops.push(s);
      seen.add(`${s}\t${r}\t${t}`);
      if (Number(s) < previous) unsorted++;
      previous = Number(s);
    }
    expect(dangling).toEqual([]);
    expect(loops).toEqual([]);
    expect(unsorted).toBe(0);
    expect(seen.size).toBe(EDGES);
  });

  it('respects every relation\'s (source type, target type) signature', () => {
    const typeOf = new Map(entities.map((e) => [e.id, e.type]));
    const schema = describeSchema(ENTITIES, { seed: 7 });
    const signature = new Map(schema.relations.map((r) => [r.name, `${r.source} -> ${r.target}`]));
    expect(signature.get('interacts_with')).toBe('gene/protein -> gene/protein');
    expect(signature.get('targets')).toBe('drug -> gene/protein');
    expect(signature.get('indicated_for')).toBe('drug -> disease');
    const observed = new Map<string, Set<string>>();
    for (const [s, r, t] of edges) {
      const pairs = observed.get(r) ?? new Set<string>();
      pairs.add(`${typeOf.get(s)} -> ${typeOf.get(t)}`);
      observed.set(r, pairs);
    }
    expect([...observed.keys()].sort()).toEqual([...signature.keys()].sort());
    for (const [r, pairs] of observed) expect([...pairs]).toEqual([signature.get(r)]);
  });

  it('skews degrees: a few hubs far above the mean', () => {
    const degree = new Map<string, number>();
    for (const [s, , t] of edges) {
      degree.set(s, (degree.get(s) ?? 0) + 1);
      degree.set(t, (degree.get(t) ?? 0) + 1);
    }
    const mean = (2 * EDGES) / ENTITIES;
    const max = Math.max(...degree.values());
    expect(max).toBe(summary.maxDegree);
    expect(max).toBeGreaterThan(10 * mean);
    expect(summary.hubs).toBe(0);
    // The top 1% of entities hold a large share of the edge endpoints.
    const sorted = [...degree.values()].sort((a, b) => b - a);
    const top = sorted.slice(0, ENTITIES / 100).reduce((a, b) => a + b, 0);
    expect(top / (2 * EDGES)).toBeGreaterThan(0.1);
  });

  it('is deterministic for a seed and differs across seeds', async () => {
    await generateKnowledgeBase({ entities: ENTITIES, edges: EDGES, seed: 7, outDir: dir('b') });
    await generateKnowledgeBase({ entities: ENTITIES, edges: EDGES, seed: 8, outDir: dir('c') });
    for (const file of ['entities.jsonl', 'edges.tsv']) {
      expect(bytes(dir('b'), file).equals(bytes(dir('a'), file))).toBe(true);
      expect(bytes(dir('c'), file).equals(bytes(dir('a'), file))).toBe(false);
    }
  });

  it('reports progress and ends with the totals', () => {
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.at(-1)).toEqual({ entities: ENTITIES, edges: EDGES });
    for (let i = 1; i < progress.length; i++) {
      expect(progress[i]!.entities + progress[i]!.edges).toBeGreaterThanOrEqual(progress[i - 1]!.entities + progress[i - 1]!.edges);
    }
  });

  it('calls onProgress about every 100k edges', async () => {
    const calls: number[] = [];
    await generateKnowledgeBase({ entities: 1_000, edges: 250_000, seed: 3, outDir: dir('p'), onProgress: (w) => w.entities === 1_000 && calls.push(w.edges) });
    expect(calls.length).toBeGreaterThanOrEqual(3);
    expect(calls.length).toBeLessThanOrEqual(4);
    expect(calls.at(-1)).toBe(250_000);
  });

  it('is readable by the native reader without issues', async () => {
    const source = nativeSource([summary.files.entities, summary.files.edges]);
    let entityCount = 0;
    let edgeCount = 0;
    const issues: string[] = [];
    for await (const item of source.entities()) {
      if (item instanceof IngestIssue) issues.push(item.toString());
      else entityCount++;
    }
    for await (const item of source.edges()) {
      if (item instanceof IngestIssue) issues.push(item.toString());
      else edgeCount++;
    }
    expect(issues).toEqual([]);
    expect([entityCount, edgeCount]).toEqual([ENTITIES, EDGES]);
  });

  it('fills a small graph to its exact capacity and refuses more', async () => {
    const capacity = edgeCapacity(40);
    const full = await generateKnowledgeBase({ entities: 40, edges: capacity, seed: 5, outDir: dir('full') });
    expect(full.edges).toBe(capacity);
    const lines = fs.readFileSync(full.files.edges, 'utf8').trim().split('\n').slice(1);
    expect(new Set(lines).size).toBe(capacity);
    expect(lines.every((l) => l.split('\t')[0] !== l.split('\t')[2])).toBe(true);

    const near = await generateKnowledgeBase({ entities: 300, edges: edgeCapacity(300) - 17, seed: 5, outDir: dir('near') });
    expect(new Set(fs.readFileSync(near.files.edges, 'utf8').trim().split('\n')).size).toBe(near.edges + 1);

    await expect(generateKnowledgeBase({ entities: 40, edges: capacity + 1, outDir: dir('over') })).rejects.toThrow(/at most/);
  });

  it('honours custom numbers of types and relations', async () => {
    const s = await generateKnowledgeBase({ entities: 500, edges: 4_000, types: 3, relations: 6, seed: 2, outDir: dir('custom') });
    expect(Object.keys(s.entityTypes)).toEqual(['gene/protein', 'disease', 'drug']);
    expect(Object.keys(s.relations)).toHaveLength(6);
    expect(Object.values(s.relations).reduce((a, b) => a + b, 0)).toBe(4_000);
    const more = await generateKnowledgeBase({ entities: 500, edges: 4_000, types: 12, relations: 25, seed: 2, outDir: dir('more') });
    expect(Object.keys(more.entityTypes)).toHaveLength(12);
    expect(Object.keys(more.relations)).toHaveLength(25);
  });
});

describe('skb generate', () => {
  it('rejects bad numbers and unsatisfiable edge counts', async () => {
    await expect(run({ entities: 'abc', edges: 10, out: dir('x') })).rejects.toThrow(/--entities must be a positive integer/);
    await expect(run({ entities: 10, edges: '0', out: dir('x') })).rejects.toThrow(/--edges must be a positive integer/);
    await expect(run({ entities: '1.5', edges: 10, out: dir('x') })).rejects.toThrow(/--entities/);
    await expect(run({ entities: 10, edges: 10, seed: 'x', out: dir('x') })).rejects.toThrow(/--seed/);
    await expect(run({ entities: '20', edges: '1000000', out: dir('x') })).rejects.toThrow(/cannot be satisfied.*at most/);
    expect(fs.existsSync(dir('x'))).toBe(false);
  });

  it('prints the summary as JSON with --json', async () => {
    const out: string[] = [];
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      out.push(String(chunk));
      return true;
    });
    try {
      await run({ entities: '300', edges: '2_000', seed: '4', out: dir('cli'), json: true });
    } finally {
      spy.mockRestore();
    }
    const printed = JSON.parse(out.join('')) as GenerateSummary;
    expect(printed.entities).toBe(300);
    expect(printed.edges).toBe(2_000);
    expect(fs.statSync(path.join(dir('cli'), 'edges.tsv')).size).toBeGreaterThan(0);
  });

  it('prints readable lines otherwise', async () => {
    const out: string[] = [];
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      out.push(String(chunk));
      return true;
    });
    try {
      await run({ entities: 300, edges: 2_000, out: dir('cli-human') });
    } finally {
      spy.mockRestore();
    }
    const text = out.join('');
    expect(text).toMatch(/^Generated 300 entities and 2,000 edges/);
    expect(text).toMatch(/Max degree [\d,]+; 0 hubs with 100,000\+ edges/);
  });
});
