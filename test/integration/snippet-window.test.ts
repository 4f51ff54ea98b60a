import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importKnowledgeBase } from '../../lib/ingest/importer';
import { memorySource } from '../../lib/ingest/memory-source';
import { SNIPPET_WINDOW } from '../../lib/kb/highlight';
import { evaluateMetapaths } from '../../lib/kb/metapath';
import { MATCH_END, MATCH_START, searchEntities, searchFullText } from '../../lib/kb/search';
import { currentIndex, ensureIndex } from '../../lib/retrieval/bm25-index';
import { openAppDatabase, pool } from '../support/app-database';
import type { TestDatabase } from '../support/test-database';

// Long reviews: the words looked for come far past the snippet window, once in lower case, once capitalised.
const filler = (n: number) => Array.from({ length: n }, (_, i) => `plain filler text number ${i}.`).join(' ');
const ENTITIES = [
  { externalId: 'long', type: 'product', name: 'Long Product', document: { reviews: `${filler(2_000)} it held a brass compass well. ${filler(500)}` } },
  { externalId: 'caps', type: 'product', name: 'Capital Product', document: { reviews: `${filler(2_000)} Zanzibar maps. ${filler(500)}` } },
  { externalId: 'short', type: 'guide', name: 'Short Guide', document: { notes: 'a compass guide for zanzibar' } },
];

let testDb: TestDatabase;
let kbId: number;
const marked = (snippet: string | null | undefined) => snippet?.match(new RegExp(`${MATCH_START}([^${MATCH_END}]*)${MATCH_END}`, 'gu')) ?? [];

beforeAll(async () => {
  testDb = await openAppDatabase();
  ({ kbId } = await importKnowledgeBase(pool(), memorySource({
    entities: ENTITIES.map((e) => ({ externalId: e.externalId, type: e.type, name: e.name, aliases: [], document: e.document })),
    edges: [{ source: 'short', relation: 'describes', target: 'long' }, { source: 'short', relation: 'describes', target: 'caps' }],
  }), { slug: 'snippet-window', format: 'test', files: [] }));
  await ensureIndex(pool(), kbId, false);
  const { rows } = await pool().query<{ n: number }>(`SELECT length(text) AS n FROM entity WHERE kb_id = $1 AND external_id = 'long'`, [kbId]);
  expect(rows[0]!.n).toBeGreaterThan(SNIPPET_WINDOW * 10);
});
afterAll(async () => testDb.drop());

describe('snippets of long documents', () => {
  it('mark words far into the text, written in lower case or capitalised (BM25)', async () => {
    const result = await searchEntities(pool(), kbId, { query: 'brass zanzibar', limit: 10, offset: 0 });
    expect(result.ranking).toBe('bm25');
    const snippet = (id: string) => result.hits.find((h) => h.externalId === id)!.snippet;
    expect(marked(snippet('long'))).toEqual([`${MATCH_START}brass${MATCH_END}`]);
    expect(marked(snippet('caps'))).toEqual([`${MATCH_START}Zanzibar${MATCH_END}`]);
  });

  it('mark them in full-text search and the metapath filter too', async () => {
    const result = await searchFullText(pool(), kbId, { query: 'brass compass', limit: 10, offset: 0 });
    expect(result.hits.map((h) => h.externalId)).toEqual(['long']);
    expect(marked(result.hits[0]!.snippet).map((m) => m.slice(1, -1))).toEqual(['brass', 'compass']);
    await pool().query('DELETE FROM bm25_index WHERE kb_id = $1', [kbId]);
    const filtered = await evaluateMetapaths(pool(), kbId, [{ start: { type: 'guide' }, steps: [{ relation: 'describes', direction: 'out', targetType: 'product' }] }],
      { q: 'zanzibar', limit: 10, offset: 0 });
    expect(filtered).toMatchObject({ ranking: 'fulltext', total: 1 });
    expect(marked(filtered.items[0]!.snippet)).toEqual([`${MATCH_START}Zanzibar${MATCH_END}`]);
    // The request started the index's build again: let it finish before the database goes.
    await expect.poll(() => currentIndex(pool(), kbId, false), { timeout: 20_000 }).not.toBeNull();
  });
});
