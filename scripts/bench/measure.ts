// Timing helpers for the benchmarks: run a query for many inputs, report percentiles, pace a simulated user.
import { mulberry32 } from '../../lib/random';

export interface Timing {
  name: string;
  runs: number;
  p50: number;
  p95: number;
  max: number;
}

/** The nearest-rank percentile `p` (0-100) of ascending `sorted`; NaN when it is empty. */
export function percentile(sorted: number[], p: number): number {
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i] ?? NaN;
}

/** Times `fn` once per input, after one untimed warm-up run per input kind (plans and caches warm, as in a live app). */
export async function time<T>(name: string, inputs: T[], fn: (input: T) => Promise<unknown>): Promise<Timing> {
  if (inputs.length === 0) throw new Error(`${name}: nothing to measure`);
  await fn(inputs[0]!);
  const ms: number[] = [];
  for (const input of inputs) {
    const t = performance.now();
    await fn(input);
    ms.push(performance.now() - t);
  }
  return timingOf(name, ms);
}

/** The percentiles of durations measured elsewhere (e.g. by a browser's own clock). */
export function timingOf(name: string, durations: number[]): Timing {
  if (durations.length === 0) throw new Error(`${name}: nothing measured`);
  const ms = [...durations].sort((a, b) => a - b);
  return { name, runs: ms.length, p50: percentile(ms, 50), p95: percentile(ms, 95), max: ms[ms.length - 1]! };
}

export function table(rows: (Timing & { budget?: number })[]): string {
  const f = (n: number) => n.toFixed(1);
  const lines = ['| measure | runs | p50 ms | p95 ms | max ms | budget (p95) |', '| --- | --- | --- | --- | --- | --- |'];
  for (const r of rows) lines.push(`| ${r.name} | ${r.runs} | ${f(r.p50)} | ${f(r.p95)} | ${f(r.max)} | ${r.budget === undefined ? '—' : `< ${r.budget} ms ${r.p95 < r.budget ? 'ok' : 'MISSED'}`} |`);
  return lines.join('\n');
}

/**
 * A simulated user's pauses between requests (reading, choosing): `meanMs` jittered by ±50%, drawn from a
 * stream seeded with `seed` so a run can be repeated; with a mean of 0 it never waits, not even a tick.
 */
export function thinkTime(meanMs: number, seed: number): () => Promise<void> {
  const rng = mulberry32(seed);
  return async () => {
    if (meanMs <= 0) return;
    const ms = meanMs * (0.5 + rng());
    await new Promise((resolve) => setTimeout(resolve, ms));
  };
}

/** How a run was paced, for its report: the mean think time, or back to back. */
export const thinkLabel = (meanMs: number) => (meanMs > 0 ? `${meanMs.toLocaleString('en')} ms ±50%` : 'none (back to back)');
