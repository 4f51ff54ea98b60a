import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { IngestIssue } from '../../../lib/ingest/source';
import { readSplitDir, readSplitFile, writeSplitFile } from '../../../lib/queries/formats/splits';
import type { SplitList } from '../../../lib/queries/types';
import { dataFile, scratch } from '../readers/helpers';

function issuesOf(result: SplitList | IngestIssue[]): string[] {
  if (!Array.isArray(result)) throw new Error(`expected issues, got a list of ${result.ids.length} ids`);
  return result.map(String);
}

function listOf(result: SplitList | IngestIssue[]): SplitList {
  if (Array.isArray(result)) throw new Error(`expected a list, got issues: ${result.join('; ')}`);
  return result;
}

describe('STaRK split files on the real data', () => {
  it.each(['prime', 'amazon'])('%s: reads each .index file and writes it back byte for byte', async (kb) => {
    const dir = path.dirname(dataFile('stark-qa', kb, 'split', 'train.index'));
    const { lists, issues } = await readSplitDir(dir);
    expect(issues).toEqual([]);
    expect(lists.map((l) => l.split)).toEqual(['train', 'val', 'test']);
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

describe('readSplitDir', () => {
  const write = scratch();
  /** A new directory in the scratch folder. */
  const folder = (name: string): string => {
    const dir = path.join(path.dirname(write('.keep', '')), name);
    fs.mkdirSync(dir);
    return dir;
  };

  it('reads the split files that exist', async () => {
    const sub = folder('only-test');
    fs.writeFileSync(path.join(sub, 'test.index'), '4\n5');
    fs.writeFileSync(path.join(sub, 'val.index'), '');
    expect(await readSplitDir(sub)).toEqual({
      lists: [
        { split: 'val', ids: [], at: [] },
        {
          split: 'test',
          ids: ['4', '5'],
          at: [
            { file: 'only-test/test.index', line: 1 },
            { file: 'only-test/test.index', line: 2 },
          ],
        },
      ],
      issues: [],
    });
  });

  it('reports bad files by directory and file name, and a directory with none', async () => {
    const bad = folder('bad');
    const empty = folder('empty');
    fs.writeFileSync(path.join(bad, 'train.index'), '1\nx');
    fs.writeFileSync(path.join(bad, 'test.index'), '2');
    const got = await readSplitDir(bad);
    expect(got.lists.map((l) => l.split)).toEqual(['test']);
    expect(got.issues.map(String)).toEqual(['bad/train.index:2: expected a query id (a non-negative integer), found "x"']);
    expect((await readSplitDir(empty)).issues.map(String)).toEqual([
      'empty:0: no split file: expected train.index, val.index, test.index or some of them',
    ]);
  });
});

describe('writeSplitFile', () => {
  it('joins ids with LF and ends without one', () => {
    expect(writeSplitFile(['3', '1', '2'])).toBe('3\n1\n2');
    expect(writeSplitFile([])).toBe('');
    expect(listOf(readSplitFile(writeSplitFile(['9', '8']), 'x.index', 'train')).ids).toEqual(['9', '8']);
  });
});
