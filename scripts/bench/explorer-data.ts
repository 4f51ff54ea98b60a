// The explorer benchmark's knowledge base: a generated STaRK-Prime-sized graph in its own database on a
// real PostgreSQL, made once and kept, since generating and importing it takes minutes.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { migrate } from '../../lib/db/migrate';
import { generateKnowledgeBase } from '../../lib/ingest/generate';
import { importKnowledgeBase } from '../../lib/ingest/importer';
import { nativeSource } from '../../lib/ingest/readers/native';

export const BENCH_SLUG = 'bench-prime';

export interface BenchDataOptions {
  server: string;
  database: string;
  entities: number;
  edges: number;
}

/** Creates the database, migrates it and imports the generated graph unless an earlier run did. */
export async function ensureBenchDatabase(opts: BenchDataOptions): Promise<{ url: string; kbId: number }> {
  const admin = new pg.Client({ connectionString: opts.server });
  await admin.connect();
  const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [opts.database]);
  if (!exists.rows.length) await admin.query(`CREATE DATABASE ${opts.database}`);
  await admin.end();
  const url = new URL(opts.server);
  url.pathname = `/${opts.database}`;
  await migrate(url.toString());

  const pool = new pg.Pool({ connectionString: url.toString(), max: 2 });
  try {
    const kb = await pool.query<{ id: number; entity_count: number }>(`SELECT id, entity_count FROM knowledge_base WHERE slug = $1 AND status = 'READY'`, [BENCH_SLUG]);
    if (kb.rows[0]?.entity_count === opts.entities) return { url: url.toString(), kbId: kb.rows[0].id };
    const dir = path.join(os.tmpdir(), 'skb-bench', `${opts.entities}-${opts.edges}`);
    const files = [path.join(dir, 'entities.jsonl'), path.join(dir, 'edges.tsv')];
    if (!files.every((f) => fs.existsSync(f))) {
      console.log(`Generating ${opts.entities.toLocaleString('en')} entities and ${opts.edges.toLocaleString('en')} edges ...`);
      await generateKnowledgeBase({ entities: opts.entities, edges: opts.edges, outDir: dir });
    }
    console.log(`Importing into ${opts.database} ...`);
    const summary = await importKnowledgeBase(pool, nativeSource(files), { slug: BENCH_SLUG, format: 'native', files, replace: Boolean(kb.rows[0]), visibility: 'PUBLIC' });
    return { url: url.toString(), kbId: summary.kbId };
  } finally {
    await pool.end();
  }
}
