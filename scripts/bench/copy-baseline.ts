// The import benchmarks' physical limit: the rows an import stored, COPY'd by the server from files into fresh
// tables of the same shape, then the same indexes and statistics (ANALYZE). The tables are dropped afterwards.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { buildEdgeIndexes, buildEntityIndexes, buildSearchTable, createStagingTables, dropTables, INDEX_BUILD_MEMORY, liveTables } from '../../lib/ingest/partitions';

const ENTITY_COLUMNS = 'id, kb_id, type_id, external_id, name, aliases, document, text, degree';

/**
 * Seconds for the COPY alone, for COPY + indexes + ANALYZE of knowledge base `kbId`'s rows, and for that plus the
 * search table the import fills from them (its rows, GIN and btree indexes), which holds the full-text index.
 */
export async function copyBaseline(pool: pg.Pool, kbId: number, label: string): Promise<{ copyLoadSeconds: number; copyWithIndexesSeconds: number; withSearchTableSeconds: number }> {
  const seconds = (since: number) => +((performance.now() - since) / 1000).toFixed(1);
  const live = liveTables(kbId);
  const dump = { entity: path.join(os.tmpdir(), `${label}-entity.copy`), edge: path.join(os.tmpdir(), `${label}-edge.copy`) };
  const baseline = { entity: 'entity_load_900001', edge: 'edge_load_900001', search: 'entity_search_load_900001' };
  try {
    await pool.query(`COPY ${live.entity} (${ENTITY_COLUMNS}) TO '${dump.entity}'`);
    await pool.query(`COPY ${live.edge} TO '${dump.edge}'`);
    await dropTables(pool, baseline);
    let t = performance.now();
    await createStagingTables(pool, baseline);
    await pool.query(`COPY ${baseline.entity} (${ENTITY_COLUMNS}) FROM '${dump.entity}'`);
    await pool.query(`COPY ${baseline.edge} FROM '${dump.edge}'`);
    const copyLoadSeconds = seconds(t);
    // The files are no longer needed: at Amazon size they are 7.2 GB, beside the database they came from.
    // Removing them is not the baseline's work, so the clock skips it.
    const removing = performance.now();
    for (const f of Object.values(dump)) fs.rmSync(f, { force: true });
    t += performance.now() - removing;
    // The indexes get the memory the import gives its own.
    const client = await pool.connect();
    try {
      await client.query(`SET maintenance_work_mem = '${INDEX_BUILD_MEMORY}'`);
      await buildEntityIndexes(client, baseline, kbId);
      await buildEdgeIndexes(client, baseline, kbId);
      await client.query(`ANALYZE ${baseline.entity}`);
      await client.query(`ANALYZE ${baseline.edge}`);
      const copyWithIndexesSeconds = seconds(t);
      const s = performance.now();
      await buildSearchTable(client, baseline, kbId);
      await client.query(`ANALYZE ${baseline.search}`);
      return { copyLoadSeconds, copyWithIndexesSeconds, withSearchTableSeconds: +(copyWithIndexesSeconds + seconds(s)).toFixed(1) };
    } finally {
      client.release(true);
    }
  } finally {
    await dropTables(pool, baseline);
    for (const f of Object.values(dump)) fs.rmSync(f, { force: true });
  }
}
