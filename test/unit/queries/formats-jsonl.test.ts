import fs from 'node:fs';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { IngestIssue } from '../../../lib/ingest/source';
import { jsonlRow, readJsonlQueries } from '../../../lib/queries/formats/jsonl';
import { readStarkCsv } from '../../../lib/queries/formats/stark';
import type { QueryRecord, SourcedQuery } from '../../../lib/queries/types';
import { BAD_UTF8, dataFile, jsonError } from '../readers/helpers';

async function read(input: Parameters<typeof readJsonlQueries>[0], file = 'q.jsonl'): Promise<{ queries: SourcedQuery[]; issues: string[] }> {
  const queries: SourcedQuery[] = [];
  const issues: string[] = [];
  for await (const item of readJsonlQueries(input, file)) {
    if (item instanceof IngestIssue) issues.push(item.toString());
    else queries.push(item);
  }
  return { queries, issues };
}

const records: QueryRecord[] = [
  { id: '0', text: 'plain', answers: [], seeds: [], split: null, metadata: {} },
  { id: '12', text: 'with "quotes",\nnewline and ünïcode', answers: ['7', '3', '7'], seeds: ['3'], split: 'train', metadata: {} },
  { id: 'Q-1', text: 'text ids', answers: ['007', 'Q5', '-2'], seeds: [], split: 'test', metadata: { template: 't1', judgments: [{ entity: 'Q5', grade: 2 }] } },
  // Beyond 2^53 - 1 an integer would lose digits as a JSON number, so it stays a string.
  { id: '9007199254740993', text: 'big', answers: ['9007199254740991'], seeds: [], split: null, metadata: { nested: { a: [1, null] } } },
];

describe('jsonlRow', () => {
  it('writes integer ids as numbers, others as strings, keys in order, optional keys only when set', () => {
    expect(records.map(jsonlRow)).toEqual([
      '{"id":0,"query":"plain","answer_ids":[]}\n',
      '{"id":12,"query":"with \\"quotes\\",\\nnewline and ünïcode","answer_ids":[7,3,7],"answer_ids_source":[3],"split":"train"}\n',
      '{"id":"Q-1","query":"text ids","answer_ids":["007","Q5","-2"],"split":"test","metadata":{"template":"t1","judgments":[{"entity":"Q5","grade":2}]}}\n',
      '{"id":"9007199254740993","query":"big","answer_ids":[9007199254740991],"metadata":{"nested":{"a":[1,null]}}}\n',
    ]);
  });
});

describe('readJsonlQueries', () => {
  it('reads back exactly what jsonlRow writes', async () => {
    const { queries, issues } = await read(records.map(jsonlRow).join(''));
    expect(issues).toEqual([]);
    expect(queries).toEqual(records.map((r, i) => ({ ...r, at: { file: 'q.jsonl', line: i + 1 } })));
  });

  it('reads the real STaRK-Prime human queries through JSONL unchanged', async () => {
    const original: SourcedQuery[] = [];
    for await (const item of readStarkCsv(fs.createReadStream(dataFile('stark-qa', 'prime', 'stark_qa_human_generated_eval.csv')), 'h.csv')) {
      if (item instanceof IngestIssue) throw new Error(item.toString());
      original.push(item);
    }
    expect(original).toHaveLength(109);
    const { queries, issues } = await read(Readable.from([Buffer.from(original.map(jsonlRow).join(''))]));
    expect(issues).toEqual([]);
    const strip = ({ at, ...rest }: SourcedQuery) => rest;
    expect(queries.map(strip)).toEqual(original.map(strip));
  });

  it('reads string and integer ids as text, null split as none, and skips blank lines', async () => {
    const text = '{"id": "a1", "query": "q", "answer_ids": [1, "b2"], "answer_ids_source": [], "split": null}\n\n  \r\n{"id": 5, "query": "r", "answer_ids": []}\r\n';
    const { queries, issues } = await read(text);
    expect(issues).toEqual([]);
    expect(queries).toEqual([
      { id: 'a1', text: 'q', answers: ['1', 'b2'], seeds: [], split: null, metadata: {}, at: { file: 'q.jsonl', line: 1 } },
      { id: '5', text: 'r', answers: [], seeds: [], split: null, metadata: {}, at: { file: 'q.jsonl', line: 4 } },
    ]);
  });

  it('reports each bad line with its number and the fields at fault', async () => {
    const lines = [
      '{"id": 1, "query": "ok", "answer_ids": [2]}',
      '{"id": 2, "query": "q", "answer_ids": [1, "x", 1.5, null]}',
      '{"id": 3.5, "query": "", "answer_ids": "1"}',
      '{"id": 4, "query": "q", "answer_ids": [], "answer_ids_source": [""], "split": "", "metadata": [1]}',
      '{"id": 123456789012345678901, "query": "q", "answer_ids": []}',
      '{"id": 6, "query": 6, "answer_ids": [], "answers": [], "extra": 1}',
      '{"query": "q"}',
      '{"id": 8, "query": "q", "answer_ids": [],}',
      '[1, 2]',
      '{"id": 10, "query": "fine", "answer_ids": [10]}',
    ];
    const { queries, issues } = await read(lines.join('\n'));
    expect(queries.map((q) => [q.id, q.at.line])).toEqual([
      ['1', 1],
      ['10', 10],
    ]);
    expect(issues).toEqual([
      'q.jsonl:2: answer_ids[2]: expected an integer or a string; answer_ids[3]: expected an integer or a string',
      'q.jsonl:3: id: expected an integer or a string; query: must not be empty; answer_ids: expected a list of ids',
      'q.jsonl:4: answer_ids_source[0]: expected a non-empty string; split: must not be empty; metadata: expected a JSON object',
      'q.jsonl:5: id: integer too large to read exactly: write it as a string',
      'q.jsonl:6: query: expected a string; unknown fields "answers", "extra"',
      'q.jsonl:7: id: expected an integer or a string; answer_ids: expected a list of ids',
      `q.jsonl:8: invalid JSON: ${jsonError(lines[7]!)}`,
      'q.jsonl:9: expected a JSON object',
    ]);
  });

  it('reports a line that is not UTF-8', async () => {
    const bytes = Buffer.concat([Buffer.from('{"id": 1, "query": "a'), BAD_UTF8, Buffer.from('", "answer_ids": []}\n{"id": 2, "query": "b", "answer_ids": []}\n')]);
    const { queries, issues } = await read(bytes);
    expect(queries.map((q) => q.id)).toEqual(['2']);
    expect(issues).toEqual(['q.jsonl:1: not valid UTF-8 text']);
  });
});
