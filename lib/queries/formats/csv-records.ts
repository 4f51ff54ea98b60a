import { parse, type Options } from 'csv-parse/sync';
import { IngestIssue } from '../../ingest/source';
import { physicalLineBatches, withoutCr, type TextInput } from './text-lines';

/** One CSV record and the line it starts on. */
export interface CsvRecord {
  line: number;
  fields: string[];
}

/** The lines of one record: complete once its quotes balance. */
interface RecordText {
  line: number;
  text: string;
  /** The first line of the record that is not UTF-8, if any. */
  badLine: number | null;
}

const OPTIONS: Options = {
  relax_column_count: true,
  // Explicit, so that a lone CR in an unquoted field stays in the field instead of ending the record.
  record_delimiter: ['\r\n', '\n'],
};

function countQuotes(text: string): number {
  let n = 0;
  for (let i = text.indexOf('"'); i !== -1; i = text.indexOf('"', i + 1)) n += 1;
  return n;
}

function quoteProblem(err: unknown): string {
  switch ((err as { code?: string }).code) {
    case 'CSV_INVALID_CLOSING_QUOTE':
      return 'a quoted field must end with a quote followed by "," or the line end';
    case 'INVALID_OPENING_QUOTE':
      return 'a field holding a quote must be quoted as a whole, with the quote doubled';
    default:
      return `unreadable CSV: ${(err as Error).message}`;
  }
}

function parseRecords(texts: RecordText[], file: string): (CsvRecord | IngestIssue)[] {
  const decoded = texts.filter((t) => t.badLine === null);
  let rows: string[][] | null;
  try {
    rows = parse(decoded.map((t) => `${t.text}\n`).join(''), OPTIONS);
  } catch {
    rows = null;
  }
  // A batch with a bad record is parsed again record by record, so the bad one is found and the others kept.
  if (rows !== null && rows.length !== decoded.length) rows = null;
  let next = 0;
  return texts.map((t) => {
    if (t.badLine !== null) return new IngestIssue(file, t.badLine, 'not valid UTF-8 text');
    if (rows !== null) return { line: t.line, fields: rows[next++] ?? [] };
    try {
      const [fields] = parse(`${t.text}\n`, OPTIONS);
      return { line: t.line, fields: fields ?? [] };
    } catch (err) {
      return new IngestIssue(file, t.line, quoteProblem(err));
    }
  });
}

/**
 * RFC 4180 CSV records, streamed, each with the physical line (LF-counted) it starts on. Lines are grouped
 * into records first: a record ends at the first line end where its quotes balance, which is exactly where a
 * well-formed record ends. csv-parse then reads the fields of each batch of records. Grouping first keeps
 * a malformed record from swallowing the records after it (csv-parse's own recovery stays inside the broken
 * quote) and gives line numbers that do not count a CR inside a field as a line. Blank lines between records
 * are skipped. A quote still open at the end of the input is one issue, at the line the record starts on.
 */
export async function* readCsvRecords(input: TextInput, file: string): AsyncGenerator<CsvRecord | IngestIssue> {
  let open: { line: number; parts: string[]; quotes: number; badLine: number | null } | null = null;
  for await (const batch of physicalLineBatches(input)) {
    const complete: RecordText[] = [];
    for (const { line, text, utf8 } of batch) {
      if (open === null) {
        if (withoutCr(text) === '') continue;
        open = { line, parts: [], quotes: 0, badLine: null };
      }
      open.parts.push(text);
      open.quotes += countQuotes(text);
      if (!utf8 && open.badLine === null) open.badLine = line;
      if (open.quotes % 2 === 0) {
        complete.push({ line: open.line, text: open.parts.join('\n'), badLine: open.badLine });
        open = null;
      }
    }
    if (complete.length > 0) yield* parseRecords(complete, file);
  }
  if (open !== null) yield new IngestIssue(file, open.line, 'a quote opened in this record is never closed');
}
