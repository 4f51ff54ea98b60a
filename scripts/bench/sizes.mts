// What a knowledge base costs on disk: rows, table and index sizes of its partitions (entity, edge, entity_search),
// its BM25 ranking index and its stored hub counts, in all and per million edges. Reads only.
//
//   npx tsx scripts/bench/sizes.mts [--database URL or name] [--kb slug] [--json]
//
// --database: a connection string, or a database name on DATABASE_URL's server (default: DATABASE_URL itself).
// --kb: one knowledge base (default: every one in the database).
//
// The BM25 and hub-count tables are shared by all knowledge bases; a knowledge base's part of them is its rows'
// share of each table's size (exact when it is the only one there, as in a benchmark database).
import { parseArgs } from 'node:util';
import pg from 'pg';

const { values } = parseArgs({ options: { database: { type: 'string' }, kb: { type: 'string' }, json: { type: 'boolean', default: false } } });

function connectionString(): string {
  const base = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
  const given = values.database;
  if (!given) return base;
  if (/^postgres(ql)?:\/\//.test(given)) return given;
  const url = new URL(base);
  url.pathname = `/${given}`;
  return url.toString();
}

interface Part {
  /** What it is: a partition, a share of a shared table. */
  name: string;
  rows: number;
  /** Heap, TOAST and maps; `toastBytes` of it are TOAST (long documents and tsvectors stored out of line). */
  tableBytes: number;
  toastBytes: number;
  indexBytes: number;
  /** Approximate: a share of a table other knowledge bases' rows are in too. */
  estimated: boolean;
  indexes?: { name: string; bytes: number }[];
}

interface KbSizes {
  slug: string;
  entities: number;
  edges: number;
  /** Tokens of the ranking index's documents (its analyzer's), when one is built. */
  tokens: number | null;
  parts: Part[];
  databaseBytes: number;
}

const pool = new pg.Pool({ connectionString: connectionString(), max: 2 });
const num = (v: unknown) => Number(v ?? 0);

/** A partition's table bytes (with TOAST) and each index's bytes; `rows` as the knowledge base records them. */
async function partition(kind: string, table: string, rows: number): Promise<Part | null> {
  const { rows: [rel] } = await pool.query<{ oid: number; table_bytes: string; toast_bytes: string; index_bytes: string }>(
    `SELECT c.oid, pg_table_size(c.oid) AS table_bytes, pg_indexes_size(c.oid) AS index_bytes,
            CASE WHEN c.reltoastrelid = 0 THEN 0 ELSE pg_total_relation_size(c.reltoastrelid) END AS toast_bytes
       FROM pg_class c WHERE c.relname = $1 AND c.relkind = 'r'`, [table]);
  if (!rel) return null;
  const { rows: indexes } = await pool.query<{ name: string; bytes: string }>(
    `SELECT i.relname AS name, pg_relation_size(i.oid) AS bytes FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
      WHERE x.indrelid = $1 ORDER BY pg_relation_size(i.oid) DESC`, [rel.oid]);
  return {
    name: kind, rows, tableBytes: num(rel.table_bytes), toastBytes: num(rel.toast_bytes), indexBytes: num(rel.index_bytes), estimated: false,
    indexes: indexes.map((i) => ({ name: i.name.slice(table.length + 1) || i.name, bytes: num(i.bytes) })),
  };
}

/**
 * The knowledge base's rows of a shared table (`where` on its columns, $1 the key) and that share of the table's
 * size; `othersThere` says whether other knowledge bases' rows are in it (else the whole table is its own).
 */
async function share(name: string, table: string, where: string, key: number[], othersThere: boolean): Promise<Part> {
  const { rows: [all] } = await pool.query<{ table_bytes: string; index_bytes: string }>(
    `SELECT pg_table_size($1::regclass) AS table_bytes, pg_indexes_size($1::regclass) AS index_bytes`, [table]);
  const n = num((await pool.query(`SELECT count(*) AS n FROM ${table} WHERE ${where}`, [key])).rows[0].n);
  const total = othersThere ? num((await pool.query(`SELECT count(*) AS n FROM ${table}`)).rows[0].n) : n;
  const fraction = total === 0 ? 0 : n / total;
  return { name, rows: n, tableBytes: Math.round(num(all!.table_bytes) * fraction), toastBytes: 0, indexBytes: Math.round(num(all!.index_bytes) * fraction), estimated: fraction < 1 && n > 0 };
}

async function measure(kb: { id: number; slug: string; entity_count: number; edge_count: string }): Promise<KbSizes> {
  const edges = num(kb.edge_count);
  const parts: Part[] = [];
  for (const [kind, table, rows] of [['entity', `entity_kb_${kb.id}`, kb.entity_count], ['edge', `edge_kb_${kb.id}`, edges], ['entity_search', `entity_search_kb_${kb.id}`, kb.entity_count]] as const) {
    const part = await partition(kind, table, rows);
    if (part) parts.push(part);
  }
  const { rows: indexes } = await pool.query<{ id: number; docs: number; avg_length: number }>(
    `SELECT id, docs, avg_length FROM bm25_index WHERE kb_id = $1 AND status = 'READY' ORDER BY id`, [kb.id]);
  const ids = indexes.map((i) => i.id);
  const otherIndexes = (await pool.query('SELECT 1 FROM bm25_index WHERE id <> ALL($1::int[]) LIMIT 1', [ids])).rowCount! > 0;
  // Each index's postings are its own partition of bm25_block, in blocks; its rows here are its postings.
  for (const id of ids) {
    const postings = num((await pool.query('SELECT sum(df) AS n FROM bm25_term WHERE index_id = $1', [id])).rows[0].n);
    const part = await partition('bm25_block', `bm25_block_${id}`, postings);
    if (part) parts.push(part);
  }
  for (const table of ['bm25_term', 'bm25_doc']) parts.push(await share(table, table, 'index_id = ANY($1::int[])', ids, otherIndexes));
  const otherHubs = (await pool.query('SELECT 1 FROM hub_relation_count WHERE kb_id <> $1 LIMIT 1', [kb.id])).rowCount! > 0;
  parts.push(await share('hub_relation_count', 'hub_relation_count', 'kb_id = ANY($1::int[])', [kb.id], otherHubs));
  const { rows: [db] } = await pool.query<{ bytes: string }>('SELECT pg_database_size(current_database()) AS bytes');
  const tokens = indexes.length ? Math.round(indexes[0]!.docs * indexes[0]!.avg_length) : null;
  return { slug: kb.slug, entities: kb.entity_count, edges, tokens, parts, databaseBytes: num(db!.bytes) };
}

const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(bytes < 10 * 1024 * 1024 ? 1 : 0);
const count = (n: number) => Math.round(n).toLocaleString('en');

function report(s: KbSizes): string {
  const perM = (n: number) => (s.edges > 0 ? n / (s.edges / 1e6) : NaN);
  const lines = [
    `## ${s.slug}: ${count(s.entities)} entities, ${count(s.edges)} edges${s.tokens === null ? '' : `, ${count(s.tokens)} tokens (BM25 analyzer)`}; database ${mb(s.databaseBytes)} MB`,
    '',
    '| part | rows | table MB | of it TOAST | indexes MB | total MB | rows per M edges | MB per M edges | bytes per row |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  let table = 0;
  let index = 0;
  for (const p of s.parts) {
    const total = p.tableBytes + p.indexBytes;
    table += p.tableBytes;
    index += p.indexBytes;
    const approx = p.estimated ? '≈' : '';
    lines.push(`| ${p.name} | ${count(p.rows)} | ${approx}${mb(p.tableBytes)} | ${mb(p.toastBytes)} | ${approx}${mb(p.indexBytes)} | ${approx}${mb(total)} | ${count(perM(p.rows))} | ${approx}${mb(perM(total))} | ${p.rows ? Math.round(total / p.rows) : '—'} |`);
  }
  lines.push(`| **all** | | ${mb(table)} | | ${mb(index)} | ${mb(table + index)} | | ${mb(perM(table + index))} | |`);
  lines.push('', 'Indexes:');
  for (const p of s.parts.filter((x) => x.indexes?.length)) lines.push(`- ${p.name}: ${p.indexes!.map((i) => `${i.name} ${mb(i.bytes)} MB`).join(', ')}`);
  return lines.join('\n');
}

try {
  const { rows: kbs } = await pool.query<{ id: number; slug: string; entity_count: number; edge_count: string }>(
    `SELECT id, slug, entity_count, edge_count FROM knowledge_base WHERE $1::text IS NULL OR slug = $1 ORDER BY id`, [values.kb ?? null]);
  if (kbs.length === 0) throw new Error(values.kb ? `No knowledge base "${values.kb}" in this database` : 'No knowledge base in this database');
  const all: KbSizes[] = [];
  for (const kb of kbs) all.push(await measure(kb));
  console.log(values.json ? JSON.stringify(all, null, 2) : all.map(report).join('\n\n'));
} finally {
  await pool.end();
}
