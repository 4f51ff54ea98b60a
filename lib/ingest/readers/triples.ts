import fs from 'node:fs';
import path from 'node:path';
import { IngestIssue, type EntityRecord, type KnowledgeSource } from '../source';
import { ByteCounter, displayName, readLines } from './text-input';

export interface TriplesOptions {
  /** The type of entities the types file does not name. */
  defaultType?: string;
}

interface Label {
  label: string;
  description: string | undefined;
}

const TRIPLE = ['head', 'relation', 'tail'];

/** A label or types file is told apart from triples by its name, e.g. `entity_labels.tsv`, `types.tsv`. */
const isLabels = (f: string) => /labels.*\.tsv$/i.test(path.basename(f));
const isTypes = (f: string) => /types.*\.tsv$/i.test(path.basename(f));

/**
 * Plain triples (docs/formats.md), CoDEx or Wikidata style: `.tsv` or `.txt` files of
 * `head<TAB>relation<TAB>tail` lines, no header. Entities are the heads and tails; pass 1 yields each the
 * first time it is seen and remembers every id, so memory grows with the number of entities.
 *
 * Optional `*labels*.tsv` files hold `id<TAB>label[<TAB>description]` and name entities and relations;
 * optional `*types*.tsv` files hold `id<TAB>type`. Both are read whole into memory in pass 1, and the
 * labels are kept for pass 2 to name relations.
 */
export function triplesSource(files: string[], opts: TriplesOptions = {}): KnowledgeSource {
  const labelFiles = files.filter(isLabels);
  const typeFiles = files.filter((f) => !isLabels(f) && isTypes(f));
  const tripleFiles = files.filter((f) => !labelFiles.includes(f) && !typeFiles.includes(f));
  const other = tripleFiles.filter((f) => !/\.(tsv|txt)$/i.test(f));
  if (other.length) throw new Error(`Triples format: ${other.map((f) => path.basename(f)).join(', ')} is not a triples file (.tsv, .txt)`);
  if (!tripleFiles.length) throw new Error('Triples format: no triples file (.tsv, .txt) given');
  const defaultType = opts.defaultType ?? 'entity';
  const size = (list: string[]) => list.reduce((sum, f) => sum + fs.statSync(f).size, 0);
  // Label and type files are read once, triples twice.
  const counter = new ByteCounter(size(files) + size(tripleFiles));
  const labels = new Map<string, Label>();
  // Both passes read the same lines: a line reported in pass 1 is skipped quietly in pass 2.
  const reported = new Set<string>();

  return {
    progress: () => ({ done: counter.done, total: counter.total }),
    async *entities() {
      for (const file of labelFiles) {
        yield* readLookup(file, counter, ['id', 'label', 'description'], labels, ([label, description]) => ({ label: label!, description }));
      }
      const types = new Map<string, string>();
      for (const file of typeFiles) yield* readLookup(file, counter, ['id', 'type'], types, ([type]) => type!);
      const seen = new Set<string>();
      for (const file of tripleFiles) {
        const name = displayName(file);
        for await (const item of readTabbed(file, counter, TRIPLE, 3)) {
          if (item instanceof IngestIssue) {
            reported.add(`${file}:${item.line}`);
            yield item;
            continue;
          }
          for (const id of [item.fields[0]!, item.fields[2]!]) {
            if (seen.has(id)) continue;
            seen.add(id);
            yield entityOf(id, labels.get(id), types.get(id) ?? defaultType, { file: name, line: item.line });
          }
        }
      }
    },
    async *edges() {
      for (const file of tripleFiles) {
        const name = displayName(file);
        for await (const item of readTabbed(file, counter, TRIPLE, 3)) {
          if (reported.has(`${file}:${item.line}`)) continue;
          if (item instanceof IngestIssue) {
            yield item;
            continue;
          }
          const [source, relation, target] = item.fields as [string, string, string];
          yield { source, relation: labels.get(relation)?.label ?? relation, target, properties: null, at: { file: name, line: item.line } };
        }
      }
    },
  };
}

function entityOf(id: string, label: Label | undefined, type: string, at: EntityRecord['at']): EntityRecord {
  const document = label?.description ? { description: label.description } : {};
  return { externalId: id, type, name: label?.label ?? id, aliases: [], document, at };
}

/** Reads `id<TAB>value...` lines into `into`, yielding the lines that cannot be used. */
async function* readLookup<T>(
  file: string,
  counter: ByteCounter,
  columns: string[],
  into: Map<string, T>,
  valueOf: (rest: (string | undefined)[]) => T,
): AsyncGenerator<IngestIssue> {
  const name = displayName(file);
  for await (const item of readTabbed(file, counter, columns, 2)) {
    if (item instanceof IngestIssue) {
      yield item;
      continue;
    }
    const [id, ...rest] = item.fields as [string, ...string[]];
    if (into.has(id)) {
      yield new IngestIssue(name, item.line, `${id} is given a ${columns[1]} twice`);
      continue;
    }
    into.set(id, valueOf(rest));
  }
}

/**
 * Tab-separated lines with `required` to `columns.length` fields, none of the required ones empty. Fields
 * are trimmed; blank lines are skipped. No quoting: a tab always separates fields.
 */
async function* readTabbed(file: string, counter: ByteCounter, columns: string[], required: number): AsyncGenerator<{ line: number; fields: string[] } | IngestIssue> {
  const name = displayName(file);
  const expected = required === columns.length ? `${required}` : `${required} to ${columns.length}`;
  for await (const item of readLines(file, counter)) {
    if (item instanceof IngestIssue) {
      yield item;
      continue;
    }
    if (item.text.trim() === '') continue;
    const fields = item.text.split('\t').map((f) => f.trim());
    if (fields.length < required || fields.length > columns.length) {
      yield new IngestIssue(name, item.line, `expected ${expected} tab-separated fields (${columns.join(', ')}), found ${fields.length}`);
      continue;
    }
    const empty = fields.slice(0, required).findIndex((f) => f === '');
    if (empty !== -1) {
      yield new IngestIssue(name, item.line, `field "${columns[empty]}" must not be empty`);
      continue;
    }
    yield { line: item.line, fields };
  }
}
