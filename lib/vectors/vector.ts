import { textProblem } from '../input';

/** Where a bad vector was found: a JSONL line, or an .npy row (0-based, as numpy counts) or ids-file line. */
export interface EmbeddingIssue {
  file: string;
  line?: number;
  row?: number;
  field: string;
  reason: string;
}

export function describeIssue(i: EmbeddingIssue): string {
  const at = i.line !== undefined ? ` line ${i.line}` : i.row !== undefined ? ` row ${i.row}` : '';
  return `${i.file}${at}, ${i.field}: ${i.reason}`;
}

/** The longest entity or query id accepted (ids are external ids, which are far shorter in practice). */
export const MAX_ID_LENGTH = 1000;
/** Widest vector accepted: text-embedding-3-large has 3,072 dimensions. */
export const MAX_DIMENSION = 16384;
const FLOAT32_MAX = 3.4028234663852886e38;

/** Why an id cannot be stored, or null. */
export function idProblem(id: string): string | null {
  if (!id) return 'is empty';
  if (id.length > MAX_ID_LENGTH) return `is longer than ${MAX_ID_LENGTH} characters`;
  return textProblem(id);
}

/**
 * Checks a vector's values (NaN, infinities, beyond float32, all zeros: cosine needs a direction) and returns
 * it as unit-length float32, or the problem naming the first bad component.
 */
export function unitVector(values: ArrayLike<unknown>): Float32Array | string {
  let sum = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (typeof v !== 'number') return `vector[${i}] is not a number`;
    if (Number.isNaN(v)) return `vector[${i}] is NaN`;
    if (!Number.isFinite(v)) return `vector[${i}] is ${v > 0 ? 'Infinity' : '-Infinity'}`;
    if (Math.abs(v) > FLOAT32_MAX) return `vector[${i}] (${v}) is beyond the float32 range`;
    sum += v * v;
  }
  if (sum === 0) return 'the vector is all zeros, so it has no direction to compare by cosine';
  const norm = Math.sqrt(sum);
  const unit = new Float32Array(values.length);
  for (let i = 0; i < values.length; i++) unit[i] = (values[i] as number) / norm;
  return unit;
}

/** Stored form: little-endian float32 (the byte order of every platform Node runs on here). */
export function vectorBytes(v: Float32Array): Buffer {
  return Buffer.from(v.buffer, v.byteOffset, v.byteLength);
}

/** Copies a stored vector into `target` at `offset` (in floats); false if its length is not `dimension` floats. */
export function readVector(bytes: Buffer, target: Float32Array, offset: number, dimension: number): boolean {
  if (bytes.length !== dimension * 4) return false;
  bytes.copy(Buffer.from(target.buffer, target.byteOffset + offset * 4, dimension * 4));
  return true;
}
