/**
 * The cosine scan's inner loop as a small WebAssembly module with 128-bit SIMD: four float32 products at a
 * time, four running sums, so one query against 130,000 × 1,536 floats is a pass over memory rather than
 * 200 million scalar steps. Scores are float32 sums, as other vector search libraries compute them.
 *
 * The module is written out here instruction by instruction (no build step, no dependency):
 *
 *   scores(vectors, query, out, count, stride)   ; byte addresses; stride in floats, a multiple of 16
 *     vp = vectors; rowBytes = stride * 4
 *     for row in 0 .. count:
 *       acc0..acc3 = 0
 *       for j = 0; j < rowBytes; j += 64:
 *         acc[u] += load(vp + j + 16u) * load(query + j + 16u)   for u = 0..3
 *       out[row] = horizontal sum of acc0 + acc1 + acc2 + acc3
 *       vp += rowBytes
 */

const SIMD = 0xfd;
const op = {
  block: 0x02, loop: 0x03, end: 0x0b, br: 0x0c, brIf: 0x0d, localGet: 0x20, localSet: 0x21, localTee: 0x22,
  i32Const: 0x41, i32GeU: 0x4f, i32LtU: 0x49, i32Add: 0x6a, i32Shl: 0x74, f32Store: 0x38, f32Add: 0x92,
} as const;
const v128 = {
  load: [SIMD, 0x00], const: [SIMD, 0x0c], extractLane: [SIMD, 0x1f], add: [SIMD, 0xe4, 0x01], mul: [SIMD, 0xe6, 0x01],
} as const;
const I32 = 0x7f;
const V128 = 0x7b;
const EMPTY = 0x40;

/** Unsigned and signed LEB128, WebAssembly's integer encodings. */
function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let byte = n & 0x7f;
    n >>>= 7;
    if (n) byte |= 0x80;
    out.push(byte);
  } while (n);
  return out;
}
function sleb(n: number): number[] {
  const out: number[] = [];
  for (;;) {
    const byte = n & 0x7f;
    n >>= 7;
    if ((n === 0 && !(byte & 0x40)) || (n === -1 && byte & 0x40)) return [...out, byte];
    out.push(byte | 0x80);
  }
}
const str = (s: string) => [...uleb(s.length), ...Buffer.from(s)];
const section = (id: number, body: number[]) => [id, ...uleb(body.length), ...body];

// Parameters 0-4: vectors, query, out, count, stride; locals 5 row, 6 j, 7 vp, 8 rowBytes, 9-12 acc0-acc3.
const [VECTORS, QUERY, OUT, COUNT, STRIDE, ROW, J, VP, ROW_BYTES, ACC] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
const get = (i: number) => [op.localGet, i];
const set = (i: number) => [op.localSet, i];
const i32 = (n: number) => [op.i32Const, ...sleb(n)];
const load = (offset: number) => [...v128.load, 4, ...uleb(offset)];

function body(): number[] {
  const products = [0, 1, 2, 3].flatMap((u) => [
    ...get(ACC + u),
    ...get(VP), ...get(J), op.i32Add, ...load(16 * u),
    ...get(QUERY), ...get(J), op.i32Add, ...load(16 * u),
    ...v128.mul, ...v128.add, ...set(ACC + u),
  ]);
  const lane = (l: number) => [...get(ACC), ...v128.extractLane, l];
  const code = [
    ...i32(0), ...set(ROW),
    ...get(VECTORS), ...set(VP),
    ...get(STRIDE), ...i32(2), op.i32Shl, ...set(ROW_BYTES),
    op.block, EMPTY,
    op.loop, EMPTY,
    ...get(ROW), ...get(COUNT), op.i32GeU, op.brIf, 1,
    ...[0, 1, 2, 3].flatMap((u) => [...v128.const, ...new Array<number>(16).fill(0), ...set(ACC + u)]),
    ...i32(0), ...set(J),
    op.loop, EMPTY,
    ...products,
    ...get(J), ...i32(64), op.i32Add, op.localTee, J,
    ...get(ROW_BYTES), op.i32LtU, op.brIf, 0,
    op.end,
    ...get(OUT), ...get(ROW), ...i32(2), op.i32Shl, op.i32Add,
    ...get(ACC), ...get(ACC + 1), ...v128.add, ...get(ACC + 2), ...v128.add, ...get(ACC + 3), ...v128.add, op.localTee, ACC,
    ...v128.extractLane, 0, ...lane(1), op.f32Add, ...lane(2), op.f32Add, ...lane(3), op.f32Add,
    op.f32Store, 2, 0,
    ...get(VP), ...get(ROW_BYTES), op.i32Add, ...set(VP),
    ...get(ROW), ...i32(1), op.i32Add, ...set(ROW),
    op.br, 0,
    op.end,
    op.end,
    op.end,
  ];
  const locals = [2, 4, I32, 4, V128]; // two groups: 4 × i32, 4 × v128
  return [...uleb(locals.length + code.length), ...locals, ...code];
}

function moduleBytes(): Uint8Array<ArrayBuffer> {
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, [1, 0x60, 5, I32, I32, I32, I32, I32, 0]),
    ...section(2, [1, ...str('env'), ...str('memory'), 0x02, 0x00, 0x01]),
    ...section(3, [1, 0]),
    ...section(7, [1, ...str('scores'), 0x00, 0]),
    ...section(10, [1, ...body()]),
  ]);
}

let compiled: WebAssembly.Module | undefined;

/**
 * Memory for `count` vectors of `dimension` floats, each row padded with zeros to `stride` (a multiple of
 * 16), with room for one query and the scores, and the scan over it.
 */
export class ScoreKernel {
  readonly stride: number;
  readonly vectors: Float32Array;
  readonly query: Float32Array;
  readonly scores: Float32Array;
  private readonly run: (vectors: number, query: number, out: number, count: number, stride: number) => void;

  constructor(readonly count: number, readonly dimension: number) {
    this.stride = Math.max(16, Math.ceil(dimension / 16) * 16);
    const floats = (count + 1) * this.stride + count;
    const memory = new WebAssembly.Memory({ initial: Math.max(1, Math.ceil((floats * 4) / 65536)) });
    compiled ??= new WebAssembly.Module(moduleBytes());
    const instance = new WebAssembly.Instance(compiled, { env: { memory } });
    this.run = instance.exports.scores as ScoreKernel['run'];
    this.vectors = new Float32Array(memory.buffer, 0, count * this.stride);
    this.query = new Float32Array(memory.buffer, count * this.stride * 4, this.stride);
    this.scores = new Float32Array(memory.buffer, (count + 1) * this.stride * 4, count);
  }

  /** The cosine similarity of `query` (unit length, `dimension` floats) with the first `rows` rows, into `scores`. */
  score(query: Float32Array, rows = this.count): Float32Array {
    this.query.set(query);
    this.run(this.vectors.byteOffset, this.query.byteOffset, this.scores.byteOffset, rows, this.stride);
    return this.scores;
  }
}
