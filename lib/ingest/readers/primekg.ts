import fs from 'node:fs';
import path from 'node:path';
import { IngestIssue, type EdgeRecord, type EntityRecord, type KnowledgeSource } from '../source';
import { ByteCounter, displayName, readDelimited, readJsonLines } from './text-input';
import { nodeIndexText } from './text-graph';

const FULL_HEADER = ['relation', 'display_relation', 'x_index', 'x_id', 'x_type', 'x_name', 'x_source', 'y_index', 'y_id', 'y_type', 'y_name', 'y_source'];
const SUBSET_HEADER = ['display_relation', 'x_index', 'x_type', 'x_name', 'y_index', 'y_type', 'y_name'];

interface Endpoint {
  id: string;
  type: string;
  name: string;
  /** Only in the full header: the id in the source database (x_id) and that database (x_source). */
  origin: { source_id: string; source: string } | null;
}

interface Row {
  relation: string;
  x: Endpoint;
  y: Endpoint;
}

/**
 * PrimeKG's `kg.csv` (docs/formats.md), one edge a row, with the full header or the column subset
 * `display_relation,x_index,x_type,x_name,y_index,y_type,y_name`. There is no entity file: entities are
 * the rows' endpoints, identified by node_index. Pass 1 reads the kg file and yields each endpoint the
 * first time it is seen; it remembers every id with its type and name, so memory grows with the number of
 * entities (129k for all of PrimeKG) but not with the number of edges. Pass 2 reads the kg file again.
 *
 * An optional `.jsonl` file gives entity text: lines `{"id": <node_index>, ...fields}`, whose fields become
 * the document, or text-graph nodes `{node_index, node_attr, ...}`, whose node_attr becomes the
 * description. It is read whole into memory before the kg file; text for an id no row mentions is unused.
 */
export function primekgSource(files: string[]): KnowledgeSource {
  const kgFiles = files.filter((f) => /\.csv$/i.test(f));
  const textFiles = files.filter((f) => /\.jsonl$/i.test(f));
  const other = files.filter((f) => !kgFiles.includes(f) && !textFiles.includes(f));
  if (other.length) throw new Error(`PrimeKG format: ${other.map((f) => path.basename(f)).join(', ')} is neither the kg file (.csv) nor entity text (.jsonl)`);
  if (kgFiles.length !== 1) throw new Error(`PrimeKG format: expected exactly one kg file (.csv), got ${kgFiles.length}`);
  const kgFile = kgFiles[0]!;
  const size = (f: string) => fs.statSync(f).size;
  const counter = new ByteCounter(2 * size(kgFile) + textFiles.reduce((sum, f) => sum + size(f), 0));
  // Both passes read the same rows: a row reported in pass 1 is skipped quietly in pass 2.
  const reported = new Set<number>();

  return {
    progress: () => ({ done: counter.done, total: counter.total }),
    async *entities() {
      const texts = new Map<string, Record<string, unknown>>();
      for (const file of textFiles) yield* readTexts(file, counter, texts);
      const seen = new Map<string, { type: string; name: string }>();
      const name = displayName(kgFile);
      for await (const item of readKg(kgFile, counter)) {
        if (item instanceof IngestIssue) {
          reported.add(item.line);
          yield item;
          continue;
        }
        for (const end of [item.row.x, item.row.y]) {
          const known = seen.get(end.id);
          if (!known) {
            seen.set(end.id, { type: end.type, name: end.name });
            yield entityOf(end, texts, { file: name, line: item.line });
            continue;
          }
          const change = changeOf(known, end);
          if (change) {
            reported.add(item.line);
            yield new IngestIssue(name, item.line, `node ${end.id} has ${change} where it was first seen`);
            break;
          }
        }
      }
    },
    async *edges() {
      for await (const item of readKg(kgFile, counter)) {
        if (reported.has(item.line)) continue;
        yield item instanceof IngestIssue ? item : edgeOf(item.row, displayName(kgFile), item.line);
      }
    },
  };
}

/** How a node seen again differs from its first sighting, or null if it does not. */
function changeOf(known: { type: string; name: string }, end: Endpoint): string | null {
  if (known.type !== end.type) return `type "${end.type}" here but "${known.type}"`;
  if (known.name !== end.name) return `name "${end.name}" here but "${known.name}"`;
  return null;
}

function entityOf(end: Endpoint, texts: Map<string, Record<string, unknown>>, at: EntityRecord['at']): EntityRecord {
  const text = texts.get(end.id) ?? {};
  // Each id is yielded once, so its text is not needed again.
  texts.delete(end.id);
  return { externalId: end.id, type: end.type, name: end.name, aliases: [], document: { ...text, ...end.origin }, at };
}

function edgeOf(row: Row, file: string, line: number): EdgeRecord {
  return { source: row.x.id, relation: row.relation, target: row.y.id, properties: null, at: { file, line } };
}

/** Rows of the kg file; a header that is neither PrimeKG header is thrown, as no row can be read. */
async function* readKg(file: string, counter: ByteCounter): AsyncGenerator<{ line: number; row: Row } | IngestIssue> {
  const name = displayName(file);
  let header: string[] | null = null;
  for await (const item of readDelimited(file, counter)) {
    if (item instanceof IngestIssue) {
      yield item;
      continue;
    }
    if (!header) {
      header = item.fields.map((f) => f.trim());
      const found = header.join(',');
      if (found !== FULL_HEADER.join(',') && found !== SUBSET_HEADER.join(',')) {
        throw new IngestIssue(name, item.line, `expected the PrimeKG header "${FULL_HEADER.join(',')}" or "${SUBSET_HEADER.join(',')}", found "${found}"`);
      }
      continue;
    }
    // Names are kept as written, as the other readers keep them (some PrimeKG names end in a space).
    const columns = new Map(header.map((h, i) => [h, h.endsWith('_name') ? item.fields[i]! : item.fields[i]!.trim()]));
    const row = rowOf(columns, name, item.line);
    yield row instanceof IngestIssue ? row : { line: item.line, row };
  }
}

function rowOf(columns: Map<string, string>, file: string, line: number): Row | IngestIssue {
  // display_relation is the readable form ("interacts with"); relation ("drug_drug") stands in if it is empty.
  const relation = columns.get('display_relation') || columns.get('relation');
  if (!relation) return new IngestIssue(file, line, columns.has('relation') ? 'fields "display_relation" and "relation" are both empty' : 'field "display_relation" must not be empty');
  const x = endpointOf(columns, 'x', file, line);
  if (x instanceof IngestIssue) return x;
  const y = endpointOf(columns, 'y', file, line);
  if (y instanceof IngestIssue) return y;
  return { relation, x, y };
}

function endpointOf(columns: Map<string, string>, side: 'x' | 'y', file: string, line: number): Endpoint | IngestIssue {
  const index = columns.get(`${side}_index`)!;
  const id = nodeIndexText(index);
  if (id === null) return new IngestIssue(file, line, `field "${side}_index" must be a non-negative integer, found "${index}"`);
  const type = columns.get(`${side}_type`)!;
  if (!type) return new IngestIssue(file, line, `field "${side}_type" must not be empty`);
  const name = columns.get(`${side}_name`)!;
  const origin = columns.has(`${side}_id`) ? { source_id: columns.get(`${side}_id`)!, source: columns.get(`${side}_source`)! } : null;
  return { id, type, name, origin };
}

/** Reads an entity text file into `texts`, yielding the lines that cannot be used. */
async function* readTexts(file: string, counter: ByteCounter, texts: Map<string, Record<string, unknown>>): AsyncGenerator<IngestIssue> {
  const name = displayName(file);
  for await (const item of readJsonLines(file, counter)) {
    if (item instanceof IngestIssue) {
      yield item;
      continue;
    }
    const text = textOf(item.value, name, item.line);
    if (text instanceof IngestIssue) {
      yield text;
    } else if (texts.has(text.id)) {
      yield new IngestIssue(name, item.line, `text for node ${text.id} is given twice`);
    } else {
      texts.set(text.id, text.document);
    }
  }
}

function textOf(v: Record<string, unknown>, file: string, line: number): { id: string; document: Record<string, unknown> } | IngestIssue {
  if ('node_index' in v) {
    const id = nodeIndexText(v.node_index);
    if (id === null) return new IngestIssue(file, line, 'field "node_index" must be a non-negative integer');
    if (typeof v.node_attr !== 'string') return new IngestIssue(file, line, 'field "node_attr" must be a string');
    return { id, document: { description: v.node_attr } };
  }
  const { id: raw, ...document } = v;
  const id = nodeIndexText(raw);
  if (id === null) return new IngestIssue(file, line, 'field "id" must be a PrimeKG node index (a non-negative integer)');
  return { id, document };
}
