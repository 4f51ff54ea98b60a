import type pg from 'pg';
import { liveTables } from '../ingest/partitions';
import { conflict } from '../errors';
import { inTransaction } from '../db/transaction';

/** Deletes a knowledge base: its partitions are dropped (instant at any size), the rest cascades. */
export async function deleteKnowledgeBase(pool: pg.Pool, kbId: number): Promise<void> {
  await inTransaction(pool, async (client) => {
    const running = await client.query(`SELECT id FROM import_job WHERE kb_id = $1 AND status = 'RUNNING'`, [kbId]);
    if (running.rows.length) throw conflict(`An import (job ${running.rows[0].id}) is running on this knowledge base`);
    const t = liveTables(kbId);
    for (const kind of ['edge', 'entity', 'search'] as const) {
      const attached = await client.query(`SELECT 1 FROM pg_class WHERE relname = $1`, [t[kind]]);
      if (attached.rows.length) await client.query(`DROP TABLE ${t[kind]}`);
    }
    await client.query('DELETE FROM knowledge_base WHERE id = $1', [kbId]);
  });
}
