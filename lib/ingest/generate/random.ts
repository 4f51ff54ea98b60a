import { mulberry32, type Rng } from '../../random';

export type { Rng };

// mulberry32, one independent stream per purpose so that e.g. changing document templates does not
// reshuffle the edges.

/** A 32-bit seed for one purpose, mixed from the user's seed (any safe integer) and a label. */
function streamSeed(seed: number, label: string): number {
  let h = 0x811c9dc5 ^ (seed >>> 0);
  h = Math.imul(h ^ (Math.floor(seed / 4294967296) >>> 0), 0x01000193);
  for (let i = 0; i < label.length; i++) h = Math.imul(h ^ label.charCodeAt(i), 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

export const stream = (seed: number, label: string): Rng => mulberry32(streamSeed(seed, label));
export const pick = <T>(rng: Rng, list: readonly T[]): T => list[Math.floor(rng() * list.length)]!;
export const between = (rng: Rng, lo: number, hi: number): number => lo + Math.floor(rng() * (hi - lo + 1));
export const round = (x: number, digits: number): number => Number(x.toFixed(digits));
export const capital = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
export const list = (s: string): readonly string[] => s.split('|');

export function normal(rng: Rng): number {
  const u = 1 - rng();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng());
}

/** A log-normal draw with median `median` and spread `sigma` (of the logarithm). */
export function logNormal(rng: Rng, median: number, sigma: number): number {
  return median * Math.exp(sigma * normal(rng));
}

/** Fisher-Yates over a typed array, in place. */
export function shuffle(a: Int32Array, rng: Rng): Int32Array {
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    const tmp = a[i]!;
    a[i] = a[j]!;
    a[j] = tmp;
  }
  return a;
}

/** A name from `make` not yet in `taken` (retried, then numbered), added to it. */
export function uniqueName(make: () => string, taken: Set<string>): string {
  let name = make();
  for (let attempt = 0; attempt < 8 && taken.has(name); attempt++) name = make();
  for (let n = 2; taken.has(name); n++) name = `${make()} ${n}`;
  taken.add(name);
  return name;
}
