import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { previousIds } from '../../lib/ingest/load-passes';
import { openAppDatabase, pool } from '../support/app-database';
import { ibdIds, importIbd } from '../support/primekg-ibd';
import type { TestDatabase } from '../support/test-database';

describe('the ids a re-import keeps', () => {
  let testDb: TestDatabase;
  let kbId: number;
  beforeAll(async () => {
    testDb = await openAppDatabase();
    kbId = await importIbd(pool(), 'ibd-ids');
  });
  afterAll(async () => {
    await testDb.drop();
  });

  it('are read page by page, every entity once, whatever the page size', async () => {
    const { idOf } = await ibdIds(pool(), kbId);
    expect(idOf.size).toBe(3426);
    for (const pageSize of [1000, 3426, 100_000]) expect(await previousIds(pool(), kbId, pageSize)).toEqual(idOf);
  });
});
