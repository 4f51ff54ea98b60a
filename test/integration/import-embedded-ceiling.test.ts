import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppError } from '../../lib/errors';
import { EMBEDDED_IMPORT_CEILING_BYTES, refuseOversizedEmbeddedImport } from '../../lib/ingest/embedded-ceiling';
import { importKnowledgeBase } from '../../lib/ingest/importer';
import { nativeSource } from '../../lib/ingest/readers/native';
import { openAppDatabase, pool } from '../support/app-database';
import { runSkb } from '../support/run-skb';
import type { TestDatabase } from '../support/test-database';

const embeddedMode = process.env.SKB_TEST_DB === 'embedded';

/**
 * An input one byte past the embedded database's ceiling: a sparse file, so it takes no disk, and never
 * read, since the refusal comes before the first row.
 */
function oversizedInput(dir: string): string {
  const file = path.join(dir, 'entities.jsonl');
  const fd = fs.openSync(file, 'w');
  fs.ftruncateSync(fd, EMBEDDED_IMPORT_CEILING_BYTES + 1);
  fs.closeSync(fd);
  return file;
}

describe('an import past the embedded database ceiling', () => {
  let testDb: TestDatabase;
  let dir: string;
  let input: string;
  beforeAll(async () => {
    testDb = await openAppDatabase();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skb-ceiling-'));
    input = oversizedInput(dir);
  });
  afterAll(async () => {
    await testDb.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('is refused by skb import without DATABASE_URL, at once, before the embedded database even opens', async () => {
    const dataDir = path.join(dir, 'data');
    const started = Date.now();
    const r = await runSkb(['import', '--kb', 'too-big', '--format', 'native', input], { ...process.env, DATABASE_URL: '', SKB_DATA_DIR: dataDir, SKB_EMBEDDED_IMPORT_MAX_MB: '' });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/the embedded database takes imports of at most [\d,]+ MB\. Set DATABASE_URL/);
    expect(fs.existsSync(path.join(dataDir, 'pglite'))).toBe(false);
    // Only the command's own start-up: a late failure would take minutes.
    expect(Date.now() - started).toBeLessThan(30_000);
  });

  it('is refused (413) by the importer the uploads use on the embedded database, before a job exists; let through on PostgreSQL', async () => {
    if (!embeddedMode) {
      await expect(refuseOversizedEmbeddedImport(pool(), [input])).resolves.toBeUndefined();
      return;
    }
    const refused = await importKnowledgeBase(pool(), nativeSource([input]), { slug: 'too-big', format: 'native', files: [input] }).catch((e: AppError) => e);
    expect((refused as AppError).status).toBe(413);
    expect((refused as AppError).message).toContain('DATABASE_URL');
    expect((await pool().query('SELECT 1 FROM import_job')).rows).toEqual([]);
    expect((await pool().query('SELECT 1 FROM knowledge_base WHERE slug = $1', ['too-big'])).rows).toEqual([]);
  });
});
