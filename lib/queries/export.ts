import type { Queryable } from '../db/transaction';
import { jsonlRow } from './formats/jsonl';
import { writeSplitFile } from './formats/splits';
import { starkCsvHeader, starkCsvRow } from './formats/stark';
import { writeTrecQrels, writeTrecTopics } from './formats/trec';
import { badRequest } from '../errors';
import { firstNonIntegerId, querySourceShape, readQueries, splitIds, type QuerySource, type StoredQuery } from './read';
import type { QueryFormat } from './types';

/** One file of an export: its path inside the export and its content, produced as it is read. */
export interface ExportFile {
  path: string;
  content: () => AsyncIterable<string>;
}

/**
 * `exact`: the data file as programs read it, byte for byte. `spreadsheet`: the STaRK CSV for people who open
 * it in a spreadsheet, with query texts that would run as formulas neutralised.
 */
export type ExportVariant = 'exact' | 'spreadsheet';

/** The STaRK file names: the human-generated layout when the queries carry seed ids. */
export const STARK_QA_FILE = 'stark_qa.csv';
export const STARK_HUMAN_QA_FILE = 'stark_qa_human_generated_eval.csv';

/**
 * The files a format writes for a set or release:
 * - stark: `stark_qa.csv` (or `stark_qa_human_generated_eval.csv` when queries have seed ids) and
 *   `split/<name>.index` per split in use;
 * - trec: `topics.txt` and `qrels.txt`;
 * - jsonl: `queries.jsonl`.
 */
export async function exportFiles(db: Queryable, source: QuerySource, format: QueryFormat, variant: ExportVariant = 'exact'): Promise<ExportFile[]> {
  if (variant === 'spreadsheet' && format !== 'stark') throw badRequest(`for: only the STaRK CSV has a spreadsheet variant; ${format} files are read by programs`);
  const rows = (write: (q: StoredQuery) => string) => async function* () {
    for await (const q of readQueries(db, source)) yield write(q);
  };
  if (format === 'jsonl') return [{ path: 'queries.jsonl', content: rows((q) => jsonlRow(q)) }];
  if (format === 'trec') {
    return [
      { path: 'topics.txt', content: rows((q) => writeTrecTopics([q])) },
      { path: 'qrels.txt', content: rows((q) => writeTrecQrels([q])) },
    ];
  }
  const bad = await firstNonIntegerId(db, source);
  if (bad) throw badRequest(`Cannot export as STaRK CSV, whose ids are integers: query ${bad.query} has the id "${bad.id}"; export as JSONL or TREC instead`);
  const shape = await querySourceShape(db, source);
  const csv: ExportFile = {
    path: shape.hasSeeds ? STARK_HUMAN_QA_FILE : STARK_QA_FILE,
    content: async function* () {
      yield starkCsvHeader(shape.hasSeeds);
      yield* rows((q) => starkCsvRow(q, shape.hasSeeds, variant === 'spreadsheet'))();
    },
  };
  const splits = shape.splits.map((split): ExportFile => ({
    path: `split/${split}.index`,
    content: async function* () { yield writeSplitFile(await splitIds(db, source, split)); },
  }));
  return [csv, ...splits];
}
