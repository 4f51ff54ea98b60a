import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseNpyHeader, readEmbeddingFile, readJsonl, readNpy, type EmbeddingInput, type EmbeddingRecord } from '../../../lib/vectors/readers';
import { unitVector, type EmbeddingIssue } from '../../../lib/vectors/vector';
import { npyBytes as npy } from '../../support/npy';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skb-embeddings-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function write(name: string, content: string | Buffer): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, content);
  return file;
}

async function collect(input: EmbeddingInput): Promise<{ records: EmbeddingRecord[]; issues: EmbeddingIssue[] }> {
  const records: EmbeddingRecord[] = [];
  const issues: EmbeddingIssue[] = [];
  for await (const r of input) ('id' in r ? records : issues).push(r as never);
  return { records, issues };
}

describe('JSONL embeddings', () => {
  it('reads ids (numbers as their text) and vectors with their lines, skipping blank lines', async () => {
    const file = write('ok.jsonl', '{"id": "a", "vector": [1, 0]}\n\n{"id": 7, "vector": [0.5, 0.5]}\n');
    const { records, issues } = await collect(readJsonl(file));
    expect(issues).toEqual([]);
    expect(records.map((r) => [r.id, Array.from(r.values as number[]), r.where.line])).toEqual([['a', [1, 0], 1], ['7', [0.5, 0.5], 3]]);
  });

  it('names the line and field of each malformed line', async () => {
    const file = write('bad.jsonl', [
      '{"id": "a", "vector": [1, NaN]}',
      '{"id": "b", "vector": [Infinity, 1]}',
      '{"id": "c", "vector": [1, 2]',
      '[1, 2]',
      '{"vector": [1, 2]}',
      '{"id": true, "vector": [1, 2]}',
      '{"id": "g"}',
      '{"id": "h", "vector": "1,2"}',
    ].join('\n'));
    const { records, issues } = await collect(readJsonl(file));
    expect(records).toEqual([]);
    expect(issues.map((i) => [i.line, i.field, i.reason])).toEqual([
      [1, 'vector', 'holds NaN or Infinity'],
      [2, 'vector', 'holds NaN or Infinity'],
      [3, 'line', 'is not valid JSON'],
      [4, 'line', 'must be a JSON object with "id" and "vector"'],
      [5, 'id', 'is missing'],
      [6, 'id', 'must be a string or an integer'],
      [7, 'vector', 'is missing'],
      [8, 'vector', 'must be an array of numbers'],
    ]);
    expect(issues[0]!.file).toBe('bad.jsonl');
  });
});

describe('vector checks', () => {
  it('returns the unit vector', () => {
    expect(Array.from(unitVector([3, 4]) as Float32Array)).toEqual([Math.fround(0.6), Math.fround(0.8)]);
  });

  it.each([
    [[1, Number.NaN], 'vector[1] is NaN'],
    [[Number.POSITIVE_INFINITY, 1], 'vector[0] is Infinity'],
    [[1, Number.NEGATIVE_INFINITY], 'vector[1] is -Infinity'],
    [[1, 1e39], 'vector[1] (1e+39) is beyond the float32 range'],
    [[1, '2'], 'vector[1] is not a number'],
    [[0, 0], 'the vector is all zeros, so it has no direction to compare by cosine'],
  ])('refuses %j', (values, reason) => {
    expect(unitVector(values)).toBe(reason);
  });
});

describe('.npy embeddings', () => {
  const ids = write('ids.txt', 'x\ny\nz\n');

  it.each([1, 2] as const)('reads a version %i float32 matrix row by row with its ids', async (version) => {
    const file = write(`v${version}.npy`, npy([[1, 2], [3, 4], [5, -6.5]], { version }));
    const { records, issues } = await collect(readNpy(file, ids));
    expect(issues).toEqual([]);
    expect(records.map((r) => [r.id, Array.from(r.values as Float32Array), r.where.row])).toEqual([['x', [1, 2], 0], ['y', [3, 4], 1], ['z', [5, -6.5], 2]]);
  });

  it('parses the header of a version 2 file', () => {
    expect(parseNpyHeader(npy([[1, 2, 3]], { version: 2 }), 'f.npy')).toEqual({ rows: 1, cols: 3, dataOffset: 128 });
  });

  it.each([
    ['a wrong dtype', npy([[1, 2], [3, 4], [5, 6]], { descr: '<f8' }), "dtype is '<f8'; float32 ('<f4') is required (numpy: array.astype('<f4'))"],
    ['big-endian floats', npy([[1, 2], [3, 4], [5, 6]], { descr: '>f4' }), "dtype is '>f4'; float32 ('<f4') is required (numpy: array.astype('<f4'))"],
    ['Fortran order', npy([[1, 2], [3, 4], [5, 6]], { fortran: true }), 'the array is in Fortran order; C order is required (numpy: np.ascontiguousarray)'],
    ['a 1-D shape', npy([[1, 2, 3]], { shape: '(3,)' }), 'shape (3,) is not 2-D (rows, dimensions)'],
    ['no magic', Buffer.from('{"id": "a"}\n'), 'is not an .npy file (no \\x93NUMPY magic)'],
    ['a header cut short', npy([[1, 2], [3, 4], [5, 6]]).subarray(0, 40), 'is truncated: it declares 118 bytes, the file has 30'],
    ['a file cut inside the magic', npy([[1, 2]]).subarray(0, 4), 'is truncated'],
  ])('refuses %s, naming the header', async (_label, content, reason) => {
    const file = write('bad.npy', content);
    const { records, issues } = await collect(readNpy(file, ids));
    expect(records).toEqual([]);
    expect(issues).toEqual([{ file: 'bad.npy', field: 'header', reason }]);
  });

  it('refuses data cut short with the row it ends in, before reading any row', async () => {
    const file = write('short.npy', npy([[1, 2], [3, 4], [5, 6]], { cut: 5 }));
    const { records, issues } = await collect(readNpy(file, ids));
    expect(records).toEqual([]);
    expect(issues).toEqual([{ file: 'short.npy', row: 2, field: 'data', reason: 'is truncated: the file ends in row 2 of 3 (shape (3, 2) float32 needs 24 bytes of data, it has 19)' }]);
  });

  it('refuses bytes after the last row', async () => {
    const file = write('long.npy', Buffer.concat([npy([[1, 2], [3, 4], [5, 6]]), Buffer.alloc(4)]));
    const { issues } = await collect(readNpy(file, ids));
    expect(issues).toEqual([{ file: 'long.npy', row: 3, field: 'data', reason: 'has 4 bytes after the last row of shape (3, 2)' }]);
  });

  it('refuses an ids file whose count differs from the rows', async () => {
    const file = write('two.npy', npy([[1, 2], [3, 4]]));
    const { records, issues } = await collect(readNpy(file, ids));
    expect(records).toEqual([]);
    expect(issues).toEqual([{ file: 'ids.txt', field: 'ids', reason: 'has 3 ids for the 2 rows of two.npy' }]);
  });

  it('picks the reader by extension and wants the ids file with .npy only', async () => {
    const file = write('m.npy', npy([[1, 2], [3, 4], [5, 6]]));
    expect((await collect(readEmbeddingFile({ path: file, name: 'm.npy' }, null))).issues[0]!.reason).toMatch(/needs its ids file/);
    const jsonl = write('j.jsonl', '{"id": "a", "vector": [1]}\n');
    expect((await collect(readEmbeddingFile({ path: jsonl, name: 'j.jsonl' }, { path: ids, name: 'ids.txt' }))).issues[0]!.reason).toMatch(/goes with an .npy file only/);
    expect((await collect(readEmbeddingFile({ path: file, name: 'm.npy' }, { path: ids, name: 'ids.txt' }))).records).toHaveLength(3);
  });
});
