/**
 * Cells of reports that people open in spreadsheets (CSV, TSV). A spreadsheet runs a cell that starts with
 * `=`, `+`, `-` or `@` as a formula (`=HYPERLINK(...)` exfiltrates, `+1+1` computes), and some strip a leading
 * tab or CR before looking; some also read the full-width forms ＝ ＋ － ＠ as the ASCII ones. Such text gets
 * a leading `'`, which spreadsheets read as "this is text" (OWASP's CSV injection advice). Numbers stay
 * numbers: a number value, or text that is exactly a decimal number, cannot run anything.
 *
 * Data files read by programs (STaRK CSV, TREC, JSONL) must not use this: they stay byte for byte.
 */
export type CellValue = string | number | boolean | null | undefined;

const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;
const DECIMAL = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

/** The text as a spreadsheet shows it, never as a formula. */
export function spreadsheetText(text: string): string {
  return FORMULA_START.test(text) && !DECIMAL.test(text) ? `'${text}` : text;
}

function cellText(value: CellValue): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'string' ? spreadsheetText(value) : String(value);
}

/** A CSV cell (RFC 4180): neutralised, then quoted when it holds a comma, a quote, a CR or an LF. */
export function csvCell(value: CellValue): string {
  const s = cellText(value);
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

/** A CSV line with its LF. */
export function csvLine(values: CellValue[]): string {
  return `${values.map(csvCell).join(',')}\n`;
}

/** A TSV cell: neutralised, then tabs and line breaks (which TSV cannot quote) become a space. */
export function tsvCell(value: CellValue): string {
  return cellText(value).replace(/[\t\r\n]+/g, ' ');
}

/** A TSV line with its LF. */
export function tsvLine(values: CellValue[]): string {
  return `${values.map(tsvCell).join('\t')}\n`;
}
