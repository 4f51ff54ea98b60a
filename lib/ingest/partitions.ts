import type pg from 'pg';

export type Queryable = Pick<pg.ClientBase, 'query'>;

export interface TableNames {
  entity: string;
  edge: string;
  /** Full-text search's narrow copy of the entities (see the migration 0004_search_table). */
  search: string;
}

/**
 * Each knowledge base's entities and edges live in their own partitions of `entity`, `edge` and
 * `entity_search` (`entity_kb_<kb id>`, `edge_kb_<kb id>`, `entity_search_kb_<kb id>`). An import fills standalone staging tables
 * (`entity_load_<job id>`, ...) without indexes, builds the indexes once at the end, and publishes
 * them by swapping partitions in one short transaction: attaching reuses the indexes and, thanks to the
 * CHECK constraint, scans nothing. Names derive from integer ids only; no user text reaches this SQL.
 */
export function liveTables(kbId: number): TableNames {
  return { entity: `entity_kb_${positive(kbId)}`, edge: `edge_kb_${positive(kbId)}`, search: `entity_search_kb_${positive(kbId)}` };
}

/** An import's tables; `vectors` holds the search table's tsvectors while they are computed ahead of it. */
export interface StagingTables extends TableNames {
  vectors: string;
}

export function stagingTables(jobId: number): StagingTables {
  const id = positive(jobId);
  return { entity: `entity_load_${id}`, edge: `edge_load_${id}`, search: `entity_search_load_${id}`, vectors: `entity_vector_load_${id}` };
}

function positive(id: number): number {
  if (!Number.isInteger(id) || id <= 0) throw new Error(`Not an id: ${id}`);
  return id;
}

/** The entity and edge staging tables; the search table is made from the loaded entities (`buildSearchTable`). */
export async function createStagingTables(db: Queryable, t: TableNames): Promise<void> {
  await db.query(`CREATE TABLE ${t.entity} (LIKE entity INCLUDING DEFAULTS)`);
  await db.query(`CREATE TABLE ${t.edge} (LIKE edge INCLUDING DEFAULTS)`);
}

/**
 * The table that computes the search table's tsvectors as entities are first read: a row copied in with its name
 * and text is stored with their vectors alone (the trigger `entity_vector_row`, migration 0040). Unlogged: it lives
 * only until the search table is made, and recovery drops it with the other staging tables.
 */
export async function createVectorTable(db: Queryable, t: StagingTables): Promise<void> {
  await db.query(`CREATE UNLOGGED TABLE ${t.vectors} (id integer NOT NULL, name text, body text, name_search tsvector, search tsvector)`);
  await db.query(`CREATE TRIGGER ${t.vectors}_compute BEFORE INSERT ON ${t.vectors} FOR EACH ROW EXECUTE FUNCTION entity_vector_row()`);
}

/**
 * Memory for building an import's indexes (and a BM25 build's key), on PostgreSQL: with the default 64 MB a GIN
 * index over long documents is written in many small batches, and a sort spills to disk in many runs.
 */
export const INDEX_BUILD_MEMORY = '512MB';

/**
 * The indexes the partitioned parents declare (see the migrations), built once after the load. `keyed` runs once the
 * primary key exists: what reads the entities in id order (the import's BM25 build) can start while the rest are
 * built, which only share-lock the table.
 */
export async function buildEntityIndexes(db: Queryable, t: TableNames, kbId: number, keyed?: () => Promise<void>): Promise<void> {
  await runAll(db, [
    `ALTER TABLE ${t.entity} ADD CONSTRAINT ${t.entity}_kb CHECK (kb_id = ${positive(kbId)})`,
    `ALTER TABLE ${t.entity} ADD CONSTRAINT ${t.entity}_pkey PRIMARY KEY (kb_id, id)`,
  ]);
  await keyed?.();
  await runAll(db, [
    `CREATE UNIQUE INDEX ${t.entity}_external_id ON ${t.entity} (kb_id, external_id)`,
    `CREATE INDEX ${t.entity}_type_degree ON ${t.entity} (kb_id, type_id, degree DESC)`,
    `CREATE INDEX ${t.entity}_name_trgm ON ${t.entity} USING GIN (name gin_trgm_ops)`,
    `CREATE INDEX ${t.entity}_name_lower ON ${t.entity} (kb_id, lower(name) text_pattern_ops)`,
    `CREATE INDEX ${t.entity}_type_name ON ${t.entity} (kb_id, type_id, name)`,
    `CREATE INDEX ${t.entity}_type_id ON ${t.entity} (kb_id, type_id, id)`,
  ]);
}

/**
 * Fills the search table from the loaded entities, once their degrees are final, in descending degree
 * order: a broad query's best-connected matches are then the first the table holds (see searchFullText).
 * CREATE TABLE AS appends every row after the last; INSERT would put a later, smaller row into an earlier
 * page's free space, out of order. The tsvectors come from the vector table when the import filled one
 * (`vectors`, then dropped), else they are computed here from the entities' names and texts.
 */
export async function buildSearchTable(db: Queryable, t: TableNames, kbId: number, vectors?: string): Promise<void> {
  const rows = vectors
    ? `SELECT e.kb_id, e.id, e.type_id, e.degree, v.name_search, v.search FROM ${t.entity} e JOIN ${vectors} v ON v.id = e.id`
    : `SELECT kb_id, id, type_id, degree, entity_name_vector(name) AS name_search, entity_search_vector(name, text) AS search FROM ${t.entity}`;
  await runAll(db, [
    `CREATE TABLE ${t.search} AS SELECT * FROM (${rows}) r ORDER BY degree DESC, id`,
    ...(vectors ? [`DROP TABLE ${vectors}`] : []),
    `ALTER TABLE ${t.search} ALTER type_id SET NOT NULL, ALTER degree SET NOT NULL, ALTER name_search SET NOT NULL, ALTER search SET NOT NULL,
       ADD CONSTRAINT ${t.search}_kb CHECK (kb_id = ${positive(kbId)})`,
    `ALTER TABLE ${t.search} ADD CONSTRAINT ${t.search}_pkey PRIMARY KEY (kb_id, id)`,
    `CREATE INDEX ${t.search}_search ON ${t.search} USING GIN (search)`,
    `CREATE INDEX ${t.search}_name_search ON ${t.search} USING GIN (name_search)`,
    `CREATE INDEX ${t.search}_type_degree ON ${t.search} (kb_id, type_id, degree DESC, id)`,
  ]);
}

/** Fails with a unique violation (23505) when the same edge was loaded twice. */
export async function buildEdgeIndexes(db: Queryable, t: TableNames, kbId: number): Promise<void> {
  await runAll(db, [
    `ALTER TABLE ${t.edge} ADD CONSTRAINT ${t.edge}_pkey PRIMARY KEY (kb_id, source_id, type_id, target_id)`,
    `ALTER TABLE ${t.edge} ADD CONSTRAINT ${t.edge}_kb CHECK (kb_id = ${positive(kbId)})`,
    `CREATE INDEX ${t.edge}_target ON ${t.edge} (kb_id, target_id, type_id, source_id)`,
  ]);
}

async function runAll(db: Queryable, statements: string[]): Promise<void> {
  for (const sql of statements) await db.query(sql);
}

const INDEX_SUFFIXES = {
  entity: ['pkey', 'external_id', 'type_degree', 'name_trgm', 'name_lower', 'type_name', 'type_id'],
  edge: ['pkey', 'target'],
  search: ['pkey', 'search', 'name_search', 'type_degree'],
} as const;
const PARENTS = { entity: 'entity', edge: 'edge', search: 'entity_search' } as const;

async function exists(db: Queryable, table: string): Promise<boolean> {
  const { rows } = await db.query(`SELECT 1 FROM pg_class WHERE relname = $1 AND relkind = 'r'`, [table]);
  return rows.length > 0;
}

/** Swaps the staging tables in as the knowledge base's partitions; call inside a transaction. */
export async function publishPartitions(db: Queryable, kbId: number, staging: TableNames): Promise<void> {
  const live = liveTables(kbId);
  for (const kind of ['edge', 'entity', 'search'] as const) {
    if (await exists(db, live[kind])) {
      await db.query(`ALTER TABLE ${PARENTS[kind]} DETACH PARTITION ${live[kind]}`);
      await db.query(`DROP TABLE ${live[kind]}`);
    }
    await db.query(`ALTER TABLE ${staging[kind]} RENAME TO ${live[kind]}`);
    // Indexes and constraints follow the table's name, so a DBA reading the catalog is not misled.
    for (const suffix of INDEX_SUFFIXES[kind]) await db.query(`ALTER INDEX ${staging[kind]}_${suffix} RENAME TO ${live[kind]}_${suffix}`);
    await db.query(`ALTER TABLE ${live[kind]} RENAME CONSTRAINT ${staging[kind]}_kb TO ${live[kind]}_kb`);
    await db.query(`ALTER TABLE ${PARENTS[kind]} ATTACH PARTITION ${live[kind]} FOR VALUES IN (${positive(kbId)})`);
  }
}

/** Drops tables that may or may not exist: staging tables of a failed import, a deleted knowledge base's partitions. */
export async function dropTables(db: Queryable, t: TableNames | StagingTables): Promise<void> {
  await db.query(`DROP TABLE IF EXISTS ${[t.edge, t.entity, t.search, ...('vectors' in t ? [t.vectors] : [])].join(', ')}`);
}
