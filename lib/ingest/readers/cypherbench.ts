import fs from 'node:fs';
import path from 'node:path';
import { pipeline, type Transform } from 'node:stream';
import StreamJson from 'stream-json';
import Pick from 'stream-json/filters/Pick.js';
import StreamArray from 'stream-json/streamers/StreamArray.js';
import StreamValues from 'stream-json/streamers/StreamValues.js';
import { IngestIssue, type EdgeRecord, type EntityRecord, type KnowledgeSource } from '../source';
import { idText, preview, stringList } from './fields';
import { ByteCounter, displayName } from './text-input';

/** Declared property types by entity or relation label. A relation label can join several label pairs. */
interface Schema {
  entities: Map<string, Map<string, Set<string>>>;
  relations: Map<string, Map<string, Set<string>>>;
}

type Plain = Record<string, unknown>;

const SCALAR_TYPES = ['str', 'int', 'float', 'bool', 'date'];

/**
 * A CypherBench property graph (docs/formats.md): one JSON file
 * `{schema: {name, entities, relations}, entities: [...], relations: [...]}`. Such files run to hundreds of
 * MB, so they are streamed: the schema is read first (the read stops once it is found, normally at the
 * start of the file), then pass 1 reads the file again for `entities` and pass 2 for `relations`.
 *
 * Property values are checked against the types the schema declares. A stream parser knows no line
 * numbers, so issues carry line 0 and name the entity's eid or the relation's rid, or the item's position
 * (`entities[7]`) when it has no id. Provenance (Wikipedia URLs) is not imported: the document is what a
 * retriever reads, and the URLs only repeat the name.
 */
export function cypherbenchSource(files: string[]): KnowledgeSource {
  const [file, ...more] = files;
  if (!file || more.length || !/\.json$/i.test(file)) {
    throw new Error(`CypherBench format: expected one graph file (.json), got ${files.map((f) => path.basename(f)).join(', ') || 'none'}`);
  }
  const name = displayName(file);
  const counter = ByteCounter.forFiles(files, 2);
  let schema: Promise<Schema> | null = null;
  const schemaOnce = () => (schema ??= readSchema(file));

  return {
    progress: () => ({ done: counter.done, total: counter.total }),
    async *entities() {
      const known = await schemaOnce();
      for await (const { index, value } of section(file, 'entities', counter)) {
        yield entityOf(value, known, name, index);
      }
    },
    async *edges() {
      const known = await schemaOnce();
      for await (const { index, value } of section(file, 'relations', counter)) {
        yield edgeOf(value, known, name, index);
      }
    },
  };
}

function entityOf(value: unknown, schema: Schema, file: string, index: number): EntityRecord | IngestIssue {
  const issue = (reason: string) => new IngestIssue(file, 0, reason);
  if (!isPlain(value)) return issue(`entities[${index}] must be a JSON object`);
  const eid = idText(value.eid);
  if (eid === null) return issue(`entities[${index}]: field "eid" must be a non-empty string`);
  const at = `entity "${eid}"`;
  if (typeof value.label !== 'string') return issue(`${at}: field "label" must be a string`);
  const declared = schema.entities.get(value.label);
  if (!declared) return issue(`${at}: label "${value.label}" is not in the schema`);
  if (typeof value.name !== 'string') return issue(`${at}: field "name" must be a string`);
  const aliases = stringList(value.aliases);
  if (aliases === null) return issue(`${at}: field "aliases" must be a list of strings`);
  const description = value.description ?? null;
  if (description !== null && typeof description !== 'string') return issue(`${at}: field "description" must be a string`);
  const properties = propertiesOf(value.properties, declared, at, value.label);
  if (typeof properties === 'string') return issue(properties);
  const document = description ? { description, ...properties } : properties;
  return { externalId: eid, type: value.label, name: value.name, aliases, document, at: { file, line: 0 } };
}

function edgeOf(value: unknown, schema: Schema, file: string, index: number): EdgeRecord | IngestIssue {
  const issue = (reason: string) => new IngestIssue(file, 0, reason);
  if (!isPlain(value)) return issue(`relations[${index}] must be a JSON object`);
  const rid = idText(value.rid);
  if (rid === null) return issue(`relations[${index}]: field "rid" must be a non-empty string`);
  const at = `relation "${rid}"`;
  if (typeof value.label !== 'string') return issue(`${at}: field "label" must be a string`);
  const declared = schema.relations.get(value.label);
  if (!declared) return issue(`${at}: label "${value.label}" is not in the schema`);
  const source = idText(value.subj_id);
  if (source === null) return issue(`${at}: field "subj_id" must be a non-empty string`);
  const target = idText(value.obj_id);
  if (target === null) return issue(`${at}: field "obj_id" must be a non-empty string`);
  const properties = propertiesOf(value.properties, declared, at, value.label);
  if (typeof properties === 'string') return issue(properties);
  return { source, relation: value.label, target, properties: Object.keys(properties).length ? properties : null, at: { file, line: 0 } };
}

/** The properties if each is declared for the label and has a declared type; otherwise why not. */
function propertiesOf(value: unknown, declared: Map<string, Set<string>>, at: string, label: string): Plain | string {
  if (value === undefined || value === null) return {};
  if (!isPlain(value)) return `${at}: field "properties" must be a JSON object`;
  for (const [key, v] of Object.entries(value)) {
    const types = declared.get(key);
    if (!types) return `${at}: property "${key}" is not declared for ${label} in the schema`;
    if (![...types].some((t) => fits(t, v))) return `${at}: property "${key}" must be ${[...types].join(' or ')}, found ${preview(v)}`;
  }
  return value;
}

function fits(type: string, value: unknown): boolean {
  const item = /^list\[(\w+)\]$/.exec(type)?.[1];
  if (item) return Array.isArray(value) && value.every((v) => fits(item, v));
  switch (type) {
    case 'str':
      return typeof value === 'string';
    case 'int':
      return Number.isInteger(value);
    case 'float':
      // JSON does not tell 2.0 from 2, so any number is a float.
      return typeof value === 'number';
    case 'bool':
      return typeof value === 'boolean';
    default:
      // date, the one type left: schemaOf admits no other.
      return typeof value === 'string' && isDate(value);
  }
}

/** `YYYY-MM-DD` naming a real calendar day. */
function isDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const day = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(day.getTime()) && day.toISOString().startsWith(text);
}

async function readSchema(file: string): Promise<Schema> {
  const name = displayName(file);
  // Not counted for progress: the read ends as soon as the schema is found.
  for await (const { value } of streamOf(file, Pick.pick({ filter: 'schema', once: true }), StreamValues.streamValues(), null)) {
    return schemaOf(value, name);
  }
  throw new IngestIssue(name, 0, 'no "schema" object: expected a CypherBench graph {"schema", "entities", "relations"}');
}

function schemaOf(value: unknown, file: string): Schema {
  const fail = (reason: string) => new IngestIssue(file, 0, `schema: ${reason}`);
  if (!isPlain(value) || !Array.isArray(value.entities) || !Array.isArray(value.relations)) {
    throw fail('expected an object with "entities" and "relations" lists');
  }
  const declarations = (list: unknown[], kind: string) => {
    const byLabel = new Map<string, Map<string, Set<string>>>();
    for (const [i, item] of list.entries()) {
      if (!isPlain(item) || typeof item.label !== 'string') throw fail(`${kind}[${i}] must be an object with a string "label"`);
      const properties = item.properties ?? {};
      if (!isPlain(properties)) throw fail(`${kind} ${item.label}: "properties" must map names to types`);
      const declared = byLabel.get(item.label) ?? new Map<string, Set<string>>();
      for (const [key, type] of Object.entries(properties)) {
        if (!isType(type)) throw fail(`${kind} ${item.label}: property "${key}" has the unknown type ${preview(type)}`);
        declared.set(key, (declared.get(key) ?? new Set<string>()).add(type));
      }
      byLabel.set(item.label, declared);
    }
    return byLabel;
  };
  return { entities: declarations(value.entities, 'entities'), relations: declarations(value.relations, 'relations') };
}

function isType(type: unknown): type is string {
  if (typeof type !== 'string') return false;
  const item = /^list\[(\w+)\]$/.exec(type)?.[1] ?? type;
  return SCALAR_TYPES.includes(item);
}

/** The items of a top-level list (`entities` or `relations`), streamed with their position. */
async function* section(file: string, key: 'entities' | 'relations', counter: ByteCounter): AsyncGenerator<{ index: number; value: unknown }> {
  for await (const { key: index, value } of streamOf(file, Pick.pick({ filter: key }), StreamArray.streamArray(), counter)) {
    yield { index, value };
  }
}

async function* streamOf(file: string, pick: Transform, streamer: Transform, counter: ByteCounter | null): AsyncGenerator<{ key: number; value: unknown }> {
  const input = fs.createReadStream(file);
  if (counter) input.on('data', (chunk) => (counter.done += (chunk as Buffer).length));
  // Errors reach the iteration below; leaving it early (the schema read) ends the pipeline, which is expected.
  // Whole values only: the pickers need no partial string and number tokens, and the parser is faster without them.
  const items = pipeline(input, StreamJson.parser({ streamValues: false }), pick, streamer, () => {});
  try {
    for await (const item of items) yield item as { key: number; value: unknown };
  } catch (err) {
    // A syntax error leaves the rest of the file unreadable.
    throw new IngestIssue(displayName(file), 0, `unreadable JSON: ${(err as Error).message}`);
  }
}

function isPlain(value: unknown): value is Plain {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
