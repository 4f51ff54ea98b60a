import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import type pg from 'pg';
import { importKnowledgeBase } from '../../lib/ingest/importer';
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

/** Imports the fixture as knowledge base `slug`; returns its id. */
export async function importIbd(pool: pg.Pool, slug = 'ibd'): Promise<number> {
  requireData();
  const files = [path.join(IBD_DIR, 'nodes.jsonl'), path.join(IBD_DIR, 'edges.csv')];
  const summary = await importKnowledgeBase(pool, textGraphSource(files), { slug, format: 'text-graph', files, visibility: 'PUBLIC' });
  return summary.kbId;
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
