import os from 'node:os';

/** Upper bound for `--workers`: well past any machine's cores, low enough to stop a typo forking thousands. */
export const MAX_WORKERS = 256;

/**
 * On the embedded database every query from every process runs one at a time in the `skb serve` process
 * (PGlite is one session), so app processes beyond two only cost memory: two let one render a page while the
 * other waits for the database.
 */
export const EMBEDDED_DEFAULT_WORKERS = 2;

export interface WorkerCountInput {
  /** `--workers` as given on the command line. */
  option?: string;
  /** SKB_WORKERS. */
  env?: string;
  embedded: boolean;
  dev: boolean;
}

/**
 * How many app processes `skb serve` runs: `--workers`, else SKB_WORKERS, else one per core (at most
 * EMBEDDED_DEFAULT_WORKERS on the embedded database). The development server is always one process: its
 * compiler writes to .next as it goes. Throws, naming the setting, for anything but a whole number from 1.
 */
export function workerCount(input: WorkerCountInput, cores: number = os.availableParallelism()): number {
  const given = input.option !== undefined ? { value: input.option, from: '--workers' } : input.env ? { value: input.env, from: 'SKB_WORKERS' } : null;
  let n: number;
  if (given) {
    n = Number(given.value);
    if (!/^\d+$/.test(given.value.trim()) || n < 1 || n > MAX_WORKERS) {
      throw new Error(`${given.from} must be a whole number of app processes from 1 to ${MAX_WORKERS}, not "${given.value}"`);
    }
  } else {
    n = input.embedded ? Math.min(EMBEDDED_DEFAULT_WORKERS, cores) : cores;
  }
  return input.dev ? 1 : Math.max(1, n);
}
