import { tsvLine } from '../export/spreadsheet-cells';
import { IngestIssue } from './source';

export type ErrorPolicy = 'stop' | 'skip';

/** Why an import ended early: the first error under `stop`, too many under `skip`, or a cancel. */
export class ImportAborted extends Error {
  constructor(
    message: string,
    readonly issues: IngestIssue[],
    readonly cancelled = false,
  ) {
    super(message);
    this.name = 'ImportAborted';
  }
}

/** Collects bad rows under the curator's policy: stop at the first, or skip up to a limit. */
export class IssueLog {
  readonly issues: IngestIssue[] = [];

  constructor(
    readonly policy: ErrorPolicy,
    readonly maxErrors: number,
  ) {}

  add(issue: IngestIssue): void {
    this.issues.push(issue);
    if (this.policy === 'stop') throw new ImportAborted(`Import stopped at ${issue}`, this.issues);
    if (this.issues.length > this.maxErrors) {
      throw new ImportAborted(`Import stopped: more than ${this.maxErrors} bad rows (the last: ${issue})`, this.issues);
    }
  }
}

/**
 * Bad rows as the downloadable TSV report, for spreadsheets: reasons quote the file's content, so cells are
 * neutralised against formulas; tabs and line breaks inside a field become spaces.
 */
export function errorReportTsv(errors: { file: string; line: number; reason: string }[]): string {
  return tsvLine(['file', 'line', 'reason']) + errors.map((e) => tsvLine([e.file, e.line, e.reason])).join('');
}
