// The explorer benchmarks' knowledge base: a generated graph in its own database on a real PostgreSQL, made
// once and kept, since generating and importing it takes minutes (an hour at MAG size). By default the
// STaRK-Prime-sized graph; with `--shape mag|amazon [--scale F]` the generator's graph of that shape, or the one
// an earlier import (e.g. the import benchmark) left in the database under the slug.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { migrate } from '../../lib/db/migrate';
import { APP_SESSION_OPTIONS } from '../../lib/db/session';
import { SHAPES, generateKnowledgeBase, type Shape } from '../../lib/ingest/generate';
import { importKnowledgeBase } from '../../lib/ingest/importer';
import { nativeSource } from '../../lib/ingest/readers/native';

export const BENCH_SLUG = 'bench-prime';

/** A pool whose sessions are the app's (lib/db/session), so the benchmarks' statements are planned as the app's are. */
export const appSessionPool = (connectionString: string, max: number) => new pg.Pool({ connectionString, max, options: APP_SESSION_OPTIONS });

export interface BenchDataOptions {
  server: string;
  database: string;
  /** The knowledge base's slug (default `bench-prime`). */
  slug?: string;
  /** Without a shape: the Prime-like generator at these sizes, and a kept knowledge base of another size is replaced. */
  entities?: number;
  edges?: number;
  /** With a shape: the generator's published sizes × scale; a kept knowledge base under the slug is used as it is. */
  shape?: Shape;
  scale?: number;
}

/** Command-line options shared by the explorer benchmarks (parseArgs `options`). */
export const benchDataArgs = {
  server: { type: 'string', default: process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres' },
  database: { type: 'string' },
  slug: { type: 'string' },
  shape: { type: 'string' },
  scale: { type: 'string', default: '1' },
  entities: { type: 'string', default: '130000' },
  edges: { type: 'string', default: '8100000' },
} as const;

type BenchDataArgs = { server?: string; database?: string; slug?: string; shape?: string; scale?: string; entities?: string; edges?: string };

/**
 * The data options from the command line. Without `--shape`: `skb_bench_explorer` / `bench-prime` as before. With
 * it: `skb_scale_<shape>` / `scale-<shape>` at scale 1, and the scale in both names otherwise (`skb_scale_mag_0_01`),
 * so a small trial never lands in the full-size database.
 */
export function benchDataOptions(values: BenchDataArgs): BenchDataOptions {
  const server = values.server!;
  if (!values.shape) return { server, database: values.database ?? 'skb_bench_explorer', slug: values.slug ?? BENCH_SLUG, entities: Number(values.entities), edges: Number(values.edges) };
  const shape = values.shape as Shape;
  if (!SHAPES.includes(shape)) throw new Error(`--shape must be one of ${SHAPES.join(', ')}, not "${values.shape}"`);
  const scale = Number(values.scale);
  if (!(scale > 0 && scale <= 1)) throw new Error(`--scale must be a number in (0, 1], not "${values.scale}"`);
  const suffix = scale === 1 ? '' : `_${String(scale).replace('.', '_')}`;
  return { server, shape, scale, database: values.database ?? `skb_scale_${shape}${suffix}`, slug: values.slug ?? `scale-${shape}${suffix.replace(/_/g, '-')}` };
}

/** The database's URL on the server, created and migrated unless it exists. */
export async function ensureDatabase(server: string, database: string): Promise<string> {
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
  if (!exists.rows.length) await admin.query(`CREATE DATABASE ${database}`);
  await admin.end();
  const url = new URL(server);
  url.pathname = `/${database}`;
  await migrate(url.toString());
  return url.toString();
}

/** Creates the database, migrates it and imports the generated graph unless an earlier run did. */
export async function ensureBenchDatabase(opts: BenchDataOptions): Promise<{ url: string; kbId: number; slug: string }> {
  const slug = opts.slug ?? BENCH_SLUG;
  const url = await ensureDatabase(opts.server, opts.database);
  // As large as `skb import`'s (lib/db/client.ts): the import sizes its vector streams from the pool.
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  try {
    const kb = await pool.query<{ id: number; entity_count: number }>(`SELECT id, entity_count FROM knowledge_base WHERE slug = $1 AND status = 'READY'`, [slug]);
    const kept = kb.rows[0];
    if (kept && (opts.shape || kept.entity_count === opts.entities)) return { url, kbId: kept.id, slug };
    const { dir, generate } = opts.shape
      ? { dir: `${opts.shape}-${opts.scale}`, generate: { shape: opts.shape, scale: opts.scale } }
      : { dir: `${opts.entities}-${opts.edges}`, generate: { entities: opts.entities!, edges: opts.edges! } };
    const outDir = path.join(os.tmpdir(), 'skb-bench', dir);
    const files = [path.join(outDir, 'entities.jsonl'), path.join(outDir, 'edges.tsv')];
    if (!files.every((f) => fs.existsSync(f))) {
      console.log(`Generating ${dir} into ${outDir} ...`);
      await generateKnowledgeBase({ ...generate, outDir });
    }
    console.log(`Importing into ${opts.database} as ${slug} ...`);
    const summary = await importKnowledgeBase(pool, nativeSource(files), { slug, format: 'native', files, replace: Boolean(kept), visibility: 'PUBLIC' });
    return { url, kbId: summary.kbId, slug };
  } finally {
    await pool.end();
  }
}

/** The degree from which an entity counts as a hub in the benchmarks, per shape (Amazon: categories with 100k+ products). */
export const HUB_DEGREE = { prime: 50_000, mag: 10_000, amazon: 100_000 } as Record<Shape, number>;

export interface BenchEntity { id: number; name: string; type: string; degree: number }

/**
 * The hubs: per entity type, the `perType` entities of the highest degree at or above `minDegree` (all of them when
 * `perType` is 0), read from the `(kb_id, type_id, degree DESC)` index; largest first. Per type, so that a shape
 * whose largest hubs are all of one type (MAG's fields of study) still measures its other hubs (highly cited papers).
 */
export async function chooseHubs(db: pg.Pool, kbId: number, minDegree: number, perType: number): Promise<BenchEntity[]> {
  const { rows } = await db.query<BenchEntity>(
    `SELECT h.id, h.name, t.name AS type, h.degree FROM node_type t CROSS JOIN LATERAL (
       SELECT id, name, degree FROM entity WHERE kb_id = $1 AND type_id = t.id AND degree >= $2 ORDER BY degree DESC LIMIT $3) h
      WHERE t.kb_id = $1 ORDER BY h.degree DESC, h.id`,
    [kbId, minDegree, perType > 0 ? perType : null],
  );
  return rows;
}

/**
 * The largest incoming groups of the hubs' relations (from the counts stored at import), e.g. the most cited
 * papers' citations or a category's products, for the report.
 */
export async function largestGroups(db: pg.Pool, kbId: number): Promise<string[]> {
  const { rows } = await db.query<{ type: string; relation: string; direction: string; n: number; largest: number }>(
    `SELECT et.name AS type, r.name AS relation, c.direction, count(*)::int AS n, max(c.count)::int AS largest
       FROM hub_relation_count c JOIN entity e ON e.kb_id = c.kb_id AND e.id = c.entity_id
       JOIN node_type et ON et.id = e.type_id JOIN edge_type r ON r.id = c.type_id
      WHERE c.kb_id = $1 AND c.count >= 10000 GROUP BY 1, 2, 3 ORDER BY largest DESC`,
    [kbId],
  );
  return rows.map((r) => `${r.type} ${r.direction === 'in' ? '←' : '→'} ${r.relation}: ${r.n.toLocaleString('en')} with 10k+ (largest ${r.largest.toLocaleString('en')})`);
}
