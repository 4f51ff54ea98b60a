import { spreadsheetText } from '../../export/spreadsheet-cells';
import { IngestIssue } from '../../ingest/source';
import type { QueryRecord, SourcedQuery } from '../types';
import { readCsvRecords, type CsvRecord } from './csv-records';
import { isCanonicalInteger } from './integer-ids';
import type { TextInput } from './text-lines';

const BASE_COLUMNS = ['id', 'query', 'answer_ids'];
const SEED_COLUMNS = [...BASE_COLUMNS, 'answer_ids_source'];

function columns(withSeeds: boolean): string[] {
  return withSeeds ? SEED_COLUMNS : BASE_COLUMNS;
}

/** A value quoted for an error message, cut short so a stray query text does not flood the report. */
function shown(value: string): string {
  return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
}

/** `[1, 2]`, with any spacing around the brackets, ids and commas; problems are pushed onto `problems`. */
function readIdList(field: string, column: string, problems: string[]): string[] {
  const body = /^\s*\[(.*)\]\s*$/s.exec(field)?.[1];
  if (body === undefined) {
    problems.push(`${column}: expected a list of ids like [1, 2], found ${shown(field)}`);
    return [];
  }
  if (body.trim() === '') return [];
  const ids = body.split(',').map((id) => id.trim());
  ids.forEach((id, i) => {
    if (!isCanonicalInteger(id)) problems.push(`${column}[${i}]: expected a non-negative integer, found ${shown(id)}`);
  });
  return ids;
}

function toQuery({ line, fields }: CsvRecord, withSeeds: boolean, file: string): SourcedQuery | IngestIssue {
  const expected = columns(withSeeds);
  if (fields.length !== expected.length) {
    return new IngestIssue(file, line, `expected ${expected.length} fields (${expected.join(',')}), found ${fields.length}`);
  }
  const [id = '', text = '', answerField = '', seedField = ''] = fields;
  const problems: string[] = [];
  if (!isCanonicalInteger(id)) problems.push(`id: expected a non-negative integer (digits, no sign, no leading zero), found ${shown(id)}`);
  if (text.trim() === '') problems.push('query: empty');
  const answers = readIdList(answerField, 'answer_ids', problems);
  const seeds = withSeeds ? readIdList(seedField, 'answer_ids_source', problems) : [];
  if (problems.length > 0) return new IngestIssue(file, line, problems.join('; '));
  return { id, text, answers, seeds, split: null, metadata: {}, at: { file, line } };
}

function headerProblem(found: string): string {
  return `expected the header "${BASE_COLUMNS.join(',')}" or "${SEED_COLUMNS.join(',')}", found ${JSON.stringify(found)}`;
}

/**
 * The queries of a STaRK QA CSV (`id,query,answer_ids[,answer_ids_source]`), streamed in file order, each with
 * the line its record starts on; `split` is null and `metadata` empty (splits come from the `.index` files).
 * A row that breaks the format is an issue and reading goes on with the next; a missing or wrong header (or
 * an unreadable first record) is one issue and nothing more is read. Ids repeated across rows are not
 * checked here: the importer checks them across all the files of a query set. Ids repeated within one
 * `answer_ids` list are kept as written (STaRK-Prime has some), so the file can be written back unchanged.
 */
export async function* readStarkCsv(input: TextInput, file: string): AsyncIterable<SourcedQuery | IngestIssue> {
  let withSeeds: boolean | null = null;
  for await (const record of readCsvRecords(input, file)) {
    if (withSeeds !== null) {
      yield record instanceof IngestIssue ? record : toQuery(record, withSeeds, file);
      continue;
    }
    if (record instanceof IngestIssue) {
      yield record;
      return;
    }
    const { fields } = record;
    const isHeader = (cols: string[]) => fields.length === cols.length && cols.every((c, i) => fields[i] === c);
    if (!isHeader(BASE_COLUMNS) && !isHeader(SEED_COLUMNS)) {
      yield new IngestIssue(file, record.line, headerProblem(fields.join(',')));
      return;
    }
    withSeeds = fields.length === SEED_COLUMNS.length;
  }
  if (withSeeds === null) yield new IngestIssue(file, 1, `empty file: ${headerProblem('')}`);
}

/** A field as pandas `to_csv` writes it: quoted only when it holds a comma, a quote, a CR or an LF. */
function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** A Python list literal, as pandas writes a list of integers. */
function idList(ids: string[]): string {
  return `[${ids.join(', ')}]`;
}

/** The header line, with its LF; `withSeeds` adds the `answer_ids_source` column. */
export function starkCsvHeader(withSeeds: boolean): string {
  return `${columns(withSeeds).join(',')}\n`;
}

/**
 * One query as a row, with its LF, byte for byte as pandas writes it. STaRK ids are integers: a query,
 * answer or (with `withSeeds`) seed id that is not a non-negative integer throws a RangeError, so an exporter
 * should check `isCanonicalInteger` first when the query set may come from elsewhere. `forSpreadsheet` writes
 * the variant for people who open the file in a spreadsheet: a query text that a spreadsheet would run as a
 * formula gets a leading `'` (the file is then no longer the exact data).
 */
export function starkCsvRow(q: QueryRecord, withSeeds: boolean, forSpreadsheet = false): string {
  const bad = [q.id, ...q.answers, ...(withSeeds ? q.seeds : [])].find((id) => !isCanonicalInteger(id));
  if (bad !== undefined) {
    throw new RangeError(`query ${JSON.stringify(q.id)}: STaRK ids must be non-negative integers, found ${JSON.stringify(bad)}`);
  }
  const fields = [q.id, forSpreadsheet ? spreadsheetText(q.text) : q.text, idList(q.answers)];
  if (withSeeds) fields.push(idList(q.seeds));
  return `${fields.map(csvField).join(',')}\n`;
}
