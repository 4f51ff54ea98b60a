import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Queryable } from '../../lib/db/transaction';
import { importKnowledgeBase } from '../../lib/ingest/importer';
import { memorySource } from '../../lib/ingest/memory-source';
import { evaluateMetapaths, type Metapath } from '../../lib/kb/metapath';
import { MATCH_END, MATCH_START, searchEntities, type SearchResult } from '../../lib/kb/search';
import { adjacencyBit } from '../../lib/retrieval/bm25-adjacent';
import { currentIndex, ensureIndex } from '../../lib/retrieval/bm25-index';
import { phraseAdjacency } from '../../lib/retrieval/bm25-score';
import { searchBm25 } from '../../lib/retrieval/bm25-search';
import { parseSearchQuery } from '../../lib/retrieval/search-query';
import { openAppDatabase, pool } from '../support/app-database';
import type { TestDatabase } from '../support/test-database';

// A small knowledge base whose BM25 scores the test works out from the formula itself.
const ENTITIES = [
  { externalId: 'p1', type: 'product', name: 'Storm Shell', details: 'waterproof jacket for hiking in heavy rain' },
  { externalId: 'p2', type: 'product', name: 'Trail Boot', details: 'waterproof leather boot, waterproof seams, for hiking and trail running' },
  { externalId: 'p3', type: 'product', name: 'Camp Stove', details: 'compact stove for camping trips' },
  { externalId: 'p4', type: 'product', name: 'Rain Poncho', details: 'waterproof poncho' },
  { externalId: 'g1', type: 'guide', name: 'Hiking Guide', details: 'routes for hiking in the hills, with notes on rain gear and boot care' },
  { externalId: 'g2', type: 'guide', name: 'Stove Manual', details: 'how to clean the stove' },
  // The same words and length: a tie, broken by degree (Bravo has more edges), then id.
  { externalId: 'p6', type: 'product', name: 'Day Pack Alpha', details: 'light pack for hiking' },
  { externalId: 'p7', type: 'product', name: 'Day Pack Bravo', details: 'light pack for hiking' },
  { externalId: 'p8', type: 'product', name: 'Day Pack Charlie', details: 'light pack for hiking' },
  // Text that PostgreSQL's full-text parser reads otherwise than the tokeniser: a hyphenated word, a host name,
  // a decimal number, markup. Phrases across them still match (see 'strict syntax').
  { externalId: 'p9', type: 'product', name: 'Summit Pole', details: 'carbon pole with TNF-alpha coating; see example.com for 3.5 mm tips, <b>grip</b> notes on the slopes' },
];
const EDGES = [
  { source: 'p7', relation: 'mentioned in', target: 'g1' },
  { source: 'p7', relation: 'mentioned in', target: 'g2' },
  { source: 'p8', relation: 'mentioned in', target: 'g1' },
];

const words = (s: string): string[] => s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
// Each document as the import flattens it: "- name: …", "- type: …", then the one field.
const docs = ENTITIES.map((e) => ({ ...e, tokens: words(`name ${e.name} type ${e.type} details ${e.details}`) }));
const N = docs.length;
const avgLength = docs.reduce((a, d) => a + d.tokens.length, 0) / N;

/** Okapi BM25 with k1 1.2 and b 0.75, summed over the distinct query words, written out here. */
function bm25(query: string[], tokens: string[]): number {
  let score = 0;
  for (const w of new Set(query)) {
    const tf = tokens.filter((t) => t === w).length;
    if (!tf) continue;
    const n = docs.filter((d) => d.tokens.includes(w)).length;
    const idf = Math.log(1 + (N - n + 0.5) / (n + 0.5));
    score += (idf * tf * 2.2) / (tf + 1.2 * (1 - 0.75 + (0.75 * tokens.length) / avgLength));
  }
  return score;
}

let testDb: TestDatabase;
let kbId: number;
const idOf = new Map<string, number>();
const degreeOf = new Map<string, number>();

/** The expected ranking: entities containing any of the words (or those `keep` allows), by score, degree, id. */
function expected(query: string, keep: (d: (typeof docs)[number]) => boolean = () => true) {
  const q = words(query);
  return docs.filter((d) => q.some((w) => d.tokens.includes(w)) && keep(d))
    .map((d) => ({ externalId: d.externalId, score: bm25(q, d.tokens), covered: new Set(q.filter((w) => d.tokens.includes(w))).size }))
    .sort((a, b) => Math.round(b.score * 1e9) - Math.round(a.score * 1e9) || degreeOf.get(b.externalId)! - degreeOf.get(a.externalId)! || idOf.get(a.externalId)! - idOf.get(b.externalId)!);
}

const search = (query: string, more: { types?: string[]; limit?: number; offset?: number; postingBudget?: number } = {}) =>
  searchEntities(pool(), kbId, { query, limit: 20, offset: 0, ...more });
const externalIds = (r: SearchResult) => r.hits.map((h) => h.externalId);

beforeAll(async () => {
  testDb = await openAppDatabase();
  ({ kbId } = await importKnowledgeBase(pool(), memorySource({
    entities: ENTITIES.map((e) => ({ externalId: e.externalId, type: e.type, name: e.name, aliases: [], document: { details: e.details } })),
    edges: EDGES,
  }), { slug: 'bm25-search', format: 'test', files: [] }));
  await ensureIndex(pool(), kbId, false);
  const { rows } = await pool().query<{ id: number; external_id: string; degree: number; text: string }>(
    'SELECT id, external_id, degree, text FROM entity WHERE kb_id = $1', [kbId]);
  for (const r of rows) {
    idOf.set(r.external_id, r.id);
    degreeOf.set(r.external_id, r.degree);
    // The documents the test scores are the ones indexed.
    expect(words(r.text)).toEqual(docs.find((d) => d.externalId === r.external_id)!.tokens);
  }
});
afterAll(async () => testDb.drop());

describe('BM25 search', () => {
  it('ranks any-word matches by BM25 exactly, with the words each hit covers and marked snippets', async () => {
    const result = await search('waterproof hiking');
    const want = expected('waterproof hiking');
    expect(result).toMatchObject({ ranking: 'bm25', words: ['waterproof', 'hiking'], strict: false, total: want.length, totalIsLowerBound: false });
    expect(externalIds(result)).toEqual(want.map((w) => w.externalId));
    result.hits.forEach((h, i) => {
      expect(h.score).toBeCloseTo(want[i]!.score, 9);
      expect(h.covered).toBe(want[i]!.covered);
    });
    // Both words in the boot and the jacket; one in the poncho.
    expect(result.hits.find((h) => h.externalId === 'p2')!.covered).toBe(2);
    expect(result.hits.find((h) => h.externalId === 'p4')!.covered).toBe(1);
    expect(result.hits[0]!.snippet).toContain(`${MATCH_START}waterproof${MATCH_END}`);
  });

  it('breaks ties by degree, then id', async () => {
    const result = await search('light pack');
    expect(externalIds(result)).toEqual(['p7', 'p8', 'p6']);
    expect(new Set(result.hits.map((h) => h.score)).size).toBe(1);
  });

  it('answers a pasted question over all its words, common ones included', async () => {
    const question = 'Which waterproof boot is best for hiking in heavy rain on the trail, and how do I care for the leather seams?';
    const result = await search(question);
    const want = expected(question);
    expect(externalIds(result)).toEqual(want.map((w) => w.externalId));
    expect(result.hits.map((h) => h.covered)).toEqual(want.map((w) => w.covered));
    expect(result.hits[0]!.externalId).toBe('p2');
    expect(result.words).toHaveLength(new Set(words(question)).size);
  });

  it('ranks a query with more postings than the budget the same, from postings in memory, with a lower-bound total', async () => {
    const question = 'waterproof boot for hiking in the rain';
    const want = expected(question);
    for (const page of [{ offset: 0, limit: 20 }, { offset: 3, limit: 2 }]) {
      const result = await search(question, { postingBudget: 1, ...page });
      expect(externalIds(result)).toEqual(want.slice(page.offset, page.offset + page.limit).map((w) => w.externalId));
      expect(result.hits.map((h) => h.covered)).toEqual(want.slice(page.offset, page.offset + page.limit).map((w) => w.covered));
      result.hits.forEach((h, i) => expect(h.score).toBeCloseTo(want[page.offset + i]!.score, 9));
      // The total is a lower bound (here every match is among the entities ranked).
      expect(result).toMatchObject({ totalIsLowerBound: true, total: want.length });
    }
    const guides = await search(question, { postingBudget: 1, types: ['guide'] });
    expect(externalIds(guides)).toEqual(expected(question, (d) => d.type === 'guide').map((w) => w.externalId));
  });

  it('filters by type and pages through the ranking without gaps or repeats', async () => {
    const guides = await search('hiking rain', { types: ['guide'] });
    expect(externalIds(guides)).toEqual(expected('hiking rain', (d) => d.type === 'guide').map((w) => w.externalId));
    expect(guides.total).toBe(1);
    const all = expected('hiking rain pack');
    const pages: string[] = [];
    for (let offset = 0; offset < all.length; offset += 2) {
      const page = await search('hiking rain pack', { limit: 2, offset });
      expect(page.total).toBe(all.length);
      pages.push(...externalIds(page));
    }
    expect(pages).toEqual(all.map((w) => w.externalId));
  });
});

describe('metapath results', () => {
  const guides: Metapath = { start: { type: 'product' }, steps: [{ relation: 'mentioned in', direction: 'out', targetType: 'guide' }] };

  it('are filtered and ranked by the same scorer, strict syntax included', async () => {
    const filtered = await evaluateMetapaths(pool(), kbId, [guides], { q: 'stove rain', limit: 10, offset: 0 });
    const want = expected('stove rain', (d) => d.type === 'guide');
    expect(filtered).toMatchObject({ ranking: 'bm25', words: ['stove', 'rain'], total: 2 });
    expect(filtered.items.map((i) => ({ id: i.id, score: i.score, covered: i.covered }))).toEqual(
      want.map((w) => ({ id: idOf.get(w.externalId), score: expect.closeTo(w.score, 9), covered: w.covered })));
    expect(filtered.items.every((i) => i.snippet?.includes(MATCH_START))).toBe(true);
    expect((await evaluateMetapaths(pool(), kbId, [guides], { q: 'stove -clean', limit: 10, offset: 0 })).total).toBe(0);
  });

  it('ranked by relevance keep every entity reached, those without the words last', async () => {
    const ranked = await evaluateMetapaths(pool(), kbId, [guides], { relevance: 'Which guide covers hiking in the rain?', limit: 10, offset: 0 });
    expect(ranked.total).toBe(2);
    expect(ranked.items.map((i) => i.name)).toEqual(['Hiking Guide', 'Stove Manual']);
    const want = expected('Which guide covers hiking in the rain?', (d) => d.type === 'guide');
    expect(ranked.items.map((i) => i.score)).toEqual(want.map((w) => expect.closeTo(w.score, 9)));
    expect(ranked.items.map((i) => i.covered)).toEqual(want.map((w) => w.covered));
  });
});

describe('strict syntax', () => {
  const has = (phrase: string) => (d: (typeof docs)[number]) => ` ${d.tokens.join(' ')} `.includes(` ${phrase} `);

  it('requires quoted phrases, in order and adjacent', async () => {
    const result = await search('"leather boot"');
    expect(result.strict).toBe(true);
    expect(externalIds(result)).toEqual(['p2']);
    expect((await search('"boot leather"')).total).toBe(0);
    // A phrase across a field's punctuation: the name then the type.
    expect(externalIds(await search('"hiking guide"'))).toEqual(['g1']);
  });

  it('excludes -words and -"phrases", ranking what is left by BM25', async () => {
    const result = await search('waterproof -poncho');
    expect(externalIds(result)).toEqual(expected('waterproof', (d) => !d.tokens.includes('poncho')).map((w) => w.externalId));
    const noHeavyRain = await search('hiking -"heavy rain"');
    expect(externalIds(noHeavyRain)).toEqual(expected('hiking', (d) => !has('heavy rain')(d)).map((w) => w.externalId));
    expect(externalIds(noHeavyRain)).not.toContain('p1');
    expect(noHeavyRain.hits.every((h) => h.covered === 1)).toBe(true);
  });

  it('requires both sides of AND, either side of OR', async () => {
    const both = await search('hiking AND rain');
    expect(externalIds(both)).toEqual(expected('hiking rain', (d) => d.tokens.includes('hiking') && d.tokens.includes('rain')).map((w) => w.externalId));
    expect(both.hits.map((h) => h.covered)).toEqual([2, 2]);
    const either = await search('stove OR poncho');
    expect(externalIds(either)).toEqual(expected('stove poncho').map((w) => w.externalId));
    expect(new Set(externalIds(either))).toEqual(new Set(['p3', 'g2', 'p4']));
    // Every word is required once the query is strict; a word no document has matches nothing.
    expect((await search('waterproof AND zzzq')).total).toBe(0);
    expect((await search('"waterproof" zzzq OR poncho')).hits.map((h) => h.externalId)).toEqual(['p4']);
  });

  it('matches phrases exactly as the tokeniser reads the text: stop words, punctuation, markup, names', async () => {
    for (const phrase of [
      'pole with tnf', 'tnf alpha coating', 'example com', '3 5 mm', 'tips b grip b notes', 'notes on the slopes',
      'in the', 'summit pole type product', 'boot waterproof seams', 'trail running',
    ]) {
      const want = expected(phrase, has(phrase));
      expect(want.length, phrase).toBeGreaterThan(0);
      // From the postings, and from the in-memory scorer's ranking (more postings than the budget).
      for (const postingBudget of [undefined, 1]) {
        const result = await search(`"${phrase}"`, { postingBudget });
        expect(externalIds(result), phrase).toEqual(want.map((w) => w.externalId));
        expect(result.hits.map((h) => h.covered)).toEqual(want.map((w) => w.covered));
        expect(result).toMatchObject({ total: want.length, totalIsLowerBound: false });
      }
    }
    // Stemming or a neighbouring word does not make a match: "runs" is not "running", "3 5" not "5 3".
    expect((await search('"trail runs"')).total).toBe(0);
    expect((await search('"5 3 mm"')).total).toBe(0);
  });

  it('checks phrases within a type filter', async () => {
    for (const type of ['product', 'guide']) {
      const want = expected('for hiking', (d) => d.type === type && has('for hiking')(d));
      expect(want.length, type).toBeGreaterThan(0);
      const result = await search('"for hiking" -stove', { types: [type] });
      expect(externalIds(result), type).toEqual(want.map((w) => w.externalId));
      expect(result).toMatchObject({ total: want.length, totalIsLowerBound: false });
    }
  });

  it('checks phrases in score order, pages exactly and counts up to the limit', async () => {
    const phrase = 'for hiking';
    const want = expected(phrase, has(phrase)).map((w) => w.externalId);
    expect(want.length).toBe(6);
    const query = parseSearchQuery(`"${phrase}"`);
    // Every candidate checked; the best one only (and its ties); and a limit above the candidates.
    const ways = [{}, { phraseCheckLimit: 1 }, { phraseCheckLimit: 1_000 }];
    for (const [offset, way] of [0, 2, 4].flatMap((o) => ways.map((w) => [o, w] as const))) {
      const index = (await currentIndex(pool(), kbId, false))!;
      const result = await searchBm25(pool(), kbId, index, query, { limit: 2, offset, phraseMatchLimit: 2, ...way });
      const hits = result.hits.map((h) => h.externalId);
      if (result.checkedBest !== undefined) {
        // The best candidates held fewer matches than the page: those found are the best matches, in order.
        expect(way).toEqual({ phraseCheckLimit: 1 });
        expect(result.checkedBest).toBe(1);
        expect(result.totalIsLowerBound).toBe(true);
        expect(result.total).toBeLessThan(offset + 2);
        expect(hits).toEqual(want.slice(offset, result.total));
        continue;
      }
      expect(hits).toEqual(want.slice(offset, offset + 2));
      // Past the limit (at least the page's depth) the total is a lower bound; the last page saw every match.
      if (!('phraseCheckLimit' in way && way.phraseCheckLimit === 1)) expect(result.totalIsLowerBound).toBe(offset + 2 < want.length);
      if (result.totalIsLowerBound) expect(result.total).toBeGreaterThanOrEqual(offset + 2);
      else expect(result.total).toBe(want.length);
      expect(result.total).toBeLessThanOrEqual(want.length);
    }
  });

  it('rules out phrase candidates from the adjacency stored with the postings, reading fewer texts and finding the same matches', async () => {
    // A new build of the index, none of whose postings or adjacency this process keeps yet.
    await pool().query('DELETE FROM bm25_index WHERE id = $1', [(await currentIndex(pool(), kbId, false))!.id]);
    const index = await ensureIndex(pool(), kbId, false);
    const termId = async (term: string) => (await pool().query<{ id: number }>('SELECT id FROM bm25_term WHERE index_id = $1 AND term = $2', [index.id, term])).rows[0]!.id;
    // "waterproof leather boot": leather's high byte holds waterproof's bit, its low byte boot's.
    const { rows: [block] } = await pool().query<{ e: number[]; a: Buffer }>(
      'SELECT entity_ids AS e, adjacent AS a FROM bm25_block WHERE index_id = $1 AND term_id = $2', [index.id, await termId('leather')]);
    const at = block!.e.indexOf(idOf.get('p2')!);
    expect(block!.a.length).toBe(2 * block!.e.length);
    expect(block!.a[2 * at]).toBe(adjacencyBit(await termId('waterproof')));
    expect(block!.a[2 * at + 1]).toBe(adjacencyBit(await termId('boot')));
    // Phrases whose words share documents without standing together in most of them, and some that match.
    const phrases = ['hiking rain', 'rain hiking', 'waterproof boot', 'boot hiking', 'pack hiking', 'leather boot', 'for hiking', 'rain gear', 'hiking in'];
    const run = async () => {
      const read: number[] = [];
      const spy = { query: (sql: string, values: unknown[]) => {
        if (sql.startsWith('SELECT id, text FROM entity')) read.push(...(values[1] as number[]));
        return pool().query(sql, values);
      } } as unknown as Queryable;
      const found = [];
      for (const phrase of phrases) {
        const result = await searchBm25(spy, kbId, index, parseSearchQuery(`"${phrase}"`), { limit: 20, offset: 0 });
        expect(result.hits.map((h) => h.externalId), phrase).toEqual(expected(phrase, has(phrase)).map((w) => w.externalId));
        found.push(result.hits.map((h) => h.externalId));
      }
      return { read, found };
    };
    // An index built before adjacency was stored first (its NULLs are not kept, so the bytes are read once restored):
    // every candidate holding the words is read.
    const saved = await pool().query<{ term_id: number; last_entity: number; adjacent: Buffer }>(
      'SELECT term_id, last_entity, adjacent FROM bm25_block WHERE index_id = $1', [index.id]);
    await pool().query('UPDATE bm25_block SET adjacent = NULL WHERE index_id = $1', [index.id]);
    let without: Awaited<ReturnType<typeof run>>;
    try {
      expect((await phraseAdjacency(pool(), index, [await termId('leather')]))(await termId('leather'), idOf.get('p2')!)).toBeUndefined();
      without = await run();
    } finally {
      await pool().query(`UPDATE bm25_block b SET adjacent = decode(s.a, 'hex') FROM unnest($2::int[], $3::int[], $4::text[]) s(t, l, a)
        WHERE b.index_id = $1 AND b.term_id = s.t AND b.last_entity = s.l`,
      [index.id, saved.rows.map((r) => r.term_id), saved.rows.map((r) => r.last_entity), saved.rows.map((r) => r.adjacent.toString('hex'))]);
    }
    // The bytes as kept in this process are the stored ones.
    const kept = await phraseAdjacency(pool(), index, [await termId('leather')]);
    expect(kept(await termId('leather'), idOf.get('p2')!)).toBe(block!.a.readUInt16BE(2 * at));
    const withAdjacency = await run();
    expect(withAdjacency.found).toEqual(without.found);
    expect(withAdjacency.read.length).toBeLessThan(without.read.length);
  });
});

describe('without a current ranking index', () => {
  it('answers with full-text search, starts the build, then ranks by BM25', async () => {
    const ready = () => expect.poll(() => currentIndex(pool(), kbId, false), { timeout: 20_000 }).not.toBeNull();
    // The metapath filter, then search, each right after the index is gone (each starts a build).
    await pool().query('DELETE FROM bm25_index WHERE kb_id = $1', [kbId]);
    const path: Metapath = { start: { type: 'product' }, steps: [{ relation: 'mentioned in', direction: 'out', targetType: 'guide' }] };
    const filtered = await evaluateMetapaths(pool(), kbId, [path], { q: 'stove', limit: 10, offset: 0 });
    expect(filtered).toMatchObject({ ranking: 'fulltext', total: 1, items: [{ name: 'Stove Manual' }] });
    await ready();
    await pool().query('DELETE FROM bm25_index WHERE kb_id = $1', [kbId]);
    const meanwhile = await search('waterproof poncho');
    expect(meanwhile.ranking).toBe('fulltext');
    // Full-text search: every word must match.
    expect(externalIds(meanwhile)).toEqual(['p4']);
    expect(meanwhile.hits[0]!.covered).toBeNull();
    await ready();
    const after = await search('waterproof poncho');
    expect(after.ranking).toBe('bm25');
    expect(externalIds(after)).toEqual(expected('waterproof poncho').map((w) => w.externalId));
  });
});
