import { describe, expect, it } from 'vitest';
import { detectRunFormat, MAX_LISTED, orderRun, parseRun, type RankedEntity } from '../../../lib/queries/run-files';

const text = (issues: { toString(): string }[]) => issues.map(String);
const entries = (run: Map<string, RankedEntity[]>) => Object.fromEntries(run);

describe('parseRun: TREC', () => {
  it('reads queries, entities, ranks, scores and the run tag, counting physical lines', () => {
    const got = parseRun('\ufeff7 Q0 E1 1 12.5 bm25\r\n\r\n7 Q0 E2 2 -3e-1 bm25\n  8 0 E1 0 4 bm25  \n', 'run.trec', 'trec');
    expect(got.issues).toEqual([]);
    expect(got.warnings).toEqual([]);
    expect(got.runName).toBe('bm25');
    expect(entries(got.run)).toEqual({
      '7': [
        { entity: 'E1', score: 12.5, rank: 1, line: 1 },
        { entity: 'E2', score: -0.3, rank: 2, line: 3 },
      ],
      // Rank 0 is accepted: some tools number from 0, and trec_eval ignores ranks.
      '8': [{ entity: 'E1', score: 4, rank: 0, line: 4 }],
    });
  });

  it('reports malformed lines, bad numbers and repeated entities with their lines', () => {
    const got = parseRun(
      ['1 Q0 A 1 0.9 r', '1 Q0 B 2 0.8', '1 Q0 C x 0.7 r', '1 Q0 D 4 high r', '1 Q0 E -5 0.5 r', '1 Q0 F 6 1e999 r', '1 Q0 A 7 0.3 r'].join('\n'),
      'run.trec',
      'trec',
    );
    expect(text(got.issues)).toEqual([
      'run.trec:2: expected 6 fields "<query> Q0 <entity> <rank> <score> <run tag>", found 5',
      'run.trec:3: rank "x" is not a non-negative integer',
      'run.trec:4: score "high" is not a number',
      'run.trec:5: rank "-5" is not a non-negative integer',
      'run.trec:6: score "1e999" is not a number',
      'run.trec:7: query "1": entity "A" is ranked twice (also at line 1)',
    ]);
    expect(got.run.get('1')!.map((e) => e.entity)).toEqual(['A']);
  });

  it('warns of a second run tag once', () => {
    const got = parseRun('1 Q0 A 1 3 first\n1 Q0 B 2 2 second\n1 Q0 C 3 1 second\n', 'run.trec', 'trec');
    expect(got.runName).toBe('first');
    expect(text(got.warnings)).toEqual(['run.trec:2: run tag "second" differs from "first" of the first line; the run is named "first"']);
  });

  it('warns of tied scores, citing both lines', () => {
    const got = parseRun('1 Q0 A 1 2 r\n1 Q0 B 2 1 r\n2 Q0 A 1 1 r\n1 Q0 C 3 1 r\n1 Q0 D 4 1.0 r\n', 'run.trec', 'trec');
    expect(got.issues).toEqual([]);
    expect(text(got.warnings)).toEqual([
      'run.trec:4: 2 entities have the same score as another entity of their query; ties are ranked by entity id, descending, as trec_eval does',
      'run.trec:4: query "1": entity "C" has the same score (1) as entity "B" (line 2)',
      'run.trec:5: query "1": entity "D" has the same score (1) as entity "B" (line 2)',
    ]);
  });

  it('lists a limited number of ties and problems and counts the rest', () => {
    const lines = Array.from({ length: MAX_LISTED + 11 }, (_, i) => `1 Q0 E${i} ${i + 1} 0 r`);
    const ties = parseRun(lines.join('\n'), 'run.trec', 'trec');
    expect(ties.warnings).toHaveLength(MAX_LISTED + 1);
    expect(ties.warnings[0]!.toString()).toBe(
      `run.trec:2: ${MAX_LISTED + 10} entities have the same score as another entity of their query; the first ${MAX_LISTED} are listed; ties are ranked by entity id, descending, as trec_eval does`,
    );
    const bad = parseRun(Array(MAX_LISTED + 3).fill('garbage').join('\n'), 'run.trec', 'trec');
    expect(bad.issues).toHaveLength(MAX_LISTED + 1);
    expect(bad.issues.at(-1)!.toString()).toBe(`run.trec:${MAX_LISTED + 1}: 3 more problems from this line on are not listed`);
  });
});

describe('parseRun: CSV', () => {
  it('reads the columns in any order, with or without rank, trimming ids', () => {
    const got = parseRun('score,Entity_ID,query_id,note\n0.5, 12 ,q1,x\n"0.25","a,b",q1,"two\nlines"\n', 'run.csv', 'csv');
    expect(got.issues).toEqual([]);
    expect(got.runName).toBeUndefined();
    expect(entries(got.run)).toEqual({
      q1: [
        { entity: '12', score: 0.5, rank: null, line: 2 },
        { entity: 'a,b', score: 0.25, rank: null, line: 3 },
      ],
    });
    const ranked = parseRun('query_id,entity_id,rank,score\r\nq1,e1,1,9\r\n\r\nq1,e2,2,8\r\n', 'run.csv', 'csv');
    expect(ranked.issues).toEqual([]);
    expect(ranked.run.get('q1')).toEqual([
      { entity: 'e1', score: 9, rank: 1, line: 2 },
      { entity: 'e2', score: 8, rank: 2, line: 4 },
    ]);
  });

  it('says which columns the header lacks', () => {
    expect(text(parseRun('qid,entity_id\nq1,e1\n', 'run.csv', 'csv').issues)).toEqual([
      'run.csv:1: the header lacks the columns query_id, score (found: qid, entity_id)',
    ]);
    expect(text(parseRun('query_id,entity_id,score,score\n', 'run.csv', 'csv').issues)).toEqual(['run.csv:1: column "score" appears twice in the header']);
    expect(text(parseRun('', 'run.csv', 'csv').issues)).toEqual([
      'run.csv:1: the file is empty; expected a header with the columns query_id, entity_id, score (and optionally rank)',
    ]);
  });

  it('reports bad rows with the line they start on, after a field spanning lines', () => {
    const got = parseRun(
      ['query_id,entity_id,score,rank', 'q1,"e\n1",1,1', 'q1,e2,abc,2', 'q1,,3,3', 'q1,e3,3', 'q1,e4,4,1.5', 'q1,"e\n1",0,7'].join('\n'),
      'run.csv',
      'csv',
    );
    expect(text(got.issues)).toEqual([
      'run.csv:4: score "abc" is not a number',
      'run.csv:5: entity_id is empty',
      'run.csv:6: expected 4 fields as in the header, found 3',
      'run.csv:7: rank "1.5" is not a non-negative integer',
      'run.csv:8: query "q1": entity "e\n1" is ranked twice (also at line 2)',
    ]);
  });

  it('stops at a broken quote', () => {
    expect(text(parseRun('query_id,entity_id,score\nq1,e1,1\nq1,"e2,2\n', 'run.csv', 'csv').issues)).toEqual([
      expect.stringMatching(/^run\.csv:\d+: unreadable CSV: Quote Not Closed/),
    ]);
  });
});

describe('parseRun: JSONL', () => {
  it('reads plain rankings with integer and string ids, and scored ones', () => {
    const got = parseRun(
      '{"query_id": 3, "ranking": [10, " 11 ", "x"]}\n\n{"query_id": "4", "ranking": [{"entity_id": 1, "score": 0.5}, {"entity_id": "2", "score": 0.5, "extra": true}]}\n{"query_id": 5, "ranking": []}\n',
      'run.jsonl',
      'jsonl',
    );
    expect(got.issues).toEqual([]);
    expect(entries(got.run)).toEqual({
      '3': [
        { entity: '10', score: null, rank: 1, line: 1 },
        { entity: '11', score: null, rank: 2, line: 1 },
        { entity: 'x', score: null, rank: 3, line: 1 },
      ],
      '4': [
        { entity: '1', score: 0.5, rank: 1, line: 3 },
        { entity: '2', score: 0.5, rank: 2, line: 3 },
      ],
      '5': [],
    });
    expect(text(got.warnings)).toEqual([
      'run.jsonl:3: 1 entities have the same score as another entity of their query; ties are ranked by entity id, descending, as trec_eval does',
      'run.jsonl:3: ranking[1]: query "4": entity "2" has the same score (0.5) as entity "1" (ranking[0])',
    ]);
  });

  it('reports the line and field of each problem', () => {
    const got = parseRun(
      [
        '{"query_id": 1, "ranking": [1, 2',
        '[1, 2]',
        '{"ranking": [1]}',
        '{"query_id": 2, "ranking": "1 2"}',
        '{"query_id": 3, "ranking": [1, 2.5]}',
        '{"query_id": 4, "ranking": [{"entity_id": 1, "score": 1}, {"entity_id": 2, "score": "high"}]}',
        '{"query_id": 5, "ranking": [{"entity_id": 1, "score": 1}, 2]}',
        '{"query_id": 6, "ranking": [7, 8, 7]}',
        '{"query_id": 6, "ranking": [9]}',
        '{"query_id": 99999999999999999999, "ranking": []}',
      ].join('\n'),
      'run.jsonl',
      'jsonl',
    );
    expect(text(got.issues)).toEqual([
      expect.stringMatching(/^run\.jsonl:1: invalid JSON: /),
      'run.jsonl:2: expected a JSON object {"query_id", "ranking"}',
      'run.jsonl:3: query_id: expected a non-empty string or a safe integer (write larger ids as strings)',
      'run.jsonl:4: ranking: expected a list of entity ids or of {"entity_id", "score"} objects',
      'run.jsonl:5: ranking[1]: expected a non-empty string or a safe integer (write larger ids as strings)',
      'run.jsonl:6: ranking[1].score: expected a number',
      'run.jsonl:7: ranking[1]: expected an {"entity_id", "score"} object, like the first item',
      'run.jsonl:8: ranking[2]: query "6": entity "7" is ranked twice (also at ranking[0])',
      'run.jsonl:9: query "6" already has a ranking at line 8',
      'run.jsonl:10: query_id: expected a non-empty string or a safe integer (write larger ids as strings)',
    ]);
  });
});

describe('orderRun', () => {
  const item = (entity: string, score: number | null, rank: number | null, line: number): RankedEntity => ({ entity, score, rank, line });

  it('sorts by score, breaking ties by entity id in descending byte order as trec_eval does', () => {
    const run = new Map([
      // U+1F600 is above U+FF01 as a code point (and in UTF-8), below it as UTF-16 code units.
      ['q', [item('b', 1, 4, 1), item('10', 2, 3, 2), item('9', 2, 2, 3), item('\uFF01', 1, 1, 4), item('\u{1F600}', 1, 5, 5), item('a', 1, 6, 6)]],
    ]);
    expect(orderRun(run).get('q')).toEqual(['9', '10', '\u{1F600}', '\uFF01', 'b', 'a']);
  });

  it('uses ranks when there are no scores, then file order', () => {
    const run = new Map([
      ['byRank', [item('x', null, 3, 1), item('y', null, 1, 2), item('z', null, 3, 3), item('w', null, 2, 4)]],
      ['asRead', [item('x', null, 2, 1), item('y', null, null, 2), item('z', null, 1, 3)]],
      ['empty', []],
    ]);
    expect(Object.fromEntries(orderRun(run))).toEqual({ byRank: ['y', 'w', 'x', 'z'], asRead: ['x', 'y', 'z'], empty: [] });
  });

  it('orders a JSONL ranking as written', () => {
    expect(orderRun(parseRun('{"query_id": 1, "ranking": [5, 3, 4]}', 'r.jsonl', 'jsonl').run).get('1')).toEqual(['5', '3', '4']);
  });
});

describe('detectRunFormat', () => {
  it('reads the first line, then the extension', () => {
    expect(detectRunFormat('run.txt', '{"query_id": 1, "ranking": []}')).toBe('jsonl');
    expect(detectRunFormat('run.txt', '\ufeff"query_id","entity_id","score"')).toBe('csv');
    expect(detectRunFormat('run.txt', 'rank,score,entity_id,query_id')).toBe('csv');
    expect(detectRunFormat('run', '301 Q0 FBIS3-1 1 14.2 bm25')).toBe('trec');
    expect(detectRunFormat('run.jsonl', '')).toBe('jsonl');
    expect(detectRunFormat('RUN.CSV', 'garbage')).toBe('csv');
    expect(detectRunFormat('bm25.run', 'garbage')).toBe('trec');
    expect(detectRunFormat('run.txt', 'garbage')).toBeNull();
  });
});
