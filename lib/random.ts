/** A seeded random number source returning floats in [0, 1). */
export type Rng = () => number;

/** mulberry32: tiny, fast and good enough for fixtures, generated data and benchmark inputs; same seed, same stream. */
export function mulberry32(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
