/** A one-dimensional int4[] as PostgreSQL's `array_send` writes it (an empty one has no dimensions). */
export function arraySend(values: number[]): Buffer {
  if (!values.length) return Buffer.from([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 23]);
  const buf = Buffer.alloc(20 + 8 * values.length);
  buf.writeInt32BE(1, 0);
  buf.writeInt32BE(0, 4);
  buf.writeInt32BE(23, 8);
  buf.writeInt32BE(values.length, 12);
  buf.writeInt32BE(1, 16);
  values.forEach((v, i) => { buf.writeInt32BE(4, 20 + 8 * i); buf.writeInt32BE(v, 24 + 8 * i); });
  return buf;
}
