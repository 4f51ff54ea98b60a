import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import type pg from 'pg';
import { importKnowledgeBase, type ImportOptions } from '../../lib/ingest/importer';
import { textGraphSource } from '../../lib/ingest/readers/text-graph';

/** The PrimeKG IBD text graph in the shared data folder beside the checkout (3,426 entities, 12,752 edges). */
export const IBD_DIR = path.resolve(process.cwd(), '..', 'shared', 'data', 'primekg-ibd');

export interface IbdEdge {
  /** External ids (PrimeKG node_index), as the importer stores them. */
  source: string;
  sourceType: string;
  relation: string;
  target: string;
  targetType: string;
}

const indexOf = (nodeId: string) => /_\((\d+)\)$/.exec(nodeId)?.[1] ?? null;

function requireData(): void {
  if (!fs.existsSync(path.join(IBD_DIR, 'edges.csv'))) {
    throw new Error(`Real test data missing: ${IBD_DIR} (the shared data folder must sit beside the checkout)`);
  }
}

/** Imports the fixture as knowledge base `slug` (other import options as given); returns its id. */
export async function importIbd(pool: pg.Pool, slug = 'ibd', options: Partial<ImportOptions> = {}): Promise<number> {
  requireData();
  const files = [path.join(IBD_DIR, 'nodes.jsonl'), path.join(IBD_DIR, 'edges.csv')];
  const summary = await importKnowledgeBase(pool, textGraphSource(files), { slug, format: 'text-graph', files, visibility: 'PUBLIC', ...options });
  return summary.kbId;
}

/** The imported knowledge base's ids both ways: external id (PrimeKG node_index) to database id, and back. */
export async function ibdIds(pool: pg.Pool, kbId: number): Promise<{ idOf: Map<string, number>; externalOf: Map<number, string> }> {
  const { rows } = await pool.query<{ id: number; external_id: string }>('SELECT id, external_id FROM entity WHERE kb_id = $1', [kbId]);
  return { idOf: new Map(rows.map((r) => [r.external_id, r.id])), externalOf: new Map(rows.map((r) => [r.id, r.external_id])) };
}

/** The edge file read directly, without the importer, so tests can check the database's answers against it. */
export function readIbdEdges(): IbdEdge[] {
  requireData();
  const rows = parse(fs.readFileSync(path.join(IBD_DIR, 'edges.csv')), { columns: true }) as Record<string, string>[];
  return rows.map((r, i) => {
    const source = indexOf(r.head_id ?? '');
    const target = indexOf(r.tail_id ?? '');
    if (!source || !target) throw new Error(`edges.csv:${i + 2}: cannot read the node indexes of ${JSON.stringify(r)}`);
    return { source, sourceType: r.head_type!, relation: r.relation!, target, targetType: r.tail_type! };
  });
}
