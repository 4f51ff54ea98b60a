import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, readMigrations } from '../../lib/db/migrate';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

// 0036_bm25_posting_blocks turns every ready index's posting rows into blocks in place; builds that were
// running start again.
let testDb: TestDatabase;
let client: pg.Client;
beforeAll(async () => {
  testDb = await createTestDatabase();
  await migrate(testDb.url, readMigrations().filter((m) => m.name < '0036'));
  client = new pg.Client({ connectionString: testDb.url });
  await client.connect();
});
afterAll(async () => {
  await client?.end();
  await testDb?.drop();
});

describe('the migration to posting blocks', () => {
  it("keeps each ready index's postings, term by term in entity order, in blocks of at most 512, and drops running builds", async () => {
    const { rows: [kb] } = await client.query<{ id: number }>(`INSERT INTO knowledge_base (slug, name) VALUES ('blocks', 'Blocks') RETURNING id`);
    const indexRow = async (status: string, stopWords: boolean) => (await client.query<{ id: number }>(
      `INSERT INTO bm25_index (kb_id, relations, stop_words, status, kb_version, docs, avg_length)
       SELECT id, false, $2, $3, updated_at, 1200, 2 FROM knowledge_base WHERE id = $1 RETURNING id`, [kb!.id, stopWords, status])).rows[0]!.id;
    const ready = await indexRow('READY', false);
    const building = await indexRow('BUILDING', true);
    for (const id of [ready, building]) await client.query(`CREATE TABLE bm25_posting_${id} (LIKE bm25_posting, CONSTRAINT bm25_posting_${id}_index_id CHECK (index_id = ${id}))`);
    // Term 1 in entities 1..1200 (written in falling order), term 2 in two.
    const entities = Array.from({ length: 1200 }, (_, i) => 1200 - i);
    await client.query(`INSERT INTO bm25_posting_${ready} (index_id, term_id, entity_id, tf) SELECT $1, 1, e, e % 3 + 1 FROM unnest($2::int[]) AS e`, [ready, entities]);
    await client.query(`INSERT INTO bm25_posting_${ready} (index_id, term_id, entity_id, tf) VALUES ($1, 2, 40, 9), ($1, 2, 7, 1)`, [ready]);
    await client.query(`ALTER TABLE bm25_posting ATTACH PARTITION bm25_posting_${ready} FOR VALUES IN (${ready})`);

    await migrate(testDb.url);

    expect((await client.query('SELECT id FROM bm25_index')).rows).toEqual([{ id: ready }]);
    const exists = async (name: string) => (await client.query<{ t: string | null }>('SELECT to_regclass($1)::text AS t', [name])).rows[0]!.t !== null;
    expect(await exists('bm25_posting')).toBe(false);
    expect(await exists(`bm25_posting_${building}`)).toBe(false);
    const { rows: blocks } = await client.query<{ term_id: number; last_entity: number; entity_ids: number[]; tfs: number[] }>(
      'SELECT term_id, last_entity, entity_ids, tfs FROM bm25_block WHERE index_id = $1 ORDER BY term_id, last_entity', [ready]);
    expect(blocks.map((b) => [b.term_id, b.last_entity, b.entity_ids.length])).toEqual([[1, 512, 512], [1, 1024, 512], [1, 1200, 176], [2, 40, 2]]);
    const term1 = blocks.filter((b) => b.term_id === 1);
    expect(term1.flatMap((b) => b.entity_ids)).toEqual([...entities].reverse());
    expect(term1.flatMap((b) => b.tfs)).toEqual([...entities].reverse().map((e) => (e % 3) + 1));
    expect(blocks.at(-1)).toMatchObject({ entity_ids: [7, 40], tfs: [1, 9] });

    // A deleted index still takes its blocks along.
    await client.query('DELETE FROM bm25_index WHERE id = $1', [ready]);
    expect(await exists(`bm25_block_${ready}`)).toBe(false);
  });
});
