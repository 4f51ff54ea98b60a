import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { IngestIssue } from '../../../lib/ingest/source';
import { readStarkCsv, starkCsvHeader, starkCsvRow } from '../../../lib/queries/formats/stark';
import type { SourcedQuery } from '../../../lib/queries/types';
import { BAD_UTF8, dataFile } from '../readers/helpers';

type Input = Parameters<typeof readStarkCsv>[0];

async function read(input: Input, file = 'q.csv'): Promise<{ queries: SourcedQuery[]; issues: string[] }> {
  const queries: SourcedQuery[] = [];
  const issues: string[] = [];
  for await (const item of readStarkCsv(input, file)) {
    if (item instanceof IngestIssue) issues.push(item.toString());
    else queries.push(item);
  }
  return { queries, issues };
}

/** A stream that hands the bytes over `size` at a time, to cut lines, characters and the BOM apart. */
function trickle(bytes: Buffer, size: number): Readable {
  const chunks: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size));
  return Readable.from(chunks);
}

const REAL_FILES = [
  { parts: ['stark-qa', 'prime', 'stark_qa.csv'], queries: 11204, seeds: false },
  { parts: ['stark-qa', 'prime', 'stark_qa_human_generated_eval.csv'], queries: 109, seeds: true },
  { parts: ['stark-qa', 'amazon', 'stark_qa.csv'], queries: 9100, seeds: false },
  { parts: ['stark-qa', 'amazon', 'stark_qa_human_generated_eval.csv'], queries: 81, seeds: true },
  { parts: ['primekg-ibd', 'stark_prime_qa_ibd_subset.csv'], queries: 829, seeds: false },
];

describe('readStarkCsv and the writer on the real STaRK files', () => {
  it.each(REAL_FILES)('reads $parts.1 and writes it back byte for byte', async ({ parts, queries: count, seeds }) => {
    const file = dataFile(...parts);
    const bytes = fs.readFileSync(file);
    const { queries, issues } = await read(fs.createReadStream(file, { highWaterMark: 64 * 1024 }), path.basename(file));
    expect(issues).toEqual([]);
    // The query counts the STaRK paper publishes (Table 3) and the subset's README count.
    expect(queries).toHaveLength(count);

    const written = starkCsvHeader(seeds) + queries.map((q) => starkCsvRow(q, seeds)).join('');
    expect(Buffer.from(written, 'utf8').equals(bytes)).toBe(true);

    // Each record's line is where the file shows its id, counted without the reader.
    const lines = bytes.toString('utf8').split('\n');
    for (const q of queries) expect(lines[q.at.line - 1]!.startsWith(`${q.id},`)).toBe(true);
    expect(queries.every((q) => q.split === null && Object.keys(q.metadata).length === 0)).toBe(true);
    expect(queries.every((q) => (seeds ? q.seeds.length === 1 : q.seeds.length === 0))).toBe(true);
  });

  it('reads records that span lines (quoted line breaks) at their first line', async () => {
    const file = dataFile('stark-qa', 'prime', 'stark_qa.csv');
    const { queries } = await read(fs.readFileSync(file));
    const multiLine = queries.filter((q) => q.text.includes('\n'));
    // Python's csv module finds 12 such queries in this file.
    expect(multiLine).toHaveLength(12);
    const index = queries.indexOf(multiLine[0]!);
    const next = queries[index + 1]!;
    expect(next.at.line).toBe(multiLine[0]!.at.line + multiLine[0]!.text.split('\n').length);
  });
});

describe('readStarkCsv on hand-made files', () => {
  it('reads quotes, commas, CR and CRLF inside quotes, empty lists and seeds, and writes them back', async () => {
    const text =
      'id,query,answer_ids,answer_ids_source\n' +
      '0,"Say ""hi"", then go",[],[5]\n' +
      '7,"one\r\ntwo\rthree\nfour","[1, 22]",[]\n' +
      '12, spaced query ,[3],"[3, 4]"\n';
    const { queries, issues } = await read(text);
    expect(issues).toEqual([]);
    expect(queries).toEqual([
      { id: '0', text: 'Say "hi", then go', answers: [], seeds: ['5'], split: null, metadata: {}, at: { file: 'q.csv', line: 2 } },
      { id: '7', text: 'one\r\ntwo\rthree\nfour', answers: ['1', '22'], seeds: [], split: null, metadata: {}, at: { file: 'q.csv', line: 3 } },
      { id: '12', text: ' spaced query ', answers: ['3'], seeds: ['3', '4'], split: null, metadata: {}, at: { file: 'q.csv', line: 6 } },
    ]);
    expect(starkCsvHeader(true) + queries.map((q) => starkCsvRow(q, true)).join('')).toBe(text);
  });

  it('accepts other spacing in id lists and writes the canonical form', async () => {
    const { queries, issues } = await read('id,query,answer_ids\n1,a,"[1,2]"\n2,b,[ 3 ]\n3,c, [ ] \n4,d,"[ 5 ,6 ]"\n');
    expect(issues).toEqual([]);
    expect(queries.map((q) => q.answers)).toEqual([['1', '2'], ['3'], [], ['5', '6']]);
    expect(queries.map((q) => starkCsvRow(q, false)).join('')).toBe('1,a,"[1, 2]"\n2,b,[3]\n3,c,[]\n4,d,"[5, 6]"\n');
  });

  it('reports each bad row at the line it starts on and reads on', async () => {
    const text = [
      'id,query,answer_ids', // 1
      '1,"multi', // 2
      'line",[1]', // 3
      '01,q,[1]', // 4
      '2,,[1]', // 5
      '3,q,[1;2]', // 6
      '4,q,"[1, -2, x]"', // 7
      '5,q', // 8
      '6,"bad"x,[1]', // 9
      '7,x""y,[1]', // 10
      '-8,"two', // 11
      'lines",[8]', // 12
      '', // 13: a blank line between records
      '9,"ok ""quoted""",[9]', // 14
      '10,"never closed,[1]', // 15
      '11,q,[2]', // 16
      '',
    ].join('\n');
    const { queries, issues } = await read(text);
    expect(queries.map((q) => [q.id, q.at.line])).toEqual([
      ['1', 2],
      ['9', 14],
    ]);
    expect(issues).toEqual([
      'q.csv:4: id: expected a non-negative integer (digits, no sign, no leading zero), found "01"',
      'q.csv:5: query: empty',
      'q.csv:6: answer_ids[0]: expected a non-negative integer, found "1;2"',
      'q.csv:7: answer_ids[1]: expected a non-negative integer, found "-2"; answer_ids[2]: expected a non-negative integer, found "x"',
      'q.csv:8: expected 3 fields (id,query,answer_ids), found 2',
      'q.csv:9: a quoted field must end with a quote followed by "," or the line end',
      'q.csv:10: a field holding a quote must be quoted as a whole, with the quote doubled',
      'q.csv:11: id: expected a non-negative integer (digits, no sign, no leading zero), found "-8"',
      'q.csv:15: a quote opened in this record is never closed',
    ]);
  });

  it('names the problem with a list that is not a list', async () => {
    const { issues } = await read('id,query,answer_ids,answer_ids_source\n1,q,1,[2\n');
    expect(issues).toEqual([
      'q.csv:2: answer_ids: expected a list of ids like [1, 2], found "1"; answer_ids_source: expected a list of ids like [1, 2], found "[2"',
    ]);
  });

  it('stops at a wrong header, saying what was expected and found', async () => {
    const { queries, issues } = await read('id,question,answer_ids\n1,q,[1]\n');
    expect(queries).toEqual([]);
    expect(issues).toEqual([
      'q.csv:1: expected the header "id,query,answer_ids" or "id,query,answer_ids,answer_ids_source", found "id,question,answer_ids"',
    ]);
  });

  it('reports an empty file once', async () => {
    expect((await read('')).issues).toEqual([
      'q.csv:1: empty file: expected the header "id,query,answer_ids" or "id,query,answer_ids,answer_ids_source", found ""',
    ]);
  });

  it('reads a stream cut anywhere the same as the whole text, dropping a BOM', async () => {
    const text = 'id,query,answer_ids\n1,"Crème brûlée, 🍮 ""dessert""\nrecipes",[1]\n2,ß,"[2, 3]"\n';
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]);
    const whole = await read(text);
    expect(whole.issues).toEqual([]);
    expect(whole.queries.map((q) => q.text)).toEqual(['Crème brûlée, 🍮 "dessert"\nrecipes', 'ß']);
    for (const size of [1, 2, 3, 5]) expect(await read(trickle(bytes, size))).toEqual(whole);
    expect(await read(bytes)).toEqual(whole);
  });

  it('reports a line that is not UTF-8 and reads the other rows', async () => {
    const bytes = Buffer.concat([Buffer.from('id,query,answer_ids\n1,a,[1]\n2,"b'), BAD_UTF8, Buffer.from('\nc",[2]\n3,d,[3]\n')]);
    const { queries, issues } = await read(bytes);
    expect(queries.map((q) => q.id)).toEqual(['1', '3']);
    expect(issues).toEqual(['q.csv:3: not valid UTF-8 text']);
  });

  it('reads CRLF files', async () => {
    const { queries, issues } = await read('id,query,answer_ids\r\n1,"a\r\nb",[1]\r\n\r\n2,c,"[2, 3]"\r\n');
    expect(issues).toEqual([]);
    expect(queries.map((q) => [q.id, q.text, q.answers, q.at.line])).toEqual([
      ['1', 'a\r\nb', ['1'], 2],
      ['2', 'c', ['2', '3'], 5],
    ]);
  });
});

describe('starkCsvRow', () => {
  const query = { id: '3', text: 'a, "b"', answers: ['1', '2'], seeds: ['9'], split: 'test', metadata: { x: 1 } };

  it('quotes only fields holding a comma, a quote or a line break, as pandas does', () => {
    expect(starkCsvRow(query, true)).toBe('3,"a, ""b""","[1, 2]",[9]\n');
    expect(starkCsvRow({ ...query, text: 'plain text', answers: ['4'] }, false)).toBe('3,plain text,[4]\n');
    expect(starkCsvRow({ ...query, text: 'a\rb' }, false)).toBe('3,"a\rb","[1, 2]"\n');
    expect(starkCsvHeader(false)).toBe('id,query,answer_ids\n');
  });

  it('refuses ids STaRK cannot hold', () => {
    expect(() => starkCsvRow({ ...query, id: 'Q1' }, false)).toThrow('query "Q1": STaRK ids must be non-negative integers, found "Q1"');
    expect(() => starkCsvRow({ ...query, answers: ['1', '007'] }, false)).toThrow('found "007"');
    expect(() => starkCsvRow({ ...query, seeds: ['x'] }, true)).toThrow('found "x"');
    // Seeds are not written without the seed column, so they need not be integers then.
    expect(starkCsvRow({ ...query, seeds: ['x'] }, false)).toBe('3,"a, ""b""","[1, 2]"\n');
  });
});
