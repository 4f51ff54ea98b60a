import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { IngestIssue } from '../../../lib/ingest/source';
import { readSplitFile, STARK_SPLITS, writeSplitFile } from '../../../lib/queries/formats/splits';
import type { SplitList } from '../../../lib/queries/types';
import { dataFile } from '../readers/helpers';

function issuesOf(result: SplitList | IngestIssue[]): string[] {
  if (!Array.isArray(result)) throw new Error(`expected issues, got a list of ${result.ids.length} ids`);
  return result.map(String);
}

function listOf(result: SplitList | IngestIssue[]): SplitList {
  if (Array.isArray(result)) throw new Error(`expected a list, got issues: ${result.join('; ')}`);
  return result;
}

describe('STaRK split files on the real data', () => {
  it.each(['prime', 'amazon'])('%s: reads each .index file and writes it back byte for byte', (kb) => {
    const dir = path.dirname(dataFile('stark-qa', kb, 'split', 'train.index'));
    const lists = STARK_SPLITS.map((split) => listOf(readSplitFile(fs.readFileSync(path.join(dir, `${split}.index`), 'utf8'), `split/${split}.index`, split)));
    for (const list of lists) {
      const bytes = fs.readFileSync(path.join(dir, `${list.split}.index`));
      expect(Buffer.from(writeSplitFile(list.ids), 'utf8').equals(bytes)).toBe(true);
      expect(list.at).toHaveLength(list.ids.length);
      expect(list.at.at(-1)).toEqual({ file: `split/${list.split}.index`, line: list.ids.length });
    }

    // The three splits partition the query set: every query of stark_qa.csv in exactly one of them.
    const rows = parse(fs.readFileSync(dataFile('stark-qa', kb, 'stark_qa.csv')), { columns: true }) as { id: string }[];
    const inSplits = lists.flatMap((l) => l.ids);
    expect(new Set(inSplits).size).toBe(inSplits.length);
    expect(new Set(inSplits)).toEqual(new Set(rows.map((r) => r.id)));
  });
});

describe('readSplitFile', () => {
  it('reads ids in file order with their lines', () => {
    expect(readSplitFile('10\n0\n7', 'test.index', 'test')).toEqual({
      split: 'test',
      ids: ['10', '0', '7'],
      at: [
        { file: 'test.index', line: 1 },
        { file: 'test.index', line: 2 },
        { file: 'test.index', line: 3 },
      ],
    });
  });

  it('reads an empty file as an empty split', () => {
    expect(readSplitFile('', 'val.index', 'val')).toEqual({ split: 'val', ids: [], at: [] });
  });

  it('accepts a final line end, CRLF and a BOM', () => {
    expect(listOf(readSplitFile('1\n2\n', 'a.index', 'train')).ids).toEqual(['1', '2']);
    expect(listOf(readSplitFile('\uFEFF1\r\n2\r\n', 'a.index', 'train')).ids).toEqual(['1', '2']);
  });

  it('reports blank lines, ids that are not non-negative integers, and repeated ids with both lines', () => {
    expect(issuesOf(readSplitFile('1\n\n2\n02\n-3\nq4\n 5\n1\n\n', 'train.index', 'train'))).toEqual([
      'train.index:2: blank line: expected a query id',
      'train.index:4: expected a query id (a non-negative integer), found "02"',
      'train.index:5: expected a query id (a non-negative integer), found "-3"',
      'train.index:6: expected a query id (a non-negative integer), found "q4"',
      'train.index:7: expected a query id (a non-negative integer), found " 5"',
      'train.index:8: query id 1 is listed twice, on lines 1 and 8',
      'train.index:9: blank line: expected a query id',
    ]);
    expect(issuesOf(readSplitFile('\n', 'val.index', 'val'))).toEqual(['val.index:1: blank line: expected a query id']);
  });
});

describe('writeSplitFile', () => {
  it('joins ids with LF and ends without one', () => {
    expect(writeSplitFile(['3', '1', '2'])).toBe('3\n1\n2');
    expect(writeSplitFile([])).toBe('');
    expect(listOf(readSplitFile(writeSplitFile(['9', '8']), 'x.index', 'train')).ids).toEqual(['9', '8']);
  });
});
