import path from 'node:path';
import { IngestIssue, type EdgeRecord, type EntityRecord, type KnowledgeSource } from '../source';
import { ByteCounter, displayName, readDelimited, readJsonLines } from './text-input';

const EDGE_HEADER = ['head_id', 'head_type', 'relation', 'tail_type', 'tail_id'];

/** `<name>_(<node_index>)`: the name may itself hold `_(`, so only the last group counts. */
const NODE_ID = /_\((\d+)\)$/;

/**
 * A text graph as STaRK-Prime subgraphs ship it (docs/formats.md): `nodes.jsonl` with
 * `{node_id, node_attr, node_index, node_name, node_type}` a line and `edges.csv` with the header
 * `head_id,head_type,relation,tail_type,tail_id`. Entities are identified by `node_index`, so ids match
 * STaRK-Prime answer ids; edge endpoints are node_ids and are mapped to the index they end with.
 */
export function textGraphSource(files: string[]): KnowledgeSource {
  const nodeFile = onlyFile(files, /\.jsonl$/i, 'nodes (.jsonl)');
  const edgeFile = onlyFile(files, /\.csv$/i, 'edges (.csv)');
  const other = files.filter((f) => f !== nodeFile && f !== edgeFile);
  if (other.length) throw new Error(`Text-graph format: ${other.map((f) => path.basename(f)).join(', ')} is neither nodes (.jsonl) nor edges (.csv)`);
  const counter = ByteCounter.forFiles(files, 1);

  return {
    progress: () => ({ done: counter.done, total: counter.total }),
    async *entities() {
      const name = displayName(nodeFile);
      for await (const item of readJsonLines(nodeFile, counter)) {
        yield item instanceof IngestIssue ? item : entityOf(item.value, name, item.line);
      }
    },
    async *edges() {
      const name = displayName(edgeFile);
      for await (const item of readDelimited(edgeFile, counter, { header: EDGE_HEADER })) {
        yield item instanceof IngestIssue ? item : edgeOf(item.fields, name, item.line);
      }
    },
  };
}

function onlyFile(files: string[], pattern: RegExp, role: string): string {
  const found = files.filter((f) => pattern.test(f));
  if (found.length !== 1) {
    throw new Error(`Text-graph format: expected exactly one ${role} file, got ${found.length ? found.map((f) => path.basename(f)).join(', ') : 'none'}`);
  }
  return found[0]!;
}

function entityOf(v: Record<string, unknown>, file: string, line: number): EntityRecord | IngestIssue {
  const externalId = nodeIndexText(v.node_index);
  if (externalId === null) return new IngestIssue(file, line, 'field "node_index" must be a non-negative integer');
  if (typeof v.node_type !== 'string' || v.node_type.trim() === '') return new IngestIssue(file, line, 'field "node_type" must be a non-empty string');
  if (typeof v.node_name !== 'string') return new IngestIssue(file, line, 'field "node_name" must be a string');
  if (typeof v.node_attr !== 'string') return new IngestIssue(file, line, 'field "node_attr" must be a string');
  if (typeof v.node_id !== 'string') return new IngestIssue(file, line, 'field "node_id" must be a string');
  // Edges find their endpoints through the node_id suffix, so it has to agree with node_index.
  if (indexOf(v.node_id) !== externalId) {
    return new IngestIssue(file, line, `field "node_id" "${v.node_id}" does not end with "_(${externalId})", the node_index`);
  }
  return {
    externalId,
    type: v.node_type.trim(),
    name: v.node_name,
    aliases: [],
    document: { description: v.node_attr, source_id: v.node_id },
    at: { file, line },
  };
}

function edgeOf(fields: string[], file: string, line: number): EdgeRecord | IngestIssue {
  const [headId, , relation, , tailId] = fields.map((f) => f.trim()) as [string, string, string, string, string];
  if (!relation) return new IngestIssue(file, line, 'field "relation" must not be empty');
  const source = indexOf(headId);
  if (source === null) return new IngestIssue(file, line, `field "head_id" "${headId}" does not end with "_(<node_index>)"`);
  const target = indexOf(tailId);
  if (target === null) return new IngestIssue(file, line, `field "tail_id" "${tailId}" does not end with "_(<node_index>)"`);
  return { source, relation, target, properties: null, at: { file, line } };
}

/** A PrimeKG node_index as text: a non-negative integer, given as a number or as digits. */
export function nodeIndexText(value: unknown): string | null {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return String(value);
  if (typeof value === 'string' && /^\d+$/.test(value.trim())) return value.trim();
  return null;
}

function indexOf(nodeId: string): string | null {
  return NODE_ID.exec(nodeId)?.[1] ?? null;
}
