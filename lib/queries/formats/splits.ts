import { IngestIssue } from '../../ingest/source';
import type { SplitList } from '../types';
import { isCanonicalInteger } from './integer-ids';
import { withoutCr } from './text-lines';

/** The split files a STaRK query set directory may hold, in the order they are read. */
export const STARK_SPLITS = ['train', 'val', 'test'] as const;

/**
 * A STaRK split file: query ids, one a line. An empty file is an empty split. Ids must be non-negative
 * integers (as in the QA CSV); a blank line or an id repeated in the file is an error. A final line end and
 * CRLF line ends are accepted, though `writeSplitFile` writes neither. Returns the issues when there are any.
 */
export function readSplitFile(text: string, file: string, split: string): SplitList | IngestIssue[] {
  const list: SplitList = { split, ids: [], at: [] };
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  if (body === '') return list;
  const lines = body.split('\n');
  // A final LF ends the last line rather than starting a blank one.
  if (lines.length > 1 && lines.at(-1) === '') lines.pop();
  const issues: IngestIssue[] = [];
  const firstLine = new Map<string, number>();
  lines.forEach((entry, i) => {
    const line = i + 1;
    const id = withoutCr(entry);
    if (id === '') {
      issues.push(new IngestIssue(file, line, 'blank line: expected a query id'));
    } else if (!isCanonicalInteger(id)) {
      issues.push(new IngestIssue(file, line, `expected a query id (a non-negative integer), found ${JSON.stringify(id)}`));
    } else if (firstLine.has(id)) {
      issues.push(new IngestIssue(file, line, `query id ${id} is listed twice, on lines ${firstLine.get(id)} and ${line}`));
    } else {
      firstLine.set(id, line);
      list.ids.push(id);
      list.at.push({ file, line });
    }
  });
  return issues.length > 0 ? issues : list;
}

/** A split file's text: ids joined by LF, with no final line end (as STaRK writes them). */
export function writeSplitFile(ids: string[]): string {
  return ids.join('\n');
}
