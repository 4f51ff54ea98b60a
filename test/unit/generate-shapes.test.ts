import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { generateKnowledgeBase, PUBLISHED, type GenerateSummary } from '../../lib/ingest/generate';
import { AMAZON_QUERY_PHRASINGS, AMAZON_SPEC } from '../../lib/ingest/generate/amazon';
import { MAG_QUERY_PHRASINGS, MAG_SPEC } from '../../lib/ingest/generate/mag';
import { PRIME_QUERY_PHRASINGS, PRIME_RELATION_PHRASES } from '../../lib/ingest/generate/prime-queries';
import type { ShapeSpec } from '../../lib/ingest/generate/plan';
import { IngestIssue } from '../../lib/ingest/source';
import { cliQueryFiles, readQueryInput } from '../../lib/queries/input';
import type { SourcedQuery } from '../../lib/queries/types';
import { run } from '../../scripts/cli/commands/generate';

interface Entity {
  id: string;
  type: string;
  name: string;
  document: Record<string, unknown>;
}

/** A generated knowledge base read back: entities, typed out- and in-lists, and the query set as `skb queries import` reads it. */
interface Loaded {
  summary: GenerateSummary;
  entities: Map<string, Entity>;
  byName: Map<string, string[]>;
  out: Map<string, Map<string, Set<string>>>;
  inDegree: Map<string, Map<string, number>>;
  queries: SourcedQuery[];
  splits: Map<string, string[]>;
}

let root: string;

async function load(shape: 'prime' | 'mag' | 'amazon', scale: number, queries: number): Promise<Loaded> {
  const summary = await generateKnowledgeBase({ shape, scale, queries, seed: 11, outDir: path.join(root, shape) });
  const entities = new Map<string, Entity>();
  const byName = new Map<string, string[]>();
  for (const line of fs.readFileSync(summary.files.entities, 'utf8').split('\n').filter(Boolean)) {
    const e = JSON.parse(line) as Entity;
    entities.set(e.id, e);
    byName.set(`${e.type}:${e.name}`, [...(byName.get(`${e.type}:${e.name}`) ?? []), e.id]);
  }
  const out = new Map<string, Map<string, Set<string>>>();
  const inDegree = new Map<string, Map<string, number>>();
  const lines = fs.readFileSync(summary.files.edges, 'utf8').split('\n');
  expect(lines.shift()).toBe('source\trelation\ttarget');
  for (const line of lines.filter(Boolean)) {
    const [s, r, t] = line.split('\t') as [string, string, string];
    const rel = out.get(r) ?? out.set(r, new Map()).get(r)!;
    (rel.get(s) ?? rel.set(s, new Set()).get(s)!).add(t);
    const deg = inDegree.get(r) ?? inDegree.set(r, new Map()).get(r)!;
    deg.set(t, (deg.get(t) ?? 0) + 1);
  }
  const input = await readQueryInput('stark', cliQueryFiles('stark', [summary.files.queries!.csv], summary.files.queries!.splits));
  const read: SourcedQuery[] = [];
  const issues: string[] = [];
  for await (const q of input.records) {
    if (q instanceof IngestIssue) issues.push(q.toString());
    else read.push(q);
  }
  expect(issues).toEqual([]);
  return { summary, entities, byName, out, inDegree, queries: read, splits: new Map(input.splits.map((s) => [s.split, s.ids])) };
}

const words = (s: string) => s.split(/\s+/).filter(Boolean).length;
const docWords = (v: unknown): number =>
  typeof v === 'string' ? words(v) : Array.isArray(v) ? v.reduce((n: number, x) => n + docWords(x), 0) : v && typeof v === 'object' ? Object.values(v).reduce((n: number, x) => n + docWords(x), 0) : 0;

/** `{name}` placeholders of a phrasing turned into named groups, so a question gives back the names it was made from. */
function parse(phrasings: Record<string, readonly string[]>, text: string): { template: string; values: Record<string, string> } | null {
  for (const [template, list] of Object.entries(phrasings)) {
    for (const phrasing of list) {
      const pattern = phrasing.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, '(?<$1>.+?)');
      const m = new RegExp(`^${pattern}$`).exec(text);
      if (m) return { template, values: { ...m.groups } };
    }
  }
  return null;
}

const sorted = (ids: Iterable<string>) => [...ids].sort((a, b) => Number(a) - Number(b));

/** The expected in-degree of the most popular targets of a relation at scale 1 (rank r gets (r + q)^-s of its edges). */
function expectedTop(spec: ShapeSpec, relation: string, published: { edges: number }): number[] {
  const r = spec.relations.find((x) => x.name === relation)!;
  const targets = spec.types.find((t) => t.name === r.target)!.share;
  const total = spec.relations.reduce((n, x) => n + x.share, 0);
  let sum = 0;
  for (let i = 0; i < targets; i++) sum += Math.pow(i + 1 + r.zipf.q, -r.zipf.s);
  const edges = (published.edges * r.share) / total;
  return [1, 2, 3, 5, 10, 20].map((rank) => (edges * Math.pow(rank + r.zipf.q, -r.zipf.s)) / sum);
}

function checkCommon(kb: Loaded, shape: 'mag' | 'amazon', scale: number, spec: ShapeSpec, queries: number): void {
  const { summary } = kb;
  expect(summary.shape).toBe(shape);
  expect(summary.entities).toBe(Math.round(PUBLISHED[shape].entities * scale));
  expect(summary.edges).toBe(Math.round((PUBLISHED[shape].edges * summary.entities) / PUBLISHED[shape].entities));
  expect(kb.entities.size).toBe(summary.entities);
  expect(Object.keys(summary.entityTypes)).toEqual(spec.types.map((t) => t.name));
  const shares = spec.types.reduce((n, t) => n + t.share, 0);
  for (const t of spec.types) expect(Math.abs(summary.entityTypes[t.name]! - (t.share / shares) * summary.entities)).toBeLessThanOrEqual(4);
  // Every relation joins the types its signature names, without duplicates or self loops.
  const typeOf = (id: string) => kb.entities.get(id)!.type;
  let edges = 0;
  const wrong: string[] = [];
  for (const r of spec.relations) {
    const lists = kb.out.get(r.name)!;
    for (const [s, targets] of lists) {
      if (typeOf(s) !== r.source || targets.size > (r.maxOut ?? Infinity)) wrong.push(`${s} ${r.name}`);
      for (const t of targets) if (typeOf(t) !== r.target || t === s) wrong.push(`${s} ${r.name} ${t}`);
      edges += targets.size;
    }
    expect(summary.relations[r.name]).toBe([...lists.values()].reduce((n, l) => n + l.size, 0));
  }
  expect(wrong).toEqual([]);
  expect(edges).toBe(summary.edges);
  // Text: the published tokens per entity, counted as words.
  const total = [...kb.entities.values()].reduce((n, e) => n + words(e.name) + docWords(e.document), 0);
  const target = (PUBLISHED[shape].tokens / PUBLISHED[shape].entities) * summary.entities;
  expect(Math.abs(summary.tokens / target - 1)).toBeLessThan(0.05);
  expect(Math.abs(total / summary.tokens - 1)).toBeLessThan(0.02);
  // Queries: as many as asked, split 60/20/20 over ids 0..n-1, answers existing entities, questions of realistic length.
  expect(summary.queries).toBe(queries);
  expect(kb.queries.map((q) => q.id)).toEqual(Array.from({ length: queries }, (_, i) => String(i)));
  expect([...kb.splits.keys()].sort()).toEqual(['test', 'train', 'val']);
  expect(kb.splits.get('train')!.length).toBe(Math.round(queries * 0.6));
  expect(sorted([...kb.splits.values()].flat())).toEqual(kb.queries.map((q) => q.id));
  const lengths = kb.queries.map((q) => words(q.text));
  const mean = lengths.reduce((a, b) => a + b, 0) / lengths.length;
  expect(mean).toBeGreaterThanOrEqual(15);
  expect(mean).toBeLessThanOrEqual(30);
  expect(kb.queries.filter((q) => q.answers.length < 1 || q.answers.length > 20 || q.answers.some((a) => !kb.entities.has(a)))).toEqual([]);
}

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'skb-shapes-'));
});

afterAll(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

describe('MAG shape', () => {
  const SCALE = 0.005;
  const QUERIES = 300;
  let kb: Loaded;
  beforeAll(async () => {
    kb = await load('mag', SCALE, QUERIES);
  });

  it('has the four types and relations at the published proportions, the text and a STaRK query set', () => {
    checkCommon(kb, 'mag', SCALE, MAG_SPEC, QUERIES);
  }, 30_000);

  it('skews citations like a citation graph: a few papers cited far more than the rest, 10,000+ times at scale 1', () => {
    const cited = [...kb.inDegree.get('cites')!.values()].sort((a, b) => b - a);
    const papers = kb.summary.entityTypes.paper!;
    const mean = kb.summary.relations.cites! / papers;
    expect(cited[0]!).toBeGreaterThan(20 * mean);
    const top = cited.slice(0, Math.ceil(papers / 100)).reduce((a, b) => a + b, 0);
    expect(top / kb.summary.relations.cites!).toBeGreaterThan(0.1);
    // Half the papers are cited at most a few times.
    const median = cited[Math.floor(papers / 2)] ?? 0;
    expect(median).toBeLessThan(mean);
    const atScale1 = expectedTop(MAG_SPEC, 'cites', PUBLISHED.mag);
    expect(atScale1[2]!).toBeGreaterThan(10_000);
    expect(atScale1[5]!).toBeLessThan(10_000 * 2);
  });

  it('writes papers with a title, abstracts of varied length (some missing), year and venue; short documents for the rest', () => {
    const papers = [...kb.entities.values()].filter((e) => e.type === 'paper');
    const abstracts = papers.map((p) => (typeof p.document.abstract === 'string' ? words(p.document.abstract) : 0)).sort((a, b) => a - b);
    const missing = abstracts.filter((n) => n === 0).length / papers.length;
    expect(missing).toBeGreaterThan(0.02);
    expect(missing).toBeLessThan(0.12);
    const present = abstracts.filter((n) => n > 0);
    expect(present[Math.floor(present.length * 0.9)]! / present[Math.floor(present.length * 0.1)]!).toBeGreaterThan(2);
    for (const p of papers.slice(0, 200)) {
      expect(words(p.name)).toBeGreaterThanOrEqual(5);
      expect(typeof p.document.year).toBe('number');
      expect(typeof p.document.venue).toBe('string');
    }
    expect([...kb.entities.values()].filter((e) => e.type !== 'paper' && docWords(e.document) + words(e.name) >= 12)).toEqual([]);
  });

  it('answers each question with exactly the papers its description names', () => {
    const one = (type: string, name: string) => kb.byName.get(`${type}:${name}`) ?? [];
    const topic = (paper: string, field: string) => kb.out.get('has_topic')!.get(paper)?.has(field) ?? false;
    const templates = new Set<string>();
    for (const q of kb.queries) {
      const parsed = parse(MAG_QUERY_PHRASINGS, q.text);
      expect(parsed, q.text).not.toBeNull();
      templates.add(parsed!.template);
      const [field] = one('field_of_study', parsed!.values.field!);
      expect(field).toBeDefined();
      const candidates: string[][] = [];
      if (parsed!.template === 'institution') {
        const [institution] = one('institution', parsed!.values.institution!);
        const papers = new Set<string>();
        for (const [author, institutions] of kb.out.get('affiliated_with')!) {
          if (institutions.has(institution!)) for (const p of kb.out.get('writes')!.get(author) ?? []) papers.add(p);
        }
        candidates.push(sorted([...papers].filter((p) => topic(p, field!))));
      } else {
        for (const paper of one('paper', parsed!.values.title!)) {
          const pool = parsed!.template === 'cited'
            ? [...(kb.out.get('cites')!.get(paper) ?? [])]
            : [...kb.out.get('cites')!].filter(([, refs]) => refs.has(paper)).map(([s]) => s);
          candidates.push(sorted(pool.filter((p) => topic(p, field!))));
        }
      }
      expect(candidates.map((c) => c.join(','))).toContain(q.answers.join(','));
    }
    expect([...templates].sort()).toEqual(['cited', 'citing', 'institution']);
  });

  it('gives the same bytes for the same seed', async () => {
    const again = await generateKnowledgeBase({ shape: 'mag', scale: SCALE, queries: QUERIES, seed: 11, outDir: path.join(root, 'mag-again') });
    for (const file of ['entities.jsonl', 'edges.tsv', 'queries/stark_qa.csv', 'queries/split/test.index']) {
      expect(fs.readFileSync(path.join(root, 'mag-again', file)).equals(fs.readFileSync(path.join(root, 'mag', file)))).toBe(true);
    }
    expect(again.tokens).toBe(kb.summary.tokens);
  });
});

describe('Amazon shape', () => {
  const SCALE = 0.005;
  const QUERIES = 200;
  let kb: Loaded;
  beforeAll(async () => {
    kb = await load('amazon', SCALE, QUERIES);
  });

  it('has products, brands, categories and colours with the five relations, the text and a STaRK query set', () => {
    checkCommon(kb, 'amazon', SCALE, AMAZON_SPEC, QUERIES);
  }, 30_000);

  it('writes long product documents (reviews and Q&A) averaging the published tokens, with a long tail', () => {
    const products = [...kb.entities.values()].filter((e) => e.type === 'product');
    const lengths = products.map((p) => words(p.name) + docWords(p.document)).sort((a, b) => a - b);
    const mean = lengths.reduce((a, b) => a + b, 0) / lengths.length;
    const perEntity = kb.summary.tokens / kb.summary.entities;
    expect(perEntity).toBeGreaterThan(540);
    expect(perEntity).toBeLessThan(600);
    expect(lengths[Math.floor(lengths.length / 2)]!).toBeLessThan(mean);
    expect(lengths.at(-1)!).toBeGreaterThan(10 * mean);
    expect(products.filter((p) => Array.isArray(p.document.reviews) && (p.document.reviews as unknown[]).length > 0).length).toBeGreaterThan(products.length / 2);
    expect(products.some((p) => Array.isArray(p.document.qa) && (p.document.qa as unknown[]).length > 0)).toBe(true);
  });

  it('skews popularity: a few products bought with many others; the largest categories would hold 100,000+ products at scale 1', () => {
    const bought = [...kb.inDegree.get('also_buy')!.values()].sort((a, b) => b - a);
    const products = kb.summary.entityTypes.product!;
    expect(bought[0]!).toBeGreaterThan((20 * kb.summary.relations.also_buy!) / products);
    const sizes = [...kb.inDegree.get('has_category')!.values()].sort((a, b) => b - a);
    expect(sizes[0]! / products).toBeGreaterThan(0.1);
    expect(sizes[0]!).toBeGreaterThan(1.5 * sizes[Math.floor(sizes.length / 2)]!);
    expect(expectedTop(AMAZON_SPEC, 'has_category', PUBLISHED.amazon)[0]!).toBeGreaterThan(100_000);
  });

  it('answers each question with exactly the products its description names', () => {
    const one = (type: string, name: string) => kb.byName.get(`${type}:${name}`) ?? [];
    const has = (relation: string, s: string, t: string) => kb.out.get(relation)!.get(s)?.has(t) ?? false;
    const templates = new Set<string>();
    for (const q of kb.queries) {
      const parsed = parse(AMAZON_QUERY_PHRASINGS, q.text);
      expect(parsed, q.text).not.toBeNull();
      const { template, values } = parsed!;
      templates.add(template);
      const candidates: string[][] = [];
      if (template === 'brandCategory' || template === 'brandColor') {
        const [brand] = one('brand', values.brand!);
        const [other, relation] = template === 'brandCategory' ? [one('category', values.category!)[0], 'has_category'] : [one('color', values.color!)[0], 'has_color'];
        candidates.push(sorted([...kb.out.get('has_brand')!].filter(([p, b]) => b.has(brand!) && has(relation, p, other!)).map(([p]) => p)));
      } else {
        const [other, relation] = template === 'alsoBought' ? [one('category', values.category!)[0], 'has_category'] : [one('brand', values.brand!)[0], 'has_brand'];
        for (const product of one('product', values.title!)) {
          const pool = kb.out.get(template === 'alsoBought' ? 'also_buy' : 'also_view')!.get(product) ?? new Set<string>();
          candidates.push(sorted([...pool].filter((p) => has(relation, p, other!))));
        }
      }
      expect(candidates.map((c) => c.join(','))).toContain(q.answers.join(','));
    }
    expect([...templates].sort()).toEqual(['alsoBought', 'alsoViewed', 'brandCategory', 'brandColor']);
  });
});

describe('Prime shape with queries', () => {
  it('asks for the sources of two relations with named targets, answered from the graph; the graph is the same bytes as without queries', async () => {
    const kb = await load('prime', 0.05, 150);
    expect(kb.queries).toHaveLength(150);
    const alternatives = (words: string[]) => words.map((w) => w.replace(/[.*+?^$()|[\]\\{}]/g, '\\$&')).join('|');
    const phrases = Object.entries(PRIME_RELATION_PHRASES);
    const relationOf = new Map(phrases.map(([r, p]) => [p, r]));
    const typeOfRelation = new Map<string, [string, string]>();
    for (const [r, lists] of kb.out) {
      const [s, targets] = lists.entries().next().value!;
      typeOfRelation.set(r, [kb.entities.get(s)!.type, kb.entities.get([...targets][0]!)!.type]);
    }
    for (const q of kb.queries) {
      const m = PRIME_QUERY_PHRASINGS.map((p) => new RegExp(`^${p.replace(/[.?;]/g, '\\$&')
        .replace('{nouns}', '(?<nouns>.+?)')
        .replace('{first}', `(?<first>${alternatives(phrases.map(([, p]) => p))})`)
        .replace('{second}', `(?<second>${alternatives(phrases.map(([, p]) => p))})`)
        .replace('{x}', '(?<x>.+?)').replace('{y}', '(?<y>.+?)')}$`).exec(q.text)).find(Boolean);
      expect(m, q.text).toBeDefined();
      const [a, b] = [relationOf.get(m!.groups!.first!)!, relationOf.get(m!.groups!.second!)!];
      const [x] = kb.byName.get(`${typeOfRelation.get(a)![1]}:${m!.groups!.x}`)!;
      const [y] = kb.byName.get(`${typeOfRelation.get(b)![1]}:${m!.groups!.y}`)!;
      const expected = sorted([...kb.out.get(a)!].filter(([s, t]) => t.has(x!) && kb.out.get(b)!.get(s)?.has(y!)).map(([s]) => s));
      expect(q.answers).toEqual(expected);
    }
    const plain = await generateKnowledgeBase({ shape: 'prime', scale: 0.05, seed: 11, outDir: path.join(root, 'prime-plain') });
    for (const file of ['entities.jsonl', 'edges.tsv']) {
      expect(fs.readFileSync(path.join(root, 'prime-plain', file)).equals(fs.readFileSync(path.join(root, 'prime', file)))).toBe(true);
    }
    expect(plain.files.queries).toBeUndefined();
  }, 60_000);
});

describe('shape options', () => {
  it('takes explicit sizes for a shape and refuses prime-only options or unplaceable edges', async () => {
    const s = await generateKnowledgeBase({ shape: 'mag', entities: 400, edges: 3_000, outDir: path.join(root, 'explicit') });
    expect([s.entities, s.edges]).toEqual([400, 3_000]);
    expect(s.files.queries).toBeUndefined();
    await expect(generateKnowledgeBase({ shape: 'amazon', entities: 100, types: 3, outDir: path.join(root, 'x') })).rejects.toThrow(/prime shape only/);
    await expect(generateKnowledgeBase({ shape: 'mag', entities: 8, edges: 1_000, outDir: path.join(root, 'x') })).rejects.toThrow(/at most \d+ distinct edges/);
    await expect(generateKnowledgeBase({ shape: 'mag', scale: 0, outDir: path.join(root, 'x') })).rejects.toThrow(/scale/);
  });
});

describe('skb generate --shape', () => {
  it('checks --scale and --queries and writes the query files it reports', async () => {
    await expect(run({ shape: 'mag', scale: 'abc', out: path.join(root, 'cli-x') })).rejects.toThrow(/--scale must be a number/);
    await expect(run({ shape: 'mag', scale: '0.001', queries: '-3', out: path.join(root, 'cli-x') })).rejects.toThrow(/--queries must be a positive integer/);
    await expect(run({ entities: 300, edges: 2_000, queries: '1.5', out: path.join(root, 'cli-x') })).rejects.toThrow(/--queries/);
    expect(fs.existsSync(path.join(root, 'cli-x'))).toBe(false);
    const out: string[] = [];
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      out.push(String(chunk));
      return true;
    });
    try {
      await run({ shape: 'amazon', scale: '0.001', queries: '20', out: path.join(root, 'cli-amazon'), json: true });
    } finally {
      spy.mockRestore();
    }
    const printed = JSON.parse(out.join('')) as GenerateSummary;
    expect(printed.shape).toBe('amazon');
    expect(printed.entities).toBe(Math.round(PUBLISHED.amazon.entities * 0.001));
    expect(printed.queries).toBe(20);
    expect(fs.readFileSync(printed.files.queries!.csv, 'utf8').split('\n')[0]).toBe('id,query,answer_ids');
    expect(fs.readdirSync(printed.files.queries!.splits).sort()).toEqual(['test.index', 'train.index', 'val.index']);
  });
});
