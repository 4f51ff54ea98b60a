import { closeDb, db, pool } from '../../lib/db/client';
import { migrate } from '../../lib/db/migrate';
import { createTestDatabase, type TestDatabase } from './test-database';

/** A migrated scratch database wired into lib/db/client, as the app sees it. */
export async function openAppDatabase(): Promise<TestDatabase> {
  const testDb = await createTestDatabase();
  await migrate(testDb.url);
  process.env.DATABASE_URL = testDb.url;
  return {
    ...testDb,
    async drop() {
      await closeDb();
      delete process.env.DATABASE_URL;
      await testDb.drop();
    },
  };
}

export { db, pool };
