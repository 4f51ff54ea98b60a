import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { createVectorTable, type Queryable, type StagingTables, type TableNames } from './partitions';

export interface EntityRow {
  id: number;
  typeId: number;
  externalId: string;
  name: string;
  aliases: string[];
  document: string;
  text: string;
  degree: number;
}

/** An entity's name and text, for the search table's tsvectors. */
export interface VectorRow {
  id: number;
  name: string;
  text: string;
}

export interface EdgeRow {
  sourceId: number;
  typeId: number;
  targetId: number;
  properties: string | null;
}

/**
 * Accepts rows one at a time and gets them into a table; `end` waits until all are stored. `write`
 * returns a promise only when the caller must wait (a batch is being stored, or the stream is full):
 * millions of rows should not each cost an await.
 */
export interface RowSink<R> {
  write(row: R): Promise<void> | undefined;
  end(): Promise<void>;
}

export interface RowWriter {
  readonly method: 'copy' | 'unnest';
  entities(): RowSink<EntityRow>;
  edges(): RowSink<EdgeRow>;
  /**
   * Where the server computes the search vectors beside the load: the rows, spooled as entities are read (`line`), are
   * copied as they come (`copy`) on `streams` connections of their own, each a server process on a core: while this
   * process parses they use the core it leaves idle, and once it waits for them, both. Absent on the embedded
   * database, which has one thread, and where the pool has no connections to spare (`vectorStreams`).
   */
  vectors?: { streams: number; line(row: VectorRow): string; copy(db: Queryable, chunks: AsyncIterable<Buffer>): Promise<void> };
}

/** Connections copying search vectors at most: two server processes keep a 2-core machine busy once reading is done. */
const VECTOR_STREAMS = 2;

/**
 * How many vector streams an import on this pool may open. While it reads, the import holds its loading connection and
 * one per stream, and its progress, names and ids take one more from the pool: with none left, the reading waits for
 * a stream that waits for the reading. The edges' index build takes another after the edges are read. What is left
 * streams, up to `VECTOR_STREAMS`; with none, the vectors are computed when the search table is made.
 */
export function vectorStreams(pool: { options: { max?: number } }): number {
  return Math.max(0, Math.min(VECTOR_STREAMS, (pool.options.max ?? 10) - 3));
}

/**
 * Writes rows into an import's staging tables: one COPY stream per table where the server takes it
 * (PostgreSQL; the server stores rows while this process parses the next), batched
 * `INSERT ... SELECT FROM unnest(...)` on the embedded PGlite, whose socket cannot carry COPY.
 * With COPY the server also computes the search vectors while this process reads the entities, on a core the
 * reading leaves idle; PGlite has one thread, so there they are computed with the search table.
 */
export async function rowWriter(client: pg.PoolClient, kbId: number, tables: StagingTables, opts: { prefer?: 'copy' | 'unnest'; vectorStreams: number }): Promise<RowWriter> {
  const { rows } = await client.query<{ version: string }>('SELECT version()');
  const method = opts.prefer ?? (rows[0]!.version.includes('PGlite') ? 'unnest' : 'copy');
  if (method === 'unnest') return unnestWriter(client, kbId, tables);
  if (opts.vectorStreams > 0) await createVectorTable(client, tables);
  return copyWriter(client, kbId, tables, opts.vectorStreams);
}

function batchSink<R>(size: number, flush: (rows: R[]) => Promise<unknown>): RowSink<R> {
  let batch: R[] = [];
  return {
    write(row) {
      batch.push(row);
      if (batch.length < size) return undefined;
      const full = batch;
      batch = [];
      return flush(full).then(() => {});
    },
    async end() {
      if (batch.length) await flush(batch);
      batch = [];
    },
  };
}

function unnestWriter(client: pg.PoolClient, kbId: number, t: TableNames): RowWriter {
  return {
    method: 'unnest',
    entities: () =>
      batchSink<EntityRow>(2_000, (rows) =>
        // Arrays of arrays would be flattened by unnest, so aliases travel as JSON text.
        client.query(
          `INSERT INTO ${t.entity} (id, kb_id, type_id, external_id, name, aliases, document, text, degree)
           SELECT i, $1, ty, x, n, ARRAY(SELECT jsonb_array_elements_text(a::jsonb)), d::json, tx, dg
             FROM unnest($2::int[], $3::int[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::int[])
                  AS u(i, ty, x, n, a, d, tx, dg)`,
          [kbId, rows.map((r) => r.id), rows.map((r) => r.typeId), rows.map((r) => r.externalId), rows.map((r) => r.name),
            rows.map((r) => JSON.stringify(r.aliases)), rows.map((r) => r.document), rows.map((r) => r.text), rows.map((r) => r.degree)],
        )),
    edges: () =>
      batchSink<EdgeRow>(20_000, (rows) =>
        client.query(
          `INSERT INTO ${t.edge} (kb_id, source_id, type_id, target_id, properties)
           SELECT $1, s, ty, o, p::jsonb FROM unnest($2::int[], $3::int[], $4::int[], $5::text[]) AS u(s, ty, o, p)`,
          [kbId, rows.map((r) => r.sourceId), rows.map((r) => r.typeId), rows.map((r) => r.targetId), rows.map((r) => r.properties)],
        )),
  };
}

/** COPY text format: backslash, tab, newline and carriage return escaped; \N is NULL. */
export function copyField(value: string | null): string {
  if (value === null) return '\\N';
  return value.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r'));
}

/** A text[] literal: every element double-quoted, with quotes and backslashes escaped. */
export function arrayLiteral(items: string[]): string {
  return `{${items.map((s) => `"${s.replace(/[\\"]/g, (c) => `\\${c}`)}"`).join(',')}}`;
}

/** Waits for a full stream to drain, or for its error; removes whichever listener did not fire. */
function drained(stream: NodeJS.WritableStream): Promise<void> {
  return new Promise((resolve, reject) => {
    const onDrain = () => {
      stream.off('error', onError);
      resolve();
    };
    const onError = (err: Error) => {
      stream.off('drain', onDrain);
      reject(err);
    };
    stream.once('drain', onDrain);
    stream.once('error', onError);
  });
}

function copySink<R>(client: pg.PoolClient, sql: string, line: (row: R) => string): RowSink<R> {
  let stream: ReturnType<typeof copyFrom> | undefined;
  let failure: Error | undefined;
  // Lines are gathered into chunks of this size: one write per row would cost more than the row.
  const CHUNK = 256 * 1024;
  let pending = '';
  const open = () => {
    stream = client.query(copyFrom(sql));
    stream.on('error', (err: Error) => (failure = err));
    return stream;
  };
  const push = async (text: string) => {
    const s = stream ?? open();
    if (failure) throw failure;
    if (!s.write(text)) await drained(s);
    if (failure) throw failure;
  };
  return {
    write(row) {
      pending += line(row);
      if (pending.length < CHUNK) return undefined;
      const text = pending;
      pending = '';
      return push(text);
    },
    async end() {
      if (pending) await push(pending);
      pending = '';
      if (!stream) return;
      const s = stream;
      await new Promise<void>((resolve, reject) => {
        s.on('finish', resolve);
        s.on('error', reject);
        s.end();
      });
      if (failure) throw failure;
    },
  };
}

function copyWriter(client: pg.PoolClient, kbId: number, t: StagingTables, vectorStreams: number): RowWriter {
  const vectors: RowWriter['vectors'] = {
    streams: vectorStreams,
    line: (r) => `${r.id}\t${copyField(r.name)}\t${copyField(r.text)}\n`,
    copy: (db, chunks) => pipeline(Readable.from(chunks), db.query(copyFrom(`COPY ${t.vectors} (id, name, body) FROM STDIN`))),
  };
  return {
    method: 'copy',
    entities: () =>
      copySink<EntityRow>(client, `COPY ${t.entity} (id, kb_id, type_id, external_id, name, aliases, document, text, degree) FROM STDIN`, (r) =>
        `${r.id}\t${kbId}\t${r.typeId}\t${copyField(r.externalId)}\t${copyField(r.name)}\t${copyField(arrayLiteral(r.aliases))}\t${copyField(r.document)}\t${copyField(r.text)}\t${r.degree}\n`),
    edges: () =>
      copySink<EdgeRow>(client, `COPY ${t.edge} (kb_id, source_id, type_id, target_id, properties) FROM STDIN`, (r) =>
        `${kbId}\t${r.sourceId}\t${r.typeId}\t${r.targetId}\t${copyField(r.properties)}\n`),
    ...(vectorStreams > 0 ? { vectors } : {}),
  };
}
