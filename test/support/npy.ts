/**
 * An .npy file as numpy writes it: magic, version, header length, the header dict padded with spaces so the
 * data starts at a multiple of 64 bytes, then the rows as little-endian float32. Options spoil it for tests.
 */
export function npyBytes(rows: number[][], opts: { version?: 1 | 2; descr?: string; fortran?: boolean; shape?: string; cut?: number } = {}): Buffer {
  const version = opts.version ?? 1;
  const shape = opts.shape ?? `(${rows.length}, ${rows[0]?.length ?? 0})`;
  let dict = `{'descr': '${opts.descr ?? '<f4'}', 'fortran_order': ${opts.fortran ? 'True' : 'False'}, 'shape': ${shape}, }`;
  const fixed = version === 1 ? 10 : 12;
  dict += ' '.repeat(64 - ((fixed + dict.length + 1) % 64)) + '\n';
  const head = Buffer.alloc(fixed);
  Buffer.from([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, version, 0]).copy(head);
  if (version === 1) head.writeUInt16LE(dict.length, 8);
  else head.writeUInt32LE(dict.length, 8);
  const data = Buffer.from(new Float32Array(rows.flat()).buffer);
  const whole = Buffer.concat([head, Buffer.from(dict, 'latin1'), data]);
  return opts.cut ? whole.subarray(0, whole.length - opts.cut) : whole;
}
