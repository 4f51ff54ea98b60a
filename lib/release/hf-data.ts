import { parquetWriteBuffer, type SchemaElement } from 'hyparquet-writer';
import type { Queryable } from '../db/transaction';
import { readQueries, type QuerySource } from '../queries/read';
import { unresolvedIdsOf } from './record';

/** One query as the Hugging Face data files hold it: one shape for every row, so the Hub reads it as a table. */
export interface HfRow {
  id: string;
  query: string;
  answer_ids: string[];
  answer_ids_source: string[];
  /** The row's answer and seed ids the knowledge base does not have. */
  unresolved_ids: string[];
  /** The query's metadata as JSON text ("{}" when it has none). */
  metadata: string;
}

/** The columns, in file order, with what Croissant says of each. */
export const HF_COLUMNS: { name: keyof HfRow; list: boolean; description: string }[] = [
  { name: 'id', list: false, description: 'The query id.' },
  { name: 'query', list: false, description: 'The query text.' },
  { name: 'answer_ids', list: true, description: 'External ids of the knowledge-base entities that answer the query.' },
  { name: 'answer_ids_source', list: true, description: 'External ids of the seed entities the query was written from (empty when none).' },
  { name: 'unresolved_ids', list: true, description: 'Answer or seed ids of this query that are not entities of the knowledge base; they are kept and still count as answers.' },
  { name: 'metadata', list: false, description: 'The query\'s provenance and other metadata, as a JSON object in text.' },
];

/** Null: the queries in no split. */
export const NO_SPLIT = 'unsplit';

/** The Hub's split names are `\w+(\.\w+)*`: other characters become "_", and a clash gets a number. */
export function hfSplitNames(splits: (string | null)[]): Map<string | null, string> {
  const names = new Map<string | null, string>();
  const taken = new Set<string>();
  for (const split of splits) {
    const base = split === null ? NO_SPLIT : split.replace(/[^A-Za-z0-9_.]+/g, '_').replace(/^\.+|\.+$/g, '').replace(/\.{2,}/g, '.') || 'split';
    let name = base;
    for (let n = 2; taken.has(name); n++) name = `${base}_${n}`;
    taken.add(name);
    names.set(split, name);
  }
  return names;
}

/** The rows of each split (Hub name), in file order. */
export async function hfRows(db: Queryable, kbId: number, source: QuerySource, splitNames: Map<string | null, string>): Promise<Map<string, HfRow[]>> {
  const unknown = await unresolvedIdsOf(db, kbId, source);
  const bySplit = new Map<string, HfRow[]>([...splitNames.values()].map((name) => [name, []]));
  for await (const q of readQueries(db, source)) {
    bySplit.get(splitNames.get(q.split)!)!.push({
      id: q.id, query: q.text, answer_ids: q.answers, answer_ids_source: q.seeds,
      unresolved_ids: [...new Set([...q.answers.filter((id) => unknown.answers.has(id)), ...q.seeds.filter((id) => unknown.seeds.has(id))])],
      metadata: JSON.stringify(q.metadata),
    });
  }
  return bySplit;
}

export function jsonlBytes(rows: HfRow[]): Buffer {
  return Buffer.from(rows.map((r) => `${JSON.stringify(r)}\n`).join(''), 'utf8');
}

const text = (name: string): SchemaElement => ({ name, type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'REQUIRED' });

/** Parquet with the same columns; the id lists as LIST<string> (the three-level layout readers expect). */
export function parquetBytes(rows: HfRow[]): Buffer {
  const schema: SchemaElement[] = [{ name: 'root', num_children: HF_COLUMNS.length }];
  for (const c of HF_COLUMNS) {
    if (!c.list) schema.push(text(c.name));
    else schema.push({ name: c.name, repetition_type: 'REQUIRED', converted_type: 'LIST', num_children: 1 }, { name: 'list', repetition_type: 'REPEATED', num_children: 1 }, text('element'));
  }
  const columnData = HF_COLUMNS.map((c) => ({ name: c.name, data: rows.map((r) => r[c.name]) }));
  return Buffer.from(parquetWriteBuffer({ columnData, schema, createdBy: 'SKB Studio' }));
}
