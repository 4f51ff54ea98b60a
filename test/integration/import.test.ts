import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importKnowledgeBase } from '../../lib/ingest/importer';
import { ImportAborted } from '../../lib/ingest/issues';
import { vectorStreams } from '../../lib/ingest/row-writer';
import { requestCancel } from '../../lib/ingest/jobs';
import { textGraphSource } from '../../lib/ingest/readers/text-graph';
import type { KnowledgeSource } from '../../lib/ingest/source';
import { kbIdBySlug } from '../../lib/kb/access';
import { kbStatistics } from '../../lib/kb/stats';
import { MATCH_END, MATCH_START, searchEntities } from '../../lib/kb/search';
import { directNeighbourhood } from '../../lib/kb/neighbourhood';
import { db, openAppDatabase, pool } from '../support/app-database';
import type { TestDatabase } from '../support/test-database';
import { runSkb } from '../support/run-skb';

const DATA = path.resolve(process.cwd(), '..', 'shared', 'data', 'primekg-ibd');

function lines(): string[] {
  return fs.readFileSync(path.join(DATA, 'nodes.jsonl'), 'utf8').split('\n').filter(Boolean);
}

function requireData(): void {
  if (!fs.existsSync(path.join(DATA, 'nodes.jsonl'))) throw new Error(`Real test data missing: ${DATA} (the shared data folder must sit beside the checkout)`);
}

async function stagingTables(): Promise<string[]> {
  const { rows } = await pool().query(`SELECT relname FROM pg_class WHERE relname ~ '^(entity|edge|entity_search|entity_vector)_load_' AND relkind = 'r'`);
  return rows.map((r) => r.relname);
}

/** A digest of a knowledge base's stored entities and search rows, vectors included, and how many vectors are empty. */
async function storedRows(slug: string): Promise<{ h: string; empty: number }> {
  const kbId = await kbIdBySlug(pool(), slug);
  const { rows } = await pool().query(
    `SELECT md5(string_agg(e.external_id || e.name || e.document::text || e.text || e.degree || array_to_string(e.aliases, '|')
                           || s.search::text || s.name_search::text || s.degree, ',' ORDER BY e.external_id)) AS h,
            count(*) FILTER (WHERE s.search = ''::tsvector)::int AS empty
       FROM entity e JOIN entity_search s ON s.kb_id = e.kb_id AND s.id = e.id WHERE e.kb_id = $1`, [kbId]);
  return rows[0] as { h: string; empty: number };
}

describe('importing knowledge bases', () => {
  let testDb: TestDatabase;
  beforeAll(async () => {
    requireData();
    testDb = await openAppDatabase();
  });
  afterAll(async () => {
    await testDb.drop();
  });

  it('imports the PrimeKG IBD text graph with the published counts, statistics and documents', async () => {
    const files = [path.join(DATA, 'nodes.jsonl'), path.join(DATA, 'edges.csv')];
    const summary = await importKnowledgeBase(pool(), textGraphSource(files), { slug: 'ibd', format: 'text-graph', files });
    expect(summary).toMatchObject({ entities: 3426, edges: 12752, duplicateEdges: 0, errors: [] });
    expect(summary.entityTypes).toEqual({ biological_process: 1642, cellular_component: 207, disease: 7, drug: 835, 'gene/protein': 103, molecular_function: 324, pathway: 308 });
    expect(summary.relations).toEqual({ 'associated with': 620, carrier: 8, enzyme: 64, 'interacts with': 10144, target: 776, transporter: 1140 });

    const kbId = await kbIdBySlug(pool(), 'ibd');
    const stats = await kbStatistics(pool(), kbId);
    expect(stats.triples.reduce((s, t) => s + t.count, 0)).toBe(12752);
    expect(stats.degreeHistogram.reduce((s, b) => s + b.count, 0)).toBe(3426);
    for (const b of stats.degreeHistogram) expect(b.min === 0 ? b.max === 0 : b.max === 2 * b.min - 1).toBe(true);
    expect(stats.hubs[0]!.degree).toBeGreaterThanOrEqual(stats.hubs[1]!.degree);

    // Degrees and neighbourhoods agree with a direct count from the edge file.
    const crohn = await db().entity.findUniqueOrThrow({ where: { kbId_externalId: { kbId, externalId: '37784' } } });
    const lines = fs.readFileSync(path.join(DATA, 'edges.csv'), 'utf8').split('\n').slice(1).filter(Boolean);
    const touching = lines.filter((l) => l.includes('_(37784)')).length;
    expect(crohn.degree).toBe(touching);
    expect(crohn.name).toBe('Crohn disease');
    expect((crohn.document as { description: string }).description).toMatch(/^Crohn disease belongs to disease category\./);
    // PrimeKG stores every edge both ways: the neighbourhood draws or counts each distinct neighbour once.
    const others = new Set(lines.map((l) => l.split(',')).flatMap(([head, , , , tail]) =>
      head === tail ? [] : head!.endsWith('_(37784)') ? [tail] : tail!.endsWith('_(37784)') ? [head] : []));
    expect(others.size).toBe(crohn.degree / 2);
    const hood = await directNeighbourhood(pool(), kbId, crohn.id, 500);
    expect(hood.neighbours).toBe(others.size);
    expect(hood.nodes.length + hood.stubs.reduce((s, x) => s + x.hidden, 0)).toBe(others.size);
  });

  it("gives every partition the parent table's indexes, built under the import's names and attached", async () => {
    const kbId = await kbIdBySlug(pool(), 'ibd');
    const indexes = async (table: string) => (await pool().query<{ name: string; attached: boolean }>(
      `SELECT c.relname AS name, EXISTS (SELECT 1 FROM pg_inherits h WHERE h.inhrelid = i.indexrelid) AS attached
         FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE i.indrelid = $1::regclass ORDER BY 1`,
      [table],
    )).rows;
    for (const parent of ['entity', 'edge', 'entity_search']) {
      const partition = await indexes(`${parent}_kb_${kbId}`);
      expect(partition.length).toBe((await indexes(parent)).length);
      expect(partition.every((i) => i.attached)).toBe(true);
    }
    // An index the import did not build would have been built by ATTACH, under a name of PostgreSQL's choosing.
    const suffixes = ['external_id', 'name_lower', 'name_trgm', 'pkey', 'type_degree', 'type_id', 'type_name'];
    expect((await indexes(`entity_kb_${kbId}`)).map((i) => i.name)).toEqual(suffixes.map((s) => `entity_kb_${kbId}_${s}`));
    const searchSuffixes = ['name_search', 'pkey', 'search', 'type_degree'];
    expect((await indexes(`entity_search_kb_${kbId}`)).map((i) => i.name)).toEqual(searchSuffixes.map((s) => `entity_search_kb_${kbId}_${s}`));
  });

  it('finds entities by search, with marked snippets, type filters and paging', async () => {
    const kbId = await kbIdBySlug(pool(), 'ibd');
    const crohn = await searchEntities(pool(), kbId, { query: 'Crohn', limit: 5, offset: 0 });
    // Ranked by BM25 over the whole text: shorter documents that repeat the word come before the disease itself.
    const disease = crohn.hits.find((h) => h.externalId === '37784');
    expect(disease).toMatchObject({ name: 'Crohn disease', type: 'disease' });
    expect(disease!.snippet).toContain(`${MATCH_START}Crohn${MATCH_END}`);
    // Every entity named after Crohn is found.
    const named = lines().filter((l) => /crohn/i.test((JSON.parse(l) as { node_name: string }).node_name)).length;
    expect(named).toBeGreaterThan(0);
    expect(crohn.total).toBeGreaterThanOrEqual(named);

    const drugs = await searchEntities(pool(), kbId, { query: 'inflammation', types: ['drug'], limit: 100, offset: 0 });
    expect(drugs.total).toBeGreaterThan(0);
    expect(drugs.hits.every((h) => h.type === 'drug')).toBe(true);
    const all = await searchEntities(pool(), kbId, { query: 'inflammation', limit: 100, offset: 0 });
    expect(all.total).toBeGreaterThan(drugs.total);

    const page1 = await searchEntities(pool(), kbId, { query: 'inflammation', limit: 3, offset: 0 });
    const page2 = await searchEntities(pool(), kbId, { query: 'inflammation', limit: 3, offset: 3 });
    expect([...page1.hits, ...page2.hits].map((h) => h.id)).toEqual(all.hits.slice(0, 6).map((h) => h.id));
    expect(page2.total).toBe(all.total);

    const phrase = await searchEntities(pool(), kbId, { query: '"bowel disease" -crohn', limit: 100, offset: 0 });
    expect(phrase.hits.some((h) => /crohn/i.test(h.name))).toBe(false);
    expect((await searchEntities(pool(), kbId, { query: 'zzzqqqxxy', limit: 10, offset: 0 })).total).toBe(0);
  });

  it('loads the same rows with batched unnest inserts as with COPY, search vectors included', async () => {
    const files = [path.join(DATA, 'nodes.jsonl'), path.join(DATA, 'edges.csv')];
    const summary = await importKnowledgeBase(pool(), textGraphSource(files), { slug: 'ibd-unnest', format: 'text-graph', files, method: 'unnest' });
    expect(summary).toMatchObject({ method: 'unnest', entities: 3426, edges: 12752 });
    // With COPY the vectors are computed in a table of their own as entities are read; with unnest, with the search table.
    const [a, b] = await Promise.all(['ibd', 'ibd-unnest'].map(storedRows));
    expect(a!.empty).toBe(0);
    expect(b).toEqual(a);
  });

  it('imports through pools too small to spare connections for the vectors, with the same rows', async () => {
    const files = [path.join(DATA, 'nodes.jsonl'), path.join(DATA, 'edges.csv')];
    // Two connections leave none for a vector stream (the reading would wait for it, and it for the reading: before the
    // streams were sized from the pool, this import never ended); four leave one; the app's pool of ten, two.
    expect([2, 3, 4, 10].map((max) => vectorStreams({ options: { max } }))).toEqual([0, 0, 1, 2]);
    for (const max of [2, 4]) {
      const small = new pg.Pool({ connectionString: testDb.url, max });
      try {
        await importKnowledgeBase(small, textGraphSource(files), { slug: `ibd-pool-${max}`, format: 'text-graph', files });
      } finally {
        await small.end();
      }
      expect(await storedRows(`ibd-pool-${max}`)).toEqual(await storedRows('ibd'));
    }
    expect(await stagingTables()).toEqual([]);
  });

  it('a cancelled import leaves nothing behind and says so in its job', async () => {
    let jobId = 0;
    const entities = Array.from({ length: 50 }, (_, i) => ({ externalId: `e${i}`, type: 'thing', name: `E${i}`, aliases: [], document: {}, at: { file: 'mem', line: i + 1 } }));
    const source: KnowledgeSource = {
      progress: () => ({ done: 0, total: 1 }),
      async *entities() {
        yield* entities;
      },
      async *edges() {
        await requestCancel(pool(), jobId);
        for (let i = 0; i < 40_000; i++) yield { source: `e${i % 50}`, relation: 'r', target: `e${(i + 1) % 50}`, properties: null, at: { file: 'mem', line: i + 1 } };
      },
    };
    const run = importKnowledgeBase(pool(), source, { slug: 'cancelled', format: 'test', files: [], onJobCreated: (id) => (jobId = id) });
    await expect(run).rejects.toSatisfy((e) => e instanceof ImportAborted && e.cancelled);
    expect(await db().knowledgeBase.findUnique({ where: { slug: 'cancelled' } })).toBeNull();
    expect(await db().importJob.findUniqueOrThrow({ where: { id: jobId } })).toMatchObject({ status: 'CANCELLED', message: 'Import cancelled' });
    expect(await stagingTables()).toEqual([]);
  });

  it('merges duplicate edges and counts them', async () => {
    const source: KnowledgeSource = {
      progress: () => ({ done: 0, total: 1 }),
      async *entities() {
        for (const id of ['a', 'b']) yield { externalId: id, type: 't', name: id, aliases: [], document: {}, at: { file: 'mem', line: 1 } };
      },
      async *edges() {
        for (let i = 0; i < 3; i++) yield { source: 'a', relation: 'r', target: 'b', properties: null, at: { file: 'mem', line: i + 1 } };
      },
    };
    const summary = await importKnowledgeBase(pool(), source, { slug: 'dups', format: 'test', files: [] });
    expect(summary).toMatchObject({ edges: 1, duplicateEdges: 2, relations: { r: 1 } });
    const a = await db().entity.findFirstOrThrow({ where: { externalId: 'a', kbId: summary.kbId } });
    expect(a.degree).toBe(1);
    // The search table, filled while the edges' indexes were built, carries the recounted degree too.
    const { rows } = await pool().query('SELECT degree FROM entity_search WHERE kb_id = $1 AND id = $2', [summary.kbId, a.id]);
    expect(rows).toEqual([{ degree: 1 }]);
  });

  it('skb import skips bad rows up to the limit, reports them with file and line, and writes an error report', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skb-import-cli-'));
    fs.writeFileSync(path.join(dir, 'entities.jsonl'), [
      '{"id": "a", "type": "thing", "name": "A"}',
      '{"id": "b", "type": "thing", "name": "B"',
      '{"id": "a", "type": "thing", "name": "A again"}',
      '{"id": "c", "type": "thing", "name": "C", "document": {"note": "third"}}',
    ].join('\n'));
    fs.writeFileSync(path.join(dir, 'edges.tsv'), 'source\trelation\ttarget\na\tlinks\tc\na\tlinks\tzzz\nc\tlinks\n');
    const env = { ...process.env, DATABASE_URL: testDb.url };
    const args = ['import', '--kb', 'cli-kb', '--format', 'native', path.join(dir, 'entities.jsonl'), path.join(dir, 'edges.tsv')];

    const stopped = await runSkb(args, env);
    expect(stopped.code).toBe(1);
    expect(stopped.stderr).toContain('Import stopped at entities.jsonl:2: invalid JSON');
    expect(stopped.stderr).toContain('Nothing was imported.');

    const tooMany = await runSkb([...args, '--on-error', 'skip', '--max-errors', '3'], env);
    expect(tooMany.code).toBe(1);
    expect(tooMany.stderr).toContain('more than 3 bad rows');

    const report = path.join(dir, 'errors.tsv');
    const skipped = await runSkb([...args, '--on-error', 'skip', '--error-report', report, '--json'], env);
    expect(skipped.code, skipped.stderr).toBe(0);
    const summary = JSON.parse(skipped.stdout);
    expect(summary).toMatchObject({ slug: 'cli-kb', entities: 2, edges: 1, entityTypes: { thing: 2 } });
    expect(summary.errors.map((e: { file: string; line: number }) => `${e.file}:${e.line}`)).toEqual(['entities.jsonl:2', 'entities.jsonl:3', 'edges.tsv:3', 'edges.tsv:4']);
    expect(fs.readFileSync(report, 'utf8').split('\n')).toEqual([
      'file\tline\treason',
      expect.stringMatching(/^entities\.jsonl\t2\tinvalid JSON: /),
      'entities.jsonl\t3\tduplicate entity id "a"',
      'edges.tsv\t3\tedge points to unknown entity: target "zzz"',
      'edges.tsv\t4\texpected 3 fields, found 2',
      '',
    ]);
  });

  it('skb kb stats reports the schema as JSON', async () => {
    const r = await runSkb(['kb', 'stats', 'ibd', '--json'], { ...process.env, DATABASE_URL: testDb.url });
    expect(r.code, r.stderr).toBe(0);
    const stats = JSON.parse(r.stdout);
    expect(stats).toMatchObject({ slug: 'ibd', entities: 3426, edges: 12752 });
    expect(stats.entityTypes).toContainEqual({ name: 'biological_process', count: 1642 });
    expect(stats.triples.length).toBeGreaterThan(6);
  });
});
