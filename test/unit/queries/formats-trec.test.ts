import { describe, expect, it } from 'vitest';
import { mergeTopicsAndQrels, readTrecQrels, readTrecTopics, writeTrecQrels, writeTrecTopics } from '../../../lib/queries/formats/trec';
import type { QueryRecord } from '../../../lib/queries/types';

function query(id: string, text: string, answers: string[], metadata: Record<string, unknown> = {}): QueryRecord {
  return { id, text, answers, seeds: [], split: null, metadata };
}

describe('readTrecTopics', () => {
  it('splits each line at the first space or tab, keeping the rest as it is', () => {
    const text = 'INEX_LD-2009022\tSzechwan dish food cuisine\n\nQALD2_te-1  two  spaces \r\n   \n42 one\n';
    const { topics, issues } = readTrecTopics(text, 'topics.txt');
    expect(issues).toEqual([]);
    expect(topics).toEqual([
      { id: 'INEX_LD-2009022', text: 'Szechwan dish food cuisine', at: { file: 'topics.txt', line: 1 } },
      { id: 'QALD2_te-1', text: ' two  spaces ', at: { file: 'topics.txt', line: 3 } },
      { id: '42', text: 'one', at: { file: 'topics.txt', line: 5 } },
    ]);
  });

  it('reports a line with no query text after the id', () => {
    const { topics, issues } = readTrecTopics('1 ok\n2\n3 \t\n', 'topics.txt');
    expect(topics.map((t) => t.id)).toEqual(['1']);
    expect(issues.map(String)).toEqual([
      'topics.txt:2: expected "<query id> <query text>", found no query text after the id',
      'topics.txt:3: expected "<query id> <query text>", found no query text after the id',
    ]);
  });
});

describe('readTrecQrels', () => {
  it('groups judgments by query in file order, with grades and lines', () => {
    const { file, judgments, issues } = readTrecQrels('q1 0 e1 1\n\nq2 Q0 e9 2\nq1\t0\te2\t0\r\nq1 0 e3 -1\n', 'qrels.txt');
    expect(issues).toEqual([]);
    expect(file).toBe('qrels.txt');
    expect([...judgments]).toEqual([
      [
        'q1',
        [
          { entity: 'e1', grade: 1, line: 1 },
          { entity: 'e2', grade: 0, line: 4 },
          { entity: 'e3', grade: -1, line: 5 },
        ],
      ],
      ['q2', [{ entity: 'e9', grade: 2, line: 3 }]],
    ]);
  });

  it('reports wrong field counts, grades that are not integers, and an entity judged twice', () => {
    const { judgments, issues } = readTrecQrels('q1 0 e1\nq1 0 e1 1 extra\nq1 0 e1 high\nq1 0 e1 1.5\nq1 0 e1 1\nq1 0 e1 2\n', 'qrels.txt');
    expect(issues.map(String)).toEqual([
      'qrels.txt:1: expected 4 fields "<query id> <iteration> <entity id> <grade>", found 3',
      'qrels.txt:2: expected 4 fields "<query id> <iteration> <entity id> <grade>", found 5',
      'qrels.txt:3: grade: expected an integer, found "high"',
      'qrels.txt:4: grade: expected an integer, found "1.5"',
      'qrels.txt:6: entity "e1" is judged twice for query "q1", on lines 5 and 6',
    ]);
    expect(judgments.get('q1')).toEqual([{ entity: 'e1', grade: 1, line: 5 }]);
  });
});

describe('mergeTopicsAndQrels', () => {
  const topics = readTrecTopics('b binary query\ng graded query\nn no qrels\n', 'topics.txt').topics;

  it('takes entities graded above 0 as answers and keeps graded judgments in metadata', () => {
    const qrels = readTrecQrels('b 0 x 1\nb 0 y 1\ng 0 p 2\ng 0 q 0\ng 0 r 1\nz 0 x 1\nz 0 y 1\nw 0 x 1\n', 'qrels.txt');
    const { records, issues } = mergeTopicsAndQrels(topics, qrels);
    expect(records).toEqual([
      { id: 'b', text: 'binary query', answers: ['x', 'y'], seeds: [], split: null, metadata: {}, at: { file: 'topics.txt', line: 1 } },
      {
        id: 'g',
        text: 'graded query',
        answers: ['p', 'r'],
        seeds: [],
        split: null,
        metadata: {
          judgments: [
            { entity: 'p', grade: 2 },
            { entity: 'q', grade: 0 },
            { entity: 'r', grade: 1 },
          ],
        },
        at: { file: 'topics.txt', line: 2 },
      },
      { id: 'n', text: 'no qrels', answers: [], seeds: [], split: null, metadata: {}, at: { file: 'topics.txt', line: 3 } },
    ]);
    expect(issues.map(String)).toEqual([
      'qrels.txt:6: judgments for query "z", which is not in the topics',
      'qrels.txt:8: judgments for query "w", which is not in the topics',
    ]);
  });

  it('keeps the judgments of a query whose only judgment is not relevant', () => {
    const { records } = mergeTopicsAndQrels(topics, readTrecQrels('n 0 x 0\n', 'qrels.txt'));
    expect(records[2]).toMatchObject({ answers: [], metadata: { judgments: [{ entity: 'x', grade: 0 }] } });
  });
});

describe('TREC writers', () => {
  const records = [
    query('101', 'first line\r\nsecond\rthird\nfourth', ['7', '3']),
    query('102', 'graded', ['5'], { judgments: [{ entity: '5', grade: 2 }, { entity: '6', grade: 0 }], template: 't1' }),
    query('103', 'unanswered', []),
  ];

  it('writes one topic line per query, line breaks as spaces', () => {
    expect(writeTrecTopics(records)).toBe('101 first line second third fourth\n102 graded\n103 unanswered\n');
  });

  it('writes qrels from graded judgments when a query has them, else its answers at grade 1', () => {
    expect(writeTrecQrels(records)).toBe('101 0 7 1\n101 0 3 1\n102 0 5 2\n102 0 6 0\n');
  });

  it('reads back what it writes', () => {
    const topics = readTrecTopics(writeTrecTopics(records), 'topics.txt');
    const qrels = readTrecQrels(writeTrecQrels(records), 'qrels.txt');
    expect([...topics.issues, ...qrels.issues]).toEqual([]);
    const { records: back, issues } = mergeTopicsAndQrels(topics.topics, qrels);
    expect(issues).toEqual([]);
    expect(back.map(({ id, text, answers, metadata }) => ({ id, text, answers, metadata }))).toEqual([
      { id: '101', text: 'first line second third fourth', answers: ['7', '3'], metadata: {} },
      { id: '102', text: 'graded', answers: ['5'], metadata: { judgments: [{ entity: '5', grade: 2 }, { entity: '6', grade: 0 }] } },
      { id: '103', text: 'unanswered', answers: [], metadata: {} },
    ]);
  });

  it('refuses ids that cannot be a whitespace-separated field and malformed judgments', () => {
    expect(() => writeTrecTopics([query('a b', 'q', [])])).toThrow('query "a b": query id "a b" cannot be a TREC field');
    expect(() => writeTrecQrels([query('1', 'q', ['x y'])])).toThrow('query "1": entity id "x y" cannot be a TREC field');
    expect(() => writeTrecQrels([query('1', 'q', [], { judgments: [{ entity: 'x', grade: 'high' }] })])).toThrow(
      'query "1": metadata.judgments must be a list of {entity, grade} with integer grades',
    );
  });
});
