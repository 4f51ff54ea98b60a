import { from as copyFrom } from 'pg-copy-streams';
import { inTransaction, type Database, type Queryable } from '../db/transaction';
import { isEmbeddedDatabase } from '../ingest/embedded-ceiling';
import { INDEX_BUILD_MEMORY } from '../ingest/partitions';

/** One page of an index build: postings grouped by term (entity ids rising within each), and document lengths. */
export interface PostingPage {
  term: number[];
  entity: number[];
  tf: number[];
  lengths: { entity: number[]; length: number[] };
}

/** An index's own partition of `bm25_posting` (see the migration 0035_bm25_posting_partitions); ids only, no user text. */
function postingTable(indexId: number): string {
  if (!Number.isInteger(indexId) || indexId <= 0) throw new Error(`Not an index id: ${indexId}`);
  return `bm25_posting_${indexId}`;
}

/**
 * Creates a build's postings table: no index while it fills; its CHECK lets attaching it skip a scan. Deleting
 * the index row drops it (by trigger), so a build that dies leaves nothing behind its BUILDING row.
 */
export async function createPostingTable(db: Queryable, indexId: number): Promise<void> {
  const table = postingTable(indexId);
  await db.query(`CREATE TABLE ${table} (LIKE bm25_posting, CONSTRAINT ${table}_index_id CHECK (index_id = ${indexId}))`);
}

export interface PostingWriter {
  write(page: PostingPage): Promise<void>;
  /**
   * Once every page is written: the primary key, built in one sort, and the table attached as the index's
   * partition of `bm25_posting`, where scoring reads it. Then `VACUUM (ANALYZE)`: fresh statistics (planned on
   * an empty table's estimates, lookups take a hundred times longer) and a visibility map, so the first
   * lookups are index-only rather than visiting the heap.
   */
  finish(): Promise<void>;
}

/**
 * Writes a build's pages into its postings table: by COPY where the server takes it (PostgreSQL; about twice
 * the rows per second of an INSERT), by `INSERT ... SELECT FROM unnest(...)` on the embedded PGlite, whose
 * socket cannot carry COPY. Each page is its own statement.
 */
export async function postingWriter(db: Database, indexId: number): Promise<PostingWriter> {
  const embedded = await isEmbeddedDatabase(db);
  const table = postingTable(indexId);
  const write = async (page: PostingPage) => {
    if (!embedded) {
      let text = '';
      for (let i = 0; i < page.term.length; i++) text += `${indexId}\t${page.term[i]}\t${page.entity[i]}\t${page.tf[i]}\n`;
      const client = await db.connect();
      try {
        const stream = client.query(copyFrom(`COPY ${table} (index_id, term_id, entity_id, tf) FROM STDIN`));
        await new Promise<void>((resolve, reject) => {
          stream.on('finish', resolve);
          stream.on('error', reject);
          stream.end(text);
        });
      } finally {
        client.release();
      }
    } else {
      await db.query(`INSERT INTO ${table} (index_id, term_id, entity_id, tf) SELECT $1, * FROM unnest($2::int[], $3::int[], $4::int[])`,
        [indexId, page.term, page.entity, page.tf]);
    }
    await db.query('INSERT INTO bm25_doc (index_id, entity_id, length) SELECT $1, * FROM unnest($2::int[], $3::int[])', [indexId, page.lengths.entity, page.lengths.length]);
  };
  const finish = async () => {
    await inTransaction(db, async (client) => {
      // The embedded database (at most 2 GiB in all) keeps its default.
      if (!embedded) await client.query(`SET LOCAL maintenance_work_mem = '${INDEX_BUILD_MEMORY}'`);
      await client.query(`ALTER TABLE ${table} ADD CONSTRAINT ${table}_pkey PRIMARY KEY (index_id, term_id, entity_id)`);
      await client.query(`ALTER TABLE bm25_posting ATTACH PARTITION ${table} FOR VALUES IN (${indexId})`);
    });
    await db.query(`VACUUM (ANALYZE) ${table}`);
  };
  return { write, finish };
}
