import { from as copyFrom } from 'pg-copy-streams';
import { inTransaction, type Database, type Queryable } from '../db/transaction';
import { isEmbeddedDatabase } from '../ingest/embedded-ceiling';
import { INDEX_BUILD_MEMORY } from '../ingest/partitions';
import { adjacencyHex } from './bm25-adjacent';
import { BlockBuilder, type BlockRows } from './bm25-blocks';

/** One page of an index build: postings grouped by term (entity ids rising within each) with their adjacency, and document lengths. */
export interface PostingPage {
  term: number[];
  entity: number[];
  tf: number[];
  adjacent: number[];
  lengths: { entity: number[]; length: number[] };
}

/** An index's own partition of `bm25_block` (see the migration 0036_bm25_posting_blocks); ids only, no user text. */
function blockTable(indexId: number): string {
  if (!Number.isInteger(indexId) || indexId <= 0) throw new Error(`Not an index id: ${indexId}`);
  return `bm25_block_${indexId}`;
}

/**
 * Postings gathered in memory before they are cut into blocks and written (12 bytes each as 32-bit arrays, and
 * 2 of adjacency: about 110 MB). A term gets a block per segment it occurs in, so larger segments mean fewer, fuller blocks.
 */
const SEGMENT_POSTINGS = 8_000_000;
/** Postings written per statement. */
const WRITE_POSTINGS = 200_000;

/**
 * Creates a build's block table: no index while it fills; its CHECK lets attaching it skip a scan. Deleting
 * the index row drops it (by trigger), so a build that dies leaves nothing behind its BUILDING row.
 */
export async function createPostingTable(db: Queryable, indexId: number): Promise<void> {
  const table = blockTable(indexId);
  await db.query(`CREATE TABLE ${table} (LIKE bm25_block INCLUDING STORAGE, CONSTRAINT ${table}_index_id CHECK (index_id = ${indexId}))`);
}

export interface PostingWriter {
  /** Records a page's document lengths, and gathers its postings, writing a segment of blocks when enough are gathered. */
  write(page: PostingPage): Promise<void>;
  /**
   * Once every page is written: the last segment's blocks, the primary key, built in one sort, and the table
   * attached as the index's partition of `bm25_block`, where scoring reads it. Then `VACUUM (ANALYZE)`: fresh
   * statistics (planned on an empty table's estimates, lookups take a hundred times longer) and a visibility map.
   */
  finish(): Promise<void>;
}

const arrayLiteral = (values: Int32Array) => `{${values.join(',')}}`;

/**
 * Writes a build's blocks into its table: by COPY where the server takes it (PostgreSQL), by `INSERT ... SELECT
 * FROM unnest(...)` on the embedded PGlite, whose socket cannot carry COPY. Segments are cut in page order, so
 * a term's blocks go in with their entity ids rising.
 */
export async function postingWriter(db: Database, indexId: number): Promise<PostingWriter> {
  const embedded = await isEmbeddedDatabase(db);
  const table = blockTable(indexId);
  const blocks = new BlockBuilder();
  const writeRows = async (rows: BlockRows, from: number, to: number) => {
    if (!embedded) {
      let text = '';
      // COPY's text format reads `\\x` as the start of a hex bytea.
      for (let i = from; i < to; i++) text += `${indexId}\t${rows.term[i]}\t${rows.last[i]}\t${arrayLiteral(rows.entities[i]!)}\t${arrayLiteral(rows.tfs[i]!)}\t\\\\x${adjacencyHex(rows.adjacent[i]!)}\n`;
      const client = await db.connect();
      try {
        const stream = client.query(copyFrom(`COPY ${table} (index_id, term_id, last_entity, entity_ids, tfs, adjacent) FROM STDIN`));
        await new Promise<void>((resolve, reject) => {
          stream.on('finish', resolve);
          stream.on('error', reject);
          stream.end(text);
        });
      } finally {
        client.release();
      }
    } else {
      await db.query(`INSERT INTO ${table} (index_id, term_id, last_entity, entity_ids, tfs, adjacent) SELECT $1, t, l, e::int[], f::int[], decode(a, 'hex')
          FROM unnest($2::int[], $3::int[], $4::text[], $5::text[], $6::text[]) AS u(t, l, e, f, a)`,
      [indexId, rows.term.slice(from, to), rows.last.slice(from, to), rows.entities.slice(from, to).map(arrayLiteral), rows.tfs.slice(from, to).map(arrayLiteral),
        rows.adjacent.slice(from, to).map(adjacencyHex)]);
    }
  };
  const writeSegment = async (rows: BlockRows) => {
    for (let from = 0; from < rows.term.length;) {
      let to = from;
      for (let n = 0; to < rows.term.length && n < WRITE_POSTINGS; to++) n += rows.entities[to]!.length;
      await writeRows(rows, from, to);
      from = to;
    }
  };
  const write = async (page: PostingPage) => {
    // Gathered before the first await, so segments keep page order whatever the writes' order.
    blocks.add(page);
    const segment = blocks.size >= SEGMENT_POSTINGS ? blocks.cut() : null;
    await db.query('INSERT INTO bm25_doc (index_id, entity_id, length) SELECT $1, * FROM unnest($2::int[], $3::int[])', [indexId, page.lengths.entity, page.lengths.length]);
    if (segment) await writeSegment(segment);
  };
  const finish = async () => {
    await writeSegment(blocks.cut());
    await inTransaction(db, async (client) => {
      // The embedded database (at most 2 GiB in all) keeps its default.
      if (!embedded) await client.query(`SET LOCAL maintenance_work_mem = '${INDEX_BUILD_MEMORY}'`);
      await client.query(`ALTER TABLE ${table} ADD CONSTRAINT ${table}_pkey PRIMARY KEY (index_id, term_id, last_entity)`);
      await client.query(`ALTER TABLE bm25_block ATTACH PARTITION ${table} FOR VALUES IN (${indexId})`);
    });
    await db.query(`VACUUM (ANALYZE) ${table}`);
  };
  return { write, finish };
}
