import path from 'node:path';
import { IngestIssue, type EdgeRecord, type EntityRecord, type KnowledgeSource } from '../source';
import { idText, propertiesColumn, stringList } from './fields';
import { ByteCounter, displayName, readDelimited, readJsonLines, readTsvBatches, singles } from './text-input';

/**
 * SKB Studio's own format (docs/formats.md): entities as JSON Lines
 * `{"id", "type", "name", "aliases"?, "document"?}` and edges as TSV or CSV with the header
 * `source relation target [properties]`, properties being a JSON object.
 */
export function nativeSource(files: string[]): KnowledgeSource {
  const entityFiles = files.filter((f) => /\.jsonl$/i.test(f));
  const edgeFiles = files.filter((f) => /\.(tsv|csv)$/i.test(f));
  const other = files.filter((f) => !entityFiles.includes(f) && !edgeFiles.includes(f));
  if (other.length) throw new Error(`Native format: ${other.map((f) => path.basename(f)).join(', ')} is neither entities (.jsonl) nor edges (.tsv, .csv)`);
  if (!entityFiles.length) throw new Error('Native format: no entities file (.jsonl) given');
  const counter = ByteCounter.forFiles(files, 1);

  return {
    progress: () => ({ done: counter.done, total: counter.total }),
    async *entities() {
      for (const file of entityFiles) {
        const name = displayName(file);
        for await (const item of readJsonLines(file, counter)) {
          yield item instanceof IngestIssue ? item : entityOf(item.value, name, item.line);
        }
      }
    },
    async *edges() {
      for (const file of edgeFiles) {
        for await (const batch of edgeBatchesOf(file, counter)) yield* batch;
      }
    },
    async *edgeBatches() {
      for (const file of edgeFiles) {
        yield* edgeBatchesOf(file, counter);
      }
    },
  };
}

function entityOf(v: Record<string, unknown>, file: string, line: number): EntityRecord | IngestIssue {
  const externalId = idText(v.id);
  if (externalId === null) return new IngestIssue(file, line, 'field "id" must be a non-empty string or an integer');
  if (typeof v.type !== 'string' || v.type.trim() === '') return new IngestIssue(file, line, 'field "type" must be a non-empty string');
  if (typeof v.name !== 'string') return new IngestIssue(file, line, 'field "name" must be a string');
  const aliases = stringList(v.aliases);
  if (aliases === null) return new IngestIssue(file, line, 'field "aliases" must be a list of strings');
  const document = v.document ?? {};
  if (typeof document !== 'object' || document === null || Array.isArray(document)) {
    return new IngestIssue(file, line, 'field "document" must be a JSON object');
  }
  return { externalId, type: v.type.trim(), name: v.name, aliases, document: document as Record<string, unknown>, at: { file, line } };
}

async function* edgeBatchesOf(file: string, counter: ByteCounter): AsyncGenerator<(EdgeRecord | IngestIssue)[]> {
  const name = displayName(file);
  // TSV takes the fast unquoted path, in batches; CSV needs a real parser for its quoting.
  const batches = /\.tsv$/i.test(file) ? readTsvBatches(file, counter) : singles(readDelimited(file, counter));
  let header: string[] | null = null;
  for await (const batch of batches) {
    const out: (EdgeRecord | IngestIssue)[] = [];
    for (const item of batch) {
      if (item instanceof IngestIssue) {
        out.push(item);
      } else if (!header) {
        header = item.fields.map((f) => f.trim());
        const ok = header.slice(0, 3).join(',') === 'source,relation,target' && (header.length === 3 || (header.length === 4 && header[3] === 'properties'));
        if (!ok) throw new IngestIssue(name, item.line, 'expected the header "source, relation, target" and optionally "properties"');
      } else if (item.fields.length !== header.length) {
        out.push(new IngestIssue(name, item.line, `expected ${header.length} fields, found ${item.fields.length}`));
      } else {
        out.push(edgeOf(item.fields, name, item.line));
      }
    }
    if (out.length) yield out;
  }
}

function edgeOf(fields: string[], file: string, line: number): EdgeRecord | IngestIssue {
  const source = fields[0]!.trim();
  const relation = fields[1]!.trim();
  const target = fields[2]!.trim();
  if (!source || !relation || !target) return new IngestIssue(file, line, 'source, relation and target must not be empty');
  const properties = propertiesColumn(fields[3], file, line);
  if (properties instanceof IngestIssue) return properties;
  return { source, relation, target, properties, at: { file, line } };
}
