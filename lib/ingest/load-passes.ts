import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { once } from 'node:events';
import type pg from 'pg';
import { flattenDocument } from '../kb/document-text';
import type { IssueLog } from './issues';
import type { RowWriter } from './row-writer';
import { unstorableEdge, unstorableEntity } from './readers/fields';
import { singles } from './readers/text-input';
import { onSideConnection, type SideTask } from './side-connection';
import { IngestIssue, type KnowledgeSource } from './source';

export type Progress = (phase: 'entities' | 'edges' | 'indexes') => Promise<void>;
export interface Counters {
  rowsRead: number;
  entities: number;
  edges: number;
}

/** Type and relation names to ids, creating rows on first sight (reusing a replaced version's rows). */
export class NameRegistry {
  private readonly ids = new Map<string, number>();
  /** Small dense numbers for the ids, in order of first sight, to key counters cheaply. */
  readonly ordinals = new Map<number, number>();
  private readonly byOrdinal: number[] = [];

  // A pool, not the loading connection: that one may be busy streaming a COPY when a new name shows up.
  constructor(
    private readonly client: Pick<pg.Pool, 'query'>,
    private readonly table: 'node_type' | 'edge_type',
    private readonly kbId: number,
  ) {}

  /** The id of a name seen before, without a round trip (the per-row fast path). */
  known(name: string): number | undefined {
    return this.ids.get(name);
  }

  async id(name: string): Promise<number> {
    const known = this.ids.get(name);
    if (known !== undefined) return known;
    const { rows } = await this.client.query<{ id: number }>(
      `INSERT INTO ${this.table} (kb_id, name) VALUES ($1, $2)
       ON CONFLICT (kb_id, name) DO UPDATE SET name = EXCLUDED.name RETURNING id`,
      [this.kbId, name],
    );
    const id = rows[0]!.id;
    this.ids.set(name, id);
    this.ordinals.set(id, this.byOrdinal.length);
    this.byOrdinal.push(id);
    return id;
  }

  idOfOrdinal(ordinal: number): number {
    return this.byOrdinal[ordinal]!;
  }
}

/**
 * What the import knows about each entity while edges load: its id, type and degree, by the order the
 * entity was read. Memory grows with the number of entities (about 100 bytes each), never with edges.
 */
class EntityIndex {
  private readonly ordinal = new Map<string, number>();
  ids = new Int32Array(1024);
  types = new Int32Array(1024);
  degrees = new Int32Array(1024);
  size = 0;

  has(externalId: string): boolean {
    return this.ordinal.has(externalId);
  }

  add(externalId: string, id: number, typeOrdinal: number): void {
    if (this.size === this.ids.length) {
      const grow = (a: Int32Array) => {
        const b = new Int32Array(a.length * 2);
        b.set(a);
        return b;
      };
      this.ids = grow(this.ids);
      this.types = grow(this.types);
      this.degrees = grow(this.degrees);
    }
    this.ordinal.set(externalId, this.size);
    this.ids[this.size] = id;
    this.types[this.size] = typeOrdinal;
    this.size += 1;
  }

  find(externalId: string): number | undefined {
    return this.ordinal.get(externalId);
  }

  /** The map is not needed once edges are resolved; the arrays still are. */
  dropNames(): void {
    this.ordinal.clear();
  }
}

export interface LoadedStatistics {
  typeCounts: Map<number, number>;
  relationCounts: Map<number, number>;
  triples: { source: number; relation: number; target: number; n: number }[];
  degreeHistogram: { min: number; max: number; count: number }[];
}

/** Hands out entity ids from the shared sequence in blocks, so ids are known before rows are written. */
class IdAllocator {
  private next: number[] = [];
  constructor(private readonly client: Pick<pg.Pool, 'query'>) {}

  async take(): Promise<number> {
    if (this.next.length === 0) {
      const { rows } = await this.client.query<{ id: number }>(`SELECT nextval('entity_id_seq')::int AS id FROM generate_series(1, 5000)`);
      this.next = rows.map((r) => r.id).reverse();
    }
    return this.next.pop()!;
  }
}

/**
 * Loads a source in three passes: entities are read, checked and spooled to a temporary file; edges are resolved and
 * written while degrees and counts are tallied; then entities are written from the spool with their degrees. Each row
 * is written once and nothing is updated afterwards. `edgesStored` is called between the last two passes, when the
 * edge table is complete. Where the writer has the server compute the search vectors beside the load, the entities'
 * names and texts go to spools of their own, a row to each in turn, and a connection per spool copies from it as it
 * grows: the server computes them on the core this process's parsing leaves idle, at its own pace, whatever is left
 * overlaps the edges, and once this process waits (long documents: STaRK-Amazon's take longer to vectorise than to
 * read) on every core.
 */
export async function loadRows(pool: pg.Pool, kbId: number, source: KnowledgeSource, writer: RowWriter,
  types: NameRegistry, relations: NameRegistry, log: IssueLog, counters: Counters, progress: Progress,
  edgesStored?: () => Promise<void>): Promise<LoadedStatistics> {
  const spoolDir = fs.mkdtempSync(path.join(os.tmpdir(), 'skb-import-'));
  const spool = path.join(spoolDir, 'entities.jsonl');
  let entitySpool: SpoolFile | undefined;
  const vectorSpools: SpoolFile[] = [];
  const vectors: SideTask<void>[] = [];
  try {
    entitySpool = spoolFile(spool);
    const copier = writer.vectors;
    for (let k = 0; copier && k < copier.streams; k++) {
      const file = spoolFile(path.join(spoolDir, `vectors-${k}.copy`));
      vectorSpools.push(file);
      const chunks = file.follow();
      vectors.push(await onSideConnection(pool, (db) => copier.copy(db, chunks)));
    }
    const spooled = copier && { line: copier.line, files: vectorSpools };
    const index = await readEntities(pool, kbId, source, types, log, counters, progress, entitySpool, spooled);
    const tallies = await writeEdges(source, writer, relations, index, log, counters, progress);
    await edgesStored?.();
    index.dropNames();
    await writeEntities(spool, writer, index, progress);
    await Promise.all(vectors.map((v) => v.result));
    return statistics(index, types, relations, tallies);
  } catch (err) {
    entitySpool?.abandon();
    for (const file of vectorSpools) file.abandon();
    await Promise.all(vectors.map((v) => v.cancel()));
    throw err;
  } finally {
    fs.rmSync(spoolDir, { recursive: true, force: true });
  }
}

const FOLLOW_CHUNK = 8 * 1024 * 1024;
const FOLLOW_WAIT_MS = 20;

/**
 * A file written line by line; `write` returns a promise only when its buffer is full (an await per row would cost
 * more). `follow` reads it while it is written, in large chunks (a reader beside a busy loop gets few turns), and
 * ends once it is closed and read to the end.
 */
function spoolFile(file: string) {
  // Opened at once, so a reader can open it before the first write.
  const out = fs.createWriteStream(file, { fd: fs.openSync(file, 'w') });
  let closed = false;
  return {
    write(line: string): Promise<unknown> | undefined {
      return out.write(line) ? undefined : once(out, 'drain');
    },
    async close() {
      out.end();
      await once(out, 'finish');
      closed = true;
    },
    /** After a failure: the file is closed, and a reader stops at what it has. */
    abandon() {
      out.end();
      closed = true;
    },
    async *follow(): AsyncGenerator<Buffer> {
      const handle = await fs.promises.open(file, 'r');
      try {
        for (let position = 0; ;) {
          // Looked at before the size: a size taken after the close that adds nothing is the end.
          const ended = closed;
          const size = Math.min((await handle.stat()).size - position, FOLLOW_CHUNK);
          if (size > 0) {
            const { bytesRead, buffer } = await handle.read(Buffer.allocUnsafe(size), 0, size, position);
            position += bytesRead;
            yield buffer.subarray(0, bytesRead);
          } else if (ended) {
            return;
          } else {
            await new Promise((resolve) => setTimeout(resolve, FOLLOW_WAIT_MS));
          }
        }
      } finally {
        await handle.close();
      }
    },
  };
}
type SpoolFile = ReturnType<typeof spoolFile>;
type VectorSpools = Pick<NonNullable<RowWriter['vectors']>, 'line'> & { files: SpoolFile[] };

type Spooled = [id: number, typeId: number, externalId: string, name: string, aliases: string[], document: string, text: string];

async function readEntities(pool: pg.Pool, kbId: number, source: KnowledgeSource, types: NameRegistry, log: IssueLog,
  counters: Counters, progress: Progress, out: SpoolFile, vectors: VectorSpools | undefined): Promise<EntityIndex> {
  const previous = await previousIds(pool, kbId);
  const allocator = new IdAllocator(pool);
  const index = new EntityIndex();
  await progress('entities');
  for await (const item of source.entities()) {
    counters.rowsRead += 1;
    if (item instanceof IngestIssue) {
      log.add(item);
      continue;
    }
    const unfit = unstorableEntity(item);
    if (unfit) {
      log.add(new IngestIssue(item.at.file, item.at.line, item.at.line ? unfit : `entity ${JSON.stringify(item.externalId)}: ${unfit}`));
      continue;
    }
    if (index.has(item.externalId)) {
      log.add(new IngestIssue(item.at.file, item.at.line, `duplicate entity id "${item.externalId}"`));
      continue;
    }
    const typeId = types.known(item.type) ?? (await types.id(item.type));
    if (types.ordinals.size > KEY_BASE) throw new IngestIssue(item.at.file, item.at.line, `more than ${KEY_BASE} entity types`);
    const id = previous.get(item.externalId) ?? (await allocator.take());
    index.add(item.externalId, id, types.ordinals.get(typeId)!);
    const text = flattenDocument(item.name, item.type, item.document);
    const row: Spooled = [id, typeId, item.externalId, item.name, item.aliases, JSON.stringify(item.document), text];
    const spooled = out.write(`${JSON.stringify(row)}\n`);
    if (spooled) await spooled;
    const queued = vectors?.files[index.size % vectors.files.length]!.write(vectors.line({ id, name: item.name, text }));
    if (queued) await queued;
    if (index.size % 5000 === 0) await progress('entities');
  }
  await out.close();
  for (const file of vectors?.files ?? []) await file.close();
  counters.entities = index.size;
  return index;
}

/**
 * Internal ids of the version being replaced, by external id, so unchanged entities keep theirs. Read in
 * pages: at MAG size (1.9M entities) one result would hold every row as an object at once, on top of the map.
 */
export async function previousIds(client: Pick<pg.ClientBase, 'query'>, kbId: number, pageSize = 100_000): Promise<Map<string, number>> {
  const previous = new Map<string, number>();
  for (let after = 0; ; ) {
    const { rows } = await client.query<[string, number]>({
      text: 'SELECT external_id, id FROM entity WHERE kb_id = $1 AND id > $2 ORDER BY id LIMIT $3',
      values: [kbId, after, pageSize],
      rowMode: 'array',
    });
    for (const [externalId, id] of rows) previous.set(externalId, id);
    if (rows.length < pageSize) return previous;
    after = rows[rows.length - 1]![1];
  }
}

// Triple keys pack three ordinals below 2^17 each into one safe integer (< 2^51).
const KEY_BASE = 2 ** 17;

async function writeEdges(source: KnowledgeSource, writer: RowWriter, relations: NameRegistry, index: EntityIndex, log: IssueLog,
  counters: Counters, progress: Progress): Promise<Map<number, number>> {
  // Counts per (source type, relation, target type), keyed by their small ordinals.
  const triples = new Map<number, number>();
  // Each pass reports its phase as it starts, so the phase's time is its own rather than from its first progress on.
  await progress('edges');
  const sink = writer.edges();
  for await (const batch of source.edgeBatches?.() ?? singles(source.edges())) for (const item of batch) {
    counters.rowsRead += 1;
    if (item instanceof IngestIssue) {
      log.add(item);
      continue;
    }
    const unfit = unstorableEdge(item);
    if (unfit) {
      log.add(new IngestIssue(item.at.file, item.at.line, item.at.line ? unfit : `edge ${JSON.stringify(item.source)} -> ${JSON.stringify(item.target)}: ${unfit}`));
      continue;
    }
    const s = index.find(item.source);
    const t = index.find(item.target);
    if (s === undefined || t === undefined) {
      const missing = s === undefined ? `source "${item.source}"` : `target "${item.target}"`;
      log.add(new IngestIssue(item.at.file, item.at.line, `edge points to unknown entity: ${missing}`));
      continue;
    }
    const relationId = relations.known(item.relation) ?? (await relations.id(item.relation));
    if (relations.ordinals.size > KEY_BASE) throw new IngestIssue(item.at.file, item.at.line, `more than ${KEY_BASE} relation types`);
    const wait = sink.write({ sourceId: index.ids[s]!, typeId: relationId, targetId: index.ids[t]!, properties: item.properties ? JSON.stringify(item.properties) : null });
    if (wait) await wait;
    index.degrees[s]! += 1;
    index.degrees[t]! += 1;
    const key = (index.types[s]! * KEY_BASE + relations.ordinals.get(relationId)!) * KEY_BASE + index.types[t]!;
    triples.set(key, (triples.get(key) ?? 0) + 1);
    counters.edges += 1;
    if (counters.edges % 20_000 === 0) await progress('edges');
  }
  await sink.end();
  return triples;
}

async function writeEntities(spool: string, writer: RowWriter, index: EntityIndex, progress: Progress): Promise<void> {
  await progress('indexes');
  const sink = writer.entities();
  let ordinal = 0;
  for await (const line of readline.createInterface({ input: fs.createReadStream(spool), crlfDelay: Infinity })) {
    const [id, typeId, externalId, name, aliases, document, text] = JSON.parse(line) as Spooled;
    const wait = sink.write({ id, typeId, externalId, name, aliases, document, text, degree: index.degrees[ordinal]! });
    if (wait) await wait;
    ordinal += 1;
    if (ordinal % 20_000 === 0) await progress('indexes');
  }
  await sink.end();
}

/** Degree bucket b holds degree 0 (b = 0) or degrees 2^(b-1) .. 2^b - 1, as `floor(log2(d)) + 1`. */
export function degreeRange(bucket: number, count: number): { min: number; max: number; count: number } {
  return bucket === 0 ? { min: 0, max: 0, count } : { min: 2 ** (bucket - 1), max: 2 ** bucket - 1, count };
}

function statistics(index: EntityIndex, types: NameRegistry, relations: NameRegistry, triples: Map<number, number>): LoadedStatistics {
  const typeCounts = new Map<number, number>();
  const buckets = new Map<number, number>();
  for (let i = 0; i < index.size; i++) {
    const typeId = types.idOfOrdinal(index.types[i]!);
    typeCounts.set(typeId, (typeCounts.get(typeId) ?? 0) + 1);
    const d = index.degrees[i]!;
    // Power-of-two ranges: 0, 1, 2-3, 4-7, ... so hubs and leaves show on one chart.
    const bucket = d === 0 ? 0 : Math.floor(Math.log2(d)) + 1;
    buckets.set(bucket, (buckets.get(bucket) ?? 0) + 1);
  }
  const relationCounts = new Map<number, number>();
  const tripleList = [...triples].map(([key, n]) => {
    const target = types.idOfOrdinal(key % KEY_BASE);
    const relation = relations.idOfOrdinal(Math.floor(key / KEY_BASE) % KEY_BASE);
    const source = types.idOfOrdinal(Math.floor(key / KEY_BASE / KEY_BASE));
    relationCounts.set(relation, (relationCounts.get(relation) ?? 0) + n);
    return { source, relation, target, n };
  });
  const degreeHistogram = [...buckets].sort(([a], [b]) => a - b).map(([b, count]) => degreeRange(b, count));
  return { typeCounts, relationCounts, triples: tripleList, degreeHistogram };
}
