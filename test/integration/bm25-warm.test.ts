import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Queryable } from '../../lib/db/transaction';
import { importKnowledgeBase } from '../../lib/ingest/importer';
import { memorySource, type InMemoryKnowledgeBase } from '../../lib/ingest/memory-source';
import { BM25_DEFAULTS } from '../../lib/retrieval/bm25';
import { currentIndex } from '../../lib/retrieval/bm25-index';
import { scoreBm25 } from '../../lib/retrieval/bm25-score';
import { keepCommonPostings, warmSearchIndexes } from '../../lib/retrieval/bm25-warm';
import { openAppDatabase, pool } from '../support/app-database';
import type { TestDatabase } from '../support/test-database';

let testDb: TestDatabase;
beforeAll(async () => { testDb = await openAppDatabase(); });
afterAll(async () => testDb.drop());

// 2,000 documents: "shared" in every one (a common term: in at least 0.1% of them), "onlyN" in one each (rare).
const KB: InMemoryKnowledgeBase = {
  entities: Array.from({ length: 2000 }, (_, i) => ({
    externalId: `e${i}`, type: 'record', name: 'Record', aliases: [], document: { details: `shared words and only${i}` },
  })),
  edges: [],
};

async function importKb(slug: string) {
  const { kbId } = await importKnowledgeBase(pool(), memorySource(KB), { slug, format: 'test', files: [], onProgress: () => {} });
  return (await currentIndex(pool(), kbId, false))!;
}

/** The pool, counting the statements that read postings from the database. */
function countingPostingReads(): { db: Queryable; reads: () => number } {
  let reads = 0;
  const db: Queryable = {
    query: ((text: string, values?: unknown[]) => {
      if (/FROM bm25_block/.test(text)) reads += 1;
      return pool().query(text, values);
    }) as Queryable['query'],
  };
  return { db, reads: () => reads };
}

describe('BM25 postings read ahead', () => {
  it('keeps the common terms of an index, so a query of them reads no postings; rare terms are read when asked', async () => {
    const index = await importKb('warm-common');
    // Every term in at least 2 of the 2,000 documents (the name's and the text's words but "onlyN"), none other.
    const { rows: [expected] } = await pool().query<{ common: number; all: number }>(
      'SELECT sum(df) FILTER (WHERE df >= 2)::int AS common, sum(df)::int AS "all" FROM bm25_term WHERE index_id = $1', [index.id]);
    expect(expected!.all - expected!.common).toBe(2000);
    expect(await keepCommonPostings(pool(), index)).toBe(expected!.common);
    const { db, reads } = countingPostingReads();
    const [common] = await scoreBm25(db, index, BM25_DEFAULTS, ['shared words'], 3);
    expect(common).toHaveLength(3);
    expect(reads()).toBe(0);
    const [rare] = await scoreBm25(db, index, BM25_DEFAULTS, ['only7'], 3);
    expect(rare!.map((s) => s.entityId)).toHaveLength(1);
    expect(reads()).toBe(1);
  });

  it('reads ahead the default index of every knowledge base at start', async () => {
    const index = await importKb('warm-start');
    // It says how many postings it kept: those of this index's common terms at least.
    expect(await warmSearchIndexes(pool())).toBeGreaterThanOrEqual(await keepCommonPostings(pool(), index));
    const { db, reads } = countingPostingReads();
    await scoreBm25(db, index, BM25_DEFAULTS, ['shared and'], 5);
    expect(reads()).toBe(0);
    await scoreBm25(db, index, BM25_DEFAULTS, ['only3'], 5);
    expect(reads()).toBe(1);
  });
});
